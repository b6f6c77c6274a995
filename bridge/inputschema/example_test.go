package inputschema_test

import (
	"fmt"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// Arguments are checked against the tool's inputSchema before the tool runs.
func ExampleSchema_ValidateJSON() {
	s, _ := inputschema.CompileJSON(
		[]byte(`{"type":"object","properties":{"age":{"type":"integer","minimum":0}},"required":["age"]}`))
	fmt.Println(s.ValidateJSON([]byte(`{"age":-1}`)))
	fmt.Println(s.ValidateJSON([]byte(`{"age":30}`)))
	// Output:
	// {"path":"/age","reason":"minimum","schemaPath":"/minimum","message":"-1 is less than 0"}
	// <nil>
}

// A schema is compiled when the tool is registered: what the subset leaves out, what this
// package cannot enforce, and ECMAScript-only patterns are refused there, not ignored.
func ExampleCompileJSON() {
	for _, schema := range []string{
		`{"type":"object","properties":{"when":{"type":"string","format":"date"}}}`,
		`{"type":"object","properties":{"tags":{"type":"array","uniqueItem":true}}}`,
		`{"type":"object","properties":{"pin":{"type":"string","pattern":"^(?!0000)\\d{4}$"}}}`,
	} {
		_, err := inputschema.CompileJSON([]byte(schema))
		fmt.Println(err)
	}
	// Output:
	// inputSchema/properties/when/format: format is not supported (excluded from the WebMCP input schema subset)
	// inputSchema/properties/tags/uniqueItem: "uniqueItem" is not a keyword this bridge enforces, so it is refused rather than ignored
	// inputSchema/properties/pin/pattern: "^(?!0000)\d{4}$" uses negative lookahead, which this bridge does not support (ECMAScript-only regular expression syntax)
}

// The keyword table, as a generator reads it (internal/build/tsgen writes it for the page).
func ExampleKeywords() {
	for _, k := range inputschema.Keywords() {
		switch k.Name {
		case "minLength", "properties", "title", "format":
			fmt.Println(strings.TrimSpace(k.Name + ": " + k.Kind + " " + k.Value + k.Reason))
		}
	}
	// Output:
	// minLength: enforced count
	// properties: enforced schema map
	// title: annotation
	// format: excluded format is not supported (excluded from the WebMCP input schema subset)
}
