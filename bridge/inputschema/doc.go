// Package inputschema compiles a WebMCP tool's inputSchema and validates call arguments
// against it, in pure Go that does not import encoding/json (it runs in the bridge's
// WebAssembly module).
//
// Compile once, when the tool is registered — a *SchemaError is the TypeError registerTool
// rejects with — then validate the arguments before every call; an *InputError is the JSON
// the WebMCP draft puts in a DataError's message:
//
//	s, err := inputschema.CompileJSON(tool.InputSchema)
//	if err != nil {
//		return err // e.g. inputSchema/properties/when/format: format is not supported (…)
//	}
//	…
//	if err := s.ValidateJSON(args); err != nil {
//		return err // {"path":"/age","reason":"minimum","schemaPath":"/minimum","message":"-1 is less than 0"}
//	}
//
// # The subset
//
// The WebMCP draft accepts a subset of JSON Schema draft 2020-12 that needs no other document
// and no knowledge of what a string means. This package knows every keyword by a table
// (keywords.go) and treats each one in one of four ways:
//
//   - enforced: type, enum, const; minLength, maxLength, pattern; minimum, maximum,
//     exclusiveMinimum, exclusiveMaximum, multipleOf; items, prefixItems, minItems, maxItems,
//     uniqueItems, contains, minContains, maxContains; properties, required,
//     additionalProperties (false only: WebMCP's conformance tests expect true and schemas to
//     be refused), minProperties, maxProperties; allOf, anyOf, oneOf, not; and the boolean
//     schemas true and false.
//   - annotations, accepted and ignored: title, description, default, examples, deprecated,
//     readOnly, writeOnly, $comment, $schema, $id.
//   - excluded from the subset, refused: references and definitions ($ref, $defs, anchors…),
//     format and the content keywords, if/then/else, dependent*, patternProperties,
//     propertyNames and unevaluated*.
//   - anything else, refused with its name: a keyword this package does not enforce must not
//     look as if it did, so an unknown keyword is an error, never silently ignored.
//
// Keywords describes the table for a generator: the page decides with it whether registerTool
// accepts a schema before the module is loaded (web/src/schema-check.ts, generated/keywords.ts).
//
// Keyword values are checked as the 2020-12 meta-schema requires (minLength a non-negative
// integer, required distinct strings, …); annotation values are not checked.
//
// Numbers are compared exactly, as decimals: 0.3 is a multiple of 0.1. Lengths count code
// points. pattern is an ECMA-262 regular expression run by Go's RE2: the common subset is
// kept as it is, ., \s, \uXXXX and a few other spellings are rewritten to their ECMAScript
// meaning, and the syntax RE2 cannot run — lookahead, lookbehind, backreferences — is refused
// when the schema is compiled, by name, rather than failing every call; so is a pattern longer
// than MaxPatternLength characters.
package inputschema
