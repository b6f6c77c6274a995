package inputschema_test

import (
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// FuzzInputSchema: compiling and validating never panic.
func FuzzInputSchema(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}},"required":["a"]}`, `{"a":"ab"}`)
	f.Add(`{"anyOf":[{"type":"integer"},{"type":"array","items":{"enum":[1]}}]}`, `[1,2]`)
	f.Fuzz(func(t *testing.T, schema, args string) {
		s, err := inputschema.CompileJSON([]byte(schema))
		if err != nil {
			return
		}
		_ = s.ValidateJSON([]byte(args))
	})
}
