package inputschema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

func TestCompileInputSchemaRejectsOutsideSubset(t *testing.T) {
	tests := []struct{ schema, err string }{
		{`{"type":"object","properties":{"x":{"$ref":"#/foo"}}}`, `inputSchema/properties/x/$ref: references are not supported (excluded from the WebMCP input schema subset)`},
		{`{"type":"object","properties":{"x":{"type":"string","format":"email"}}}`, `inputSchema/properties/x/format: format is not supported (excluded from the WebMCP input schema subset)`},
		{`{"type":"object","additionalProperties":true}`, `inputSchema/additionalProperties: only additionalProperties: false is supported`},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, `inputSchema/additionalProperties: only additionalProperties: false is supported`},
		{`{"type":"object","unevaluatedProperties":false}`, `inputSchema/unevaluatedProperties: unevaluatedProperties is not supported (excluded from the WebMCP input schema subset)`},
		{`{"type":"object","dependentRequired":{"x":["y"]}}`, `inputSchema/dependentRequired: dependentRequired is not supported (excluded from the WebMCP input schema subset)`},
		{`{"type":"string","pattern":"["}`, "inputSchema/pattern: \"[\" is not a valid regular expression: error parsing regexp: missing closing ]: `[`"},
		{`{"type":"object","properties":{"x":{"type":"string","$defs":{}}}}`, `inputSchema/properties/x/$defs: definitions are not supported (excluded from the WebMCP input schema subset)`},
		{`{"type":"object","properties":{"x":{"type":"string","contentEncoding":"base64"}}}`, `inputSchema/properties/x/contentEncoding: contentEncoding is not supported (excluded from the WebMCP input schema subset)`},
		{`{"type":"thing"}`, `inputSchema/type: "thing" is not a JSON Schema type`},
		{`"object"`, `inputSchema: a schema must be an object or a boolean, not string`},
	}
	for _, tt := range tests {
		_, err := inputschema.CompileJSON([]byte(tt.schema))
		assert.EqualError(t, err, tt.err, tt.schema)
	}
}

func TestInputSchemaValidate(t *testing.T) {
	s, err := inputschema.CompileJSON([]byte(`{
		"type":"object",
		"properties":{
			"field":{"type":"string"},
			"color":{"type":"string","enum":["red","green"]},
			"code":{"type":"string","pattern":"^[a-z]+$","minLength":2,"maxLength":4},
			"age":{"type":"integer","minimum":0,"maximum":120},
			"tags":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"number"},"maxItems":3},
			"a/b":{"const":1}
		},
		"required":["field"],
		"additionalProperties":false}`))
	require.NoError(t, err)
	tests := []struct {
		args                     string
		path, reason, schemaPath string
	}{
		{`{}`, "/field", "required", "/required"},
		{`{"field":"x","color":"blue"}`, "/color", "enum", "/enum"},
		{`{"field":"x","code":"ABC"}`, "/code", "pattern", "/pattern"},
		{`{"field":"x","code":"a"}`, "/code", "minLength", "/minLength"},
		{`{"field":"x","code":"abcde"}`, "/code", "maxLength", "/maxLength"},
		{`{"field":"x","age":"old"}`, "/age", "type", "/type"},
		{`{"field":"x","age":1.5}`, "/age", "type", "/type"},
		{`{"field":"x","age":121}`, "/age", "maximum", "/maximum"},
		{`{"field":"x","age":-1}`, "/age", "minimum", "/minimum"},
		{`{"field":"x","tags":[1]}`, "/tags/0", "type", "/type"},
		{`{"field":"x","tags":["a","b"]}`, "/tags/1", "type", "/type"},
		{`{"field":"x","tags":["a",1,2,3]}`, "/tags", "maxItems", "/maxItems"},
		{`{"field":"x","extra":1}`, "/extra", "additionalProperties", "/additionalProperties"},
		{`{"field":"x","a/b":2}`, "/a~1b", "const", "/const"},
		{`[]`, "", "type", "/type"},
	}
	for _, tt := range tests {
		err := s.ValidateJSON([]byte(tt.args))
		var ie *inputschema.InputError
		require.ErrorAs(t, err, &ie, tt.args)
		assert.Equal(t, tt.path, ie.Path, tt.args)
		assert.Equal(t, tt.reason, ie.Reason, tt.args)
		assert.Equal(t, tt.schemaPath, ie.SchemaPath, tt.args)
		assert.NotEmpty(t, ie.Message)
	}
	assert.NoError(t, s.ValidateJSON([]byte(`{"field":"x","color":"red","code":"abc","age":30,"tags":["a",1,2.5],"a/b":1}`)))

	none, err := inputschema.Compile(nil)
	require.NoError(t, err)
	assert.NoError(t, none.ValidateJSON(nil))
	assert.NoError(t, none.ValidateJSON([]byte(`{"anything":1}`)))
}
