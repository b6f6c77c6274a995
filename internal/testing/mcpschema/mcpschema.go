// Package mcpschema checks JSON against the official MCP schemas of 2025-06-18, 2025-11-25 and
// 2026-07-28, which it carries (schemas/, embedded), so tests need nothing outside the repo.
// Results the bridge produces must validate against all three at once. Only tests import it.
package mcpschema

import (
	"bytes"
	"embed"
	"fmt"
	"sort"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schemas/*.json
var files embed.FS

// callToolResult is where each schema defines CallToolResult.
var callToolResult = map[string]string{
	"schema-2025-06-18.json": "#/definitions/CallToolResult",
	"schema-2025-11-25.json": "#/$defs/CallToolResult",
	"schema-2026-07-28.json": "#/$defs/CallToolResult",
}

var compiled = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	out := map[string]*jsonschema.Schema{}
	for file, ptr := range callToolResult {
		b, err := files.ReadFile("schemas/" + file)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		c := jsonschema.NewCompiler()
		// "uri" is checked; the validator knows no "byte" format, so base64 is left to the
		// go-sdk, whose []byte fields refuse anything but standard base64.
		c.AssertFormat()
		if err := c.AddResource("file:///"+file, doc); err != nil {
			return nil, err
		}
		s, err := c.Compile("file:///" + file + ptr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out[file] = s
	}
	return out, nil
})

// Versions names the schema files, in order.
func Versions() []string {
	out := make([]string, 0, len(callToolResult))
	for f := range callToolResult {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// ValidateCallToolResult reports the first schema that rejects b as a CallToolResult, and why.
func ValidateCallToolResult(b []byte) error {
	for _, version := range Versions() {
		if err := Validate(version, b); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks b as a CallToolResult against one schema file (one of [Versions]).
func Validate(version string, b []byte) error {
	schemas, err := compiled()
	if err != nil {
		return err
	}
	s, ok := schemas[version]
	if !ok {
		return fmt.Errorf("no schema %q", version)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("%s rejects the result: %w", version, err)
	}
	return nil
}
