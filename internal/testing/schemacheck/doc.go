// Package schemacheck holds the test that the page decides about an inputSchema exactly as
// the Go module does: web/src/schema-check.ts, run by node, against bridge/inputschema's
// Compile, over one corpus. It has no code of its own.
package schemacheck
