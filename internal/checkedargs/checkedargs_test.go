//go:build !js

package checkedargs_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/internal/checkedargs"
)

// TestClaim: a claim is made only for arguments that pass the schema here, within the default
// limits, with the arguments as compact text and the schema as Go writes it; never for a tool
// without a schema, a schema outside the subset, or arguments that are not an object.
func TestClaim(t *testing.T) {
	schema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": 5.0}},
		"required":   []any{"n"},
	}
	const schemaText = `{"properties":{"n":{"maximum":5,"type":"integer"}},"required":["n"],"type":"object"}`
	long := `{"n":1,"pad":"` + strings.Repeat("x", 600<<10) + `"}`
	for _, c := range []struct {
		name   string
		schema map[string]any
		args   string
		want   *checkedargs.Claim
	}{
		{"valid", schema, `{"n":2}`, &checkedargs.Claim{Schema: schemaText, Args: `{"n":2}`}},
		{"compacted", schema, "{ \"n\" : 2 }\n", &checkedargs.Claim{Schema: schemaText, Args: `{"n":2}`}},
		{"over the maximum", schema, `{"n":99}`, nil},
		{"missing", schema, `{}`, nil},
		{"not an object", schema, `[1]`, nil},
		{"not JSON", schema, `{"n":`, nil},
		{"over maxArgumentBytes", schema, long, nil},
		{"no schema", nil, `{"n":2}`, nil},
		{"outside the subset", map[string]any{"$ref": "#/x"}, `{}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ch checkedargs.Checker
			assert.Equal(t, c.want, ch.Claim(c.schema, json.RawMessage(c.args)))
		})
	}
}

// TestClaimManySchemas: past the compiled schemas a Checker keeps, claims are still made and
// still right.
func TestClaimManySchemas(t *testing.T) {
	var ch checkedargs.Checker
	for i := range 1000 {
		s := map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"maximum": float64(i)}}}
		assert.NotNil(t, ch.Claim(s, json.RawMessage(`{"n":0}`)), "schema %d", i)
		assert.Nil(t, ch.Claim(s, json.RawMessage(`{"n":1001}`)), "schema %d", i)
	}
}
