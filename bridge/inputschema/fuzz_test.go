package inputschema_test

import (
	"errors"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// FuzzInputSchema: compiling and validating never panic, every error is the documented type,
// and validating the same arguments twice gives the same answer.
func FuzzInputSchema(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}},"required":["a"]}`, `{"a":"ab"}`)
	f.Add(`{"anyOf":[{"type":"integer"},{"type":"array","items":{"enum":[1]}}]}`, `[1,2]`)
	f.Add(`{"uniqueItems":true,"maxProperties":1}`, `{"t":[1,1],"u":2}`)
	f.Add(`{"prefixItems":[{"const":1.0}],"items":false,"contains":{"multipleOf":0.01},"minContains":2}`, `[1,19.99,0.07]`)
	f.Add(
		`{"properties":{"p":{"pattern":"^\\u{1F600}[\\s\\S][^]\\cJ.$"}},"additionalProperties":{"not":{"type":"null"}}}`,
		`{"p":"😀 x\n.","q":null}`)
	f.Add(`{"pattern":"(?<=a)b"}`, `"b"`)
	f.Add(`{"oneOf":[{"minimum":1e400},{"exclusiveMaximum":-1e-400}],"maxLength":1e30}`, `1e401`)
	f.Fuzz(func(t *testing.T, schema, args string) {
		s, err := inputschema.CompileJSON([]byte(schema))
		if err != nil {
			var se *inputschema.SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("Compile returned %T", err)
			}
			return
		}
		first, again := s.ValidateJSON([]byte(args)), s.ValidateJSON([]byte(args))
		if first == nil {
			if again != nil {
				t.Fatalf("valid, then %v", again)
			}
			return
		}
		var ie *inputschema.InputError
		if !errors.As(first, &ie) {
			t.Fatalf("Validate returned %T", first)
		}
		if again == nil || again.Error() != first.Error() {
			t.Fatalf("%v, then %v", first, again)
		}
	})
}

// FuzzPattern: any pattern either compiles or is refused with a SchemaError, and a compiled
// one matches any string without panicking. The ECMAScript rewriting is the riskiest code.
func FuzzPattern(f *testing.F) {
	for _, p := range []string{`^(?=.*\d)\w+$`, `[\s\S]\u{10FFFF}\ud83d\ude00`, `[^]|[]|\cz\0`, `[[:alpha:]]`,
		`\k<n>(?<n>x)\1`, `\u12`, `\ud800`, `\`} {
		f.Add(p, "a😀 \u2028")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		schema := map[string]any{"pattern": pattern}
		c, err := inputschema.Compile(schema)
		if err != nil {
			var se *inputschema.SchemaError
			if !errors.As(err, &se) || se.Path != "/pattern" {
				t.Fatalf("Compile returned %#v", err)
			}
			return
		}
		_ = c.Validate(s)
	})
}
