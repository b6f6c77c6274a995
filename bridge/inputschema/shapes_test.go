package inputschema_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// TestKeywordsDescribeTheTable: the exported table says what Compile does with each keyword —
// an excluded or refused keyword is refused with its Reason, an annotation is accepted
// whatever its value, and an enforced keyword has a value shape.
func TestKeywordsDescribeTheTable(t *testing.T) {
	rows := inputschema.Keywords()
	require.NotEmpty(t, rows)
	for _, k := range rows {
		schema := []byte(`{"properties":{"p":{` + strconv.Quote(k.Name) + `:{"x":[1]}}}}`)
		_, err := inputschema.CompileJSON(schema)
		switch k.Kind {
		case "excluded", "refused":
			assert.Empty(t, k.Value, k.Name)
			assert.EqualError(t, err, "inputSchema/properties/p/"+k.Name+": "+k.Reason, k.Name)
		case "annotation":
			assert.Empty(t, k.Value+k.Reason, k.Name)
			assert.NoError(t, err, k.Name)
		case "enforced":
			assert.Empty(t, k.Reason, k.Name)
			assert.Contains(t, []string{"any", "types", "array", "count", "number", "positive number", "boolean", "pattern",
				"names", "schema", "schemas", "schema map", "item schema", "false"}, k.Value, k.Name)
		default:
			t.Errorf("%s: kind %q", k.Name, k.Kind)
		}
	}
	assert.Equal(t, "type", rows[0].Name, "the table's order: the type first")
	assert.Equal(t, []string{"object", "array", "string", "number", "integer", "boolean", "null"}, inputschema.TypeNames())
}

// TestMessagesAreCompilesReasons: a reason registerTool gives comes from Messages.
func TestMessagesAreCompilesReasons(t *testing.T) {
	m := inputschema.Messages()
	for schema, name := range map[string]string{
		`{"minLength":-1}`: "count", `{"multipleOf":0}`: "positive", `{"enum":1}`: "array", `{"items":[]}`: "tuple",
		`{"additionalProperties":true}`: "false", `{"allOf":[]}`: "schemas", `{"required":[1]}`: "names",
		`{"uniqueItems":1}`: "boolean",
	} {
		_, err := inputschema.CompileJSON([]byte(schema))
		var se *inputschema.SchemaError
		require.ErrorAs(t, err, &se, schema)
		assert.Equal(t, m[name], se.Reason, schema)
	}
}
