package inputschema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// keywordCase is a schema, the error Compile gives for it ("" when it compiles), and for a
// schema that compiles, arguments it accepts and arguments it refuses (with the reason).
type keywordCase struct {
	schema string
	err    string
	valid  []string
	bad    map[string]string // arguments → InputError.Reason
}

// keywordCases walks the keyword table: every enforced keyword with values it accepts (and
// what they do) and values it refuses, annotations, excluded and unknown keywords.
var keywordCases = []keywordCase{
	// type
	{schema: `{"type":"integer"}`, valid: []string{`1`, `1.0`, `-7`, `1e2`, `12345678901234567890`},
		bad: map[string]string{`1.5`: "type", `"1"`: "type", `true`: "type"}},
	{schema: `{"properties":{"v":{"type":["string","null"]}}}`, valid: []string{`{"v":"x"}`, `{"v":null}`},
		bad: map[string]string{`{"v":1}`: "type"}},
	{schema: `{"type":"number"}`, valid: []string{`1`, `1.5`}, bad: map[string]string{`[]`: "type"}},
	{schema: `{"type":"thing"}`, err: `inputSchema/type: "thing" is not a JSON Schema type`},
	{schema: `{"type":[]}`, err: `inputSchema/type: must not be an empty array`},
	{schema: `{"type":["string","string"]}`, err: `inputSchema/type: lists "string" twice`},
	{schema: `{"type":1}`, err: `inputSchema/type: must be a type name or a non-empty array of distinct type names`},
	// const and enum compare JSON values: numbers by value, members in any order
	{schema: `{"const":{"a":[1,2],"b":null}}`, valid: []string{`{"b":null,"a":[1.0,2]}`},
		bad: map[string]string{`{"a":[2,1],"b":null}`: "const", `{"a":[1,2]}`: "const"}},
	{schema: `{"enum":["red",1,[true]]}`, valid: []string{`"red"`, `1.0`, `[true]`},
		bad: map[string]string{`"blue"`: "enum", `{}`: "enum", `[1]`: "enum"}},
	{schema: `{"enum":[]}`, bad: map[string]string{`{}`: "enum"}},
	{schema: `{"enum":{}}`, err: `inputSchema/enum: must be an array`},
	// strings: lengths in code points
	{schema: `{"minLength":2}`, valid: []string{`"ab"`, `"é😀"`, `1`},
		bad: map[string]string{`"a"`: "minLength", `"😀"`: "minLength"}},
	{schema: `{"maxLength":2}`, valid: []string{`"é😀"`, `""`}, bad: map[string]string{`"abc"`: "maxLength"}},
	{schema: `{"minLength":-1}`, err: `inputSchema/minLength: must be a non-negative integer`},
	{schema: `{"maxLength":1.5}`, err: `inputSchema/maxLength: must be a non-negative integer`},
	{schema: `{"maxLength":2.0}`, valid: []string{`"ab"`}, bad: map[string]string{`"abc"`: "maxLength"}},
	{schema: `{"pattern":"^a+$"}`, valid: []string{`"aa"`, `3`}, bad: map[string]string{`"ab"`: "pattern"}},
	{schema: `{"pattern":"b"}`, valid: []string{`"abc"`}, bad: map[string]string{`"ac"`: "pattern"}},
	{schema: `{"pattern":1}`, err: `inputSchema/pattern: must be a string`},
	{schema: `{"pattern":"["}`, err: `inputSchema/pattern: "[" is not a valid regular expression: missing closing ]`},
	{schema: `{"pattern":"[a-z]{1000}!"}`,
		err: `inputSchema/pattern: "[a-z]{1000}!" has a repetition product of 1001 ` +
			`(its items once each counted repetition is written out): ` +
			`the largest this bridge accepts is 1000, as checking it would take too long`},
	{schema: `{"pattern":"^(?:a{0,1000})*b$"}`,
		err: `inputSchema/pattern: "^(?:a{0,1000})*b$" has a repetition product of 1003 ` +
			`(its items once each counted repetition is written out): ` +
			`the largest this bridge accepts is 1000, as checking it would take too long`},
	{schema: `{"pattern":"(?:ab|cd){500}x"}`,
		err: `inputSchema/pattern: "(?:ab|cd){500}x" has a repetition product of 2001 ` +
			`(its items once each counted repetition is written out): ` +
			`the largest this bridge accepts is 1000, as checking it would take too long`},
	{schema: `{"pattern":"a{999}\\Qxy\\E."}`,
		err: `inputSchema/pattern: "a{999}\Qxy\E." has a repetition product of 1001 ` +
			`(its items once each counted repetition is written out): ` +
			`the largest this bridge accepts is 1000, as checking it would take too long`},
	{schema: `{"pattern":"(?<n>[\\]x]{10}\\x{41}\\p{Greek}){100}"}`,
		err: `inputSchema/pattern: "(?<n>[\]x]{10}\x{41}\p{Greek}){100}" has a repetition product of 1200 ` +
			`(its items once each counted repetition is written out): ` +
			`the largest this bridge accepts is 1000, as checking it would take too long`},
	{schema: `{"pattern":"(?i)\\d{500}(?:\\x41|\\pL){250}\\b"}`,
		err: `inputSchema/pattern: "(?i)\d{500}(?:\x41|\pL){250}\b" has a repetition product of 1001 ` +
			`(its items once each counted repetition is written out): ` +
			`the largest this bridge accepts is 1000, as checking it would take too long`},
	{schema: `{"pattern":"(?:ab|cd){249}x(?i)"}`, valid: []string{`3`}, bad: map[string]string{`"x"`: "pattern"}},
	{schema: `{"pattern":"a{999}\\Q\\E."}`, valid: []string{`3`}, bad: map[string]string{`"b"`: "pattern"}},
	{schema: `{"pattern":"\\S{1,256}@\\S{1,256}"}`, valid: []string{`"a@b"`}, bad: map[string]string{`"ab"`: "pattern"}},
	{schema: `{"pattern":"(?:[a-z]{10}){100}"}`, valid: []string{`3`}, bad: map[string]string{`"b"`: "pattern"}},
	// numbers, compared exactly
	{schema: `{"minimum":0}`, valid: []string{`0`, `0.0`, `1e-300`, `"x"`},
		bad: map[string]string{`-0.0001`: "minimum", `-1e300`: "minimum"}},
	{schema: `{"maximum":9007199254740992}`, valid: []string{`9007199254740992`},
		bad: map[string]string{`9007199254740993`: "maximum"}},
	{schema: `{"exclusiveMinimum":0}`, valid: []string{`0.001`}, bad: map[string]string{`0`: "exclusiveMinimum"}},
	{schema: `{"exclusiveMaximum":10}`, valid: []string{`9.999`}, bad: map[string]string{`10.0`: "exclusiveMaximum"}},
	{schema: `{"exclusiveMinimum":true}`, err: `inputSchema/exclusiveMinimum: must be a number`},
	{schema: `{"maximum":"1"}`, err: `inputSchema/maximum: must be a number`},
	{schema: `{"multipleOf":0.01}`, valid: []string{`19.99`, `0.07`, `100`, `0`, `-0.3`},
		bad: map[string]string{`0.001`: "multipleOf", `19.995`: "multipleOf"}},
	{schema: `{"multipleOf":0.1}`, valid: []string{`0.3`, `1e300`},
		bad: map[string]string{`0.35`: "multipleOf", `1e-300`: "multipleOf"}},
	{schema: `{"multipleOf":3}`, valid: []string{`9`, `3e5`, `-12`},
		bad: map[string]string{`10`: "multipleOf", `4.5`: "multipleOf"}},
	{schema: `{"multipleOf":0}`, err: `inputSchema/multipleOf: must be greater than 0`},
	{schema: `{"multipleOf":-2}`, err: `inputSchema/multipleOf: must be greater than 0`},
	// arrays
	{schema: `{"minItems":1}`, valid: []string{`[1]`, `{}`}, bad: map[string]string{`[]`: "minItems"}},
	{schema: `{"maxItems":1}`, valid: []string{`[1]`}, bad: map[string]string{`[1,2]`: "maxItems"}},
	{schema: `{"maxItems":1e40}`, valid: []string{`[1,2]`}},
	{schema: `{"uniqueItems":true}`, valid: []string{`[1,2]`, `[[1],[2]]`, `[{"a":1},{"a":2}]`, `[1,"1"]`},
		bad: map[string]string{`[1,1.0]`: "uniqueItems", `[{"a":1,"b":2},{"b":2,"a":1}]`: "uniqueItems"}},
	{schema: `{"uniqueItems":false}`, valid: []string{`[1,1]`}},
	{schema: `{"uniqueItems":"yes"}`, err: `inputSchema/uniqueItems: must be a boolean`},
	{schema: `{"prefixItems":[{"type":"string"}],"items":false}`, valid: []string{`["a"]`, `[]`},
		bad: map[string]string{`["a",1]`: "items", `[1]`: "type"}},
	{schema: `{"prefixItems":[]}`, err: `inputSchema/prefixItems: must be a non-empty array of schemas`},
	{schema: `{"items":{"type":"integer"}}`, valid: []string{`[1,2]`}, bad: map[string]string{`[1,"2"]`: "type"}},
	{schema: `{"items":[{"type":"string"}]}`,
		err: `inputSchema/items: must be a schema; for a tuple use "prefixItems" ` +
			`(the array form of "items" is from drafts before 2020-12)`},
	{schema: `{"contains":{"type":"string"}}`, valid: []string{`[1,"a"]`, `"no array"`},
		bad: map[string]string{`[1,2]`: "contains", `[]`: "contains"}},
	{schema: `{"contains":{"type":"string"},"minContains":2,"maxContains":3}`, valid: []string{`["a","b",1]`},
		bad: map[string]string{`["a"]`: "minContains", `["a","b","c","d"]`: "maxContains"}},
	{schema: `{"contains":{"type":"string"},"minContains":0}`, valid: []string{`[]`, `[1]`}},
	{schema: `{"minContains":2}`, valid: []string{`[]`}},
	{schema: `{"maxContains":-1}`, err: `inputSchema/maxContains: must be a non-negative integer`},
	// objects
	{schema: `{"required":["a"]}`, valid: []string{`{"a":1}`, `[]`}, bad: map[string]string{`{"b":1}`: "required"}},
	{schema: `{"required":["a","a"]}`, err: `inputSchema/required: lists "a" twice`},
	{schema: `{"required":"a"}`, err: `inputSchema/required: must be an array of strings`},
	{schema: `{"minProperties":1}`, valid: []string{`{"a":1}`}, bad: map[string]string{`{}`: "minProperties"}},
	{schema: `{"maxProperties":1}`, valid: []string{`{"a":1}`}, bad: map[string]string{`{"a":1,"b":2}`: "maxProperties"}},
	{schema: `{"properties":{"a":{"type":"string"}}}`, valid: []string{`{"a":"x"}`, `{"b":1}`},
		bad: map[string]string{`{"a":1}`: "type"}},
	{schema: `{"properties":{"a":false}}`, valid: []string{`{}`}, bad: map[string]string{`{"a":1}`: "properties"}},
	{schema: `{"properties":[]}`, err: `inputSchema/properties: must be an object`},
	{schema: `{"properties":{"a/b":{"type":"thing"}}}`,
		err: `inputSchema/properties/a~1b/type: "thing" is not a JSON Schema type`},
	{schema: `{"properties":{"c":{"type":"z"},"b":{"type":"y"},"a":{"type":"x"}}}`,
		err: `inputSchema/properties/a/type: "x" is not a JSON Schema type`},
	{schema: `{"properties":{"a":true},"additionalProperties":false}`, valid: []string{`{"a":1}`},
		bad: map[string]string{`{"b":1}`: "additionalProperties"}},
	{schema: `{"properties":{"a/b":true,"b":true},"additionalProperties":false}`, valid: []string{`{"a/b":1,"b":2}`},
		bad: map[string]string{`{"a":1,"b":2,"c":3}`: "additionalProperties"}},
	{schema: `{"additionalProperties":false}`, valid: []string{`{}`, `[1]`},
		bad: map[string]string{`{"a":1}`: "additionalProperties"}},
	// only false: WebMCP's conformance tests expect registerTool to refuse the rest
	{schema: `{"additionalProperties":true}`,
		err: `inputSchema/additionalProperties: only additionalProperties: false is supported`},
	{schema: `{"additionalProperties":{"type":"string"}}`,
		err: `inputSchema/additionalProperties: only additionalProperties: false is supported`},
	{schema: `{"additionalProperties":{}}`,
		err: `inputSchema/additionalProperties: only additionalProperties: false is supported`},
	// combinators and boolean schemas
	{schema: `{"allOf":[{"minimum":1},{"maximum":2}]}`, valid: []string{`1.5`}, bad: map[string]string{`3`: "maximum"}},
	{schema: `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, valid: []string{`"a"`, `1`},
		bad: map[string]string{`1.5`: "anyOf"}},
	{schema: `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, valid: []string{`-1`, `0.5`},
		bad: map[string]string{`1`: "oneOf", `-0.5`: "oneOf"}},
	{schema: `{"not":{"type":"string"}}`, valid: []string{`1`}, bad: map[string]string{`"a"`: "not"}},
	{schema: `{"allOf":[]}`, err: `inputSchema/allOf: must be a non-empty array of schemas`},
	{schema: `{"anyOf":[{"$ref":"#"}]}`,
		err: `inputSchema/anyOf/0/$ref: references are not supported (excluded from the WebMCP input schema subset)`},
	{schema: `true`, valid: []string{`{}`, `1`}},
	{schema: `false`, bad: map[string]string{`{}`: "false", `1`: "false"}},
	{schema: `"object"`, err: `inputSchema: a schema must be an object or a boolean, not string`},
	// issue 8: these used to be ignored
	{schema: `{"uniqueItems":true,"maxProperties":1}`, valid: []string{`{"t":[1,1]}`},
		bad: map[string]string{`{"t":[1,1],"u":2}`: "maxProperties"}},
	{schema: `{"properties":{"t":{"uniqueItems":true}},"maxProperties":1}`, valid: []string{`{"t":[1,2]}`},
		bad: map[string]string{`{"t":[1,1]}`: "uniqueItems", `{"t":[1,2],"u":2}`: "maxProperties"}},
	// annotations: accepted, and they constrain nothing
	{
		schema: `{"title":"T","description":"D","default":1,"examples":[1],"deprecated":true,"readOnly":true,` +
			`"writeOnly":false,` +
			`"$comment":"c","$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/s"}`,
		valid: []string{`{}`, `1`, `"x"`},
	},
	{schema: `{"properties":{"a":{"type":"string","title":1,"description":{"any":"value"}}}}`,
		valid: []string{`{"a":"x"}`}},
	// excluded from the subset
	{schema: `{"properties":{"x":{"$ref":"#/foo"}}}`,
		err: `inputSchema/properties/x/$ref: references are not supported (excluded from the WebMCP input schema subset)`},
	{schema: `{"properties":{"x":{"type":"string","format":"email"}}}`,
		err: `inputSchema/properties/x/format: format is not supported (excluded from the WebMCP input schema subset)`},
	{schema: `{"properties":{"x":{"$defs":{}}}}`,
		err: `inputSchema/properties/x/$defs: definitions are not supported (excluded from the WebMCP input schema subset)`},
	{schema: `{"contentEncoding":"base64"}`,
		err: `inputSchema/contentEncoding: contentEncoding is not supported (excluded from the WebMCP input schema subset)`},
	{schema: `{"unevaluatedProperties":false}`,
		err: `inputSchema/unevaluatedProperties: unevaluatedProperties is not supported ` +
			`(excluded from the WebMCP input schema subset)`},
	{schema: `{"dependentRequired":{"x":["y"]}}`,
		err: `inputSchema/dependentRequired: dependentRequired is not supported ` +
			`(excluded from the WebMCP input schema subset)`},
	{schema: `{"dependentSchemas":{}}`,
		err: `inputSchema/dependentSchemas: dependentSchemas is not supported ` +
			`(excluded from the WebMCP input schema subset)`},
	{schema: `{"if":true,"then":false}`,
		err: `inputSchema/if: if/then/else is not supported (excluded from the WebMCP input schema subset)`},
	{schema: `{"patternProperties":{}}`,
		err: `inputSchema/patternProperties: patternProperties is not supported ` +
			`(excluded from the WebMCP input schema subset)`},
	{schema: `{"propertyNames":{}}`,
		err: `inputSchema/propertyNames: propertyNames is not supported (excluded from the WebMCP input schema subset)`},
	// anything else is refused by name, never ignored
	{schema: `{"uniqueItem":true}`,
		err: `inputSchema/uniqueItem: "uniqueItem" is not a keyword this bridge enforces, ` +
			`so it is refused rather than ignored`},
	{schema: `{"properties":{"a":{"nullable":true}}}`,
		err: `inputSchema/properties/a/nullable: "nullable" is not a keyword this bridge enforces, ` +
			`so it is refused rather than ignored`},
	{schema: `{"additionalItems":false}`,
		err: `inputSchema/additionalItems: "additionalItems" is not a draft 2020-12 keyword: ` +
			`use "items" after "prefixItems"`},
	// with several problems the first member in name order is reported
	{schema: `{"minLength":-1,"foo":1,"$ref":"#"}`,
		err: `inputSchema/$ref: references are not supported (excluded from the WebMCP input schema subset)`},
}

func TestKeywordTable(t *testing.T) {
	for _, tt := range keywordCases {
		t.Run(tt.schema, func(t *testing.T) {
			s, err := inputschema.CompileJSON([]byte(tt.schema))
			if tt.err != "" {
				var se *inputschema.SchemaError
				require.ErrorAs(t, err, &se)
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			for _, args := range tt.valid {
				assert.NoError(t, s.ValidateJSON([]byte(args)), args)
			}
			for args, reason := range tt.bad {
				var ie *inputschema.InputError
				if assert.ErrorAs(t, s.ValidateJSON([]byte(args)), &ie, args) {
					assert.Equal(t, reason, ie.Reason, args)
					assert.Equal(t, "/"+reason, ie.SchemaPath, args)
					assert.NotEmpty(t, ie.Message, args)
				}
			}
		})
	}
}

func TestEveryExcludedKeywordIsRefused(t *testing.T) {
	for _, k := range []string{"$ref", "$dynamicRef", "$defs", "definitions", "$anchor", "$dynamicAnchor", "$vocabulary",
		"format", "contentEncoding", "contentMediaType", "contentSchema", "unevaluatedProperties", "unevaluatedItems",
		"dependentRequired", "dependentSchemas", "dependencies", "patternProperties", "propertyNames", "if", "then", "else"} {
		_, err := inputschema.CompileJSON([]byte(`{"properties":{"a":{"` + k + `":{}}}}`))
		var se *inputschema.SchemaError
		require.ErrorAs(t, err, &se, k)
		assert.Equal(t, "/properties/a/"+k, se.Path)
		assert.Contains(t, se.Reason, " not supported (excluded from the WebMCP input schema subset)", k)
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
		message                  string
	}{
		{`{}`, "/field", "required", "/required", `the required property "field" is missing`},
		{`{"field":"x","color":"blue"}`, "/color", "enum", "/enum", `"blue" is not one of ["red","green"]`},
		{`{"field":"x","code":"ABC"}`, "/code", "pattern", "/pattern", `does not match ^[a-z]+$`},
		{`{"field":"x","code":"a"}`, "/code", "minLength", "/minLength", `shorter than 2 characters`},
		{`{"field":"x","code":"abcde"}`, "/code", "maxLength", "/maxLength", `longer than 4 characters`},
		{`{"field":"x","age":"old"}`, "/age", "type", "/type", `expected integer, got string`},
		{`{"field":"x","age":1.5}`, "/age", "type", "/type", `expected integer, got number`},
		{`{"field":"x","age":121}`, "/age", "maximum", "/maximum", `121 is greater than 120`},
		{`{"field":"x","age":-1}`, "/age", "minimum", "/minimum", `-1 is less than 0`},
		{`{"field":"x","tags":[1]}`, "/tags/0", "type", "/type", `expected string, got integer`},
		{`{"field":"x","tags":["a","b"]}`, "/tags/1", "type", "/type", `expected number, got string`},
		{`{"field":"x","tags":["a",1,2,3]}`, "/tags", "maxItems", "/maxItems", `more than 3 items`},
		{`{"field":"x","extra":1}`, "/extra", "additionalProperties", "/additionalProperties",
			`the property "extra" is not allowed`},
		{`{"field":"x","a/b":2}`, "/a~1b", "const", "/const", `must be 1`},
		{`{"field":1,"age":-1,"color":"blue"}`, "/age", "minimum", "/minimum", `-1 is less than 0`}, // members in name order
		{`[]`, "", "type", "/type", `expected object, got array`},
		{`{`, "", "type", "/type", `not JSON: unexpected end of input`},
	}
	for _, tt := range tests {
		err := s.ValidateJSON([]byte(tt.args))
		var ie *inputschema.InputError
		require.ErrorAs(t, err, &ie, tt.args)
		assert.Equal(t,
			inputschema.InputError{Path: tt.path, Reason: tt.reason, SchemaPath: tt.schemaPath, Message: tt.message},
			*ie, tt.args)
	}
	assert.NoError(t,
		s.ValidateJSON([]byte(`{"field":"x","color":"red","code":"abc","age":30,"tags":["a",1,2.5],"a/b":1}`)))
	assert.NoError(t, s.Validate(map[string]any{"field": "x", "age": 30, "tags": []any{"a", 1.5, int64(2)}}), "Go values")
	assert.Error(t, s.Validate(map[string]any{"field": "x", "age": 30.5}), "Go values")
}

func TestNoSchemaAcceptsAnyArguments(t *testing.T) {
	for _, schema := range []string{"", " ", "{}", "true"} {
		s, err := inputschema.CompileJSON([]byte(schema))
		require.NoError(t, err, schema)
		for _, args := range []string{"", "{}", `{"anything":[1,{"x":null}]}`} {
			assert.NoError(t, s.ValidateJSON([]byte(args)), "%q with %q", schema, args)
		}
	}
	none, err := inputschema.Compile(nil)
	require.NoError(t, err)
	assert.NoError(t, none.Validate(nil))
}

func TestMissingArgumentsCountAsEmptyObject(t *testing.T) {
	s, err := inputschema.CompileJSON([]byte(`{"type":"object","required":["a"]}`))
	require.NoError(t, err)
	for _, args := range []string{"", "null"} {
		var ie *inputschema.InputError
		require.ErrorAs(t, s.ValidateJSON([]byte(args)), &ie, args)
		assert.Equal(t, "required", ie.Reason)
	}
}

func TestSchemaErrorsCarryTheirPath(t *testing.T) {
	_, err := inputschema.CompileJSON([]byte(`{"properties":{"a":{"items":{"anyOf":[true,{"format":"date"}]}}}}`))
	var se *inputschema.SchemaError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "/properties/a/items/anyOf/1/format", se.Path)
	assert.Equal(t, "format is not supported (excluded from the WebMCP input schema subset)", se.Reason)

	_, err = inputschema.CompileJSON([]byte(`{"type":`))
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "", se.Path)
}

func TestInputErrorJSON(t *testing.T) {
	e := &inputschema.InputError{Path: "/a", Reason: "type", SchemaPath: "/type", Message: `expected "x"`}
	assert.JSONEq(t, `{"path":"/a","reason":"type","schemaPath":"/type","message":"expected \"x\""}`, e.Error())
}

// TestLoneSurrogatesAreRefused: a lone surrogate in the arguments is refused, with the reason
// and where, rather than validated as U+FFFD while execute gets the original (issue 27,
// point 6). A pair is one character and passes.
func TestLoneSurrogatesAreRefused(t *testing.T) {
	for _, tt := range []struct{ schema, args, path string }{
		{`{"properties":{"s":{"enum":["ok\ufffd"]}}}`, `{"s":"ok\ud800"}`, "/s"},
		{`{"properties":{"s":{"const":"\udbff"}}}`, `{"s":"\udc00"}`, "/s"},
		{`{"properties":{"s":{"pattern":"^[^\\ud800-\\udfff]*$"}}}`, `{"s":"x\udc00"}`, "/s"},
		{`{"required":["\ud800"]}`, `{"\udc00":1}`, "/\ufffd"},
		{`{"items":{"type":"string"}}`, `["a","\ud83d"]`, "/1"},
		{`{"properties":{"s":{"type":"string"}}}`, `{"s":"\ud83d\ude00","t":"\ude00\ud83d"}`, "/t"},
	} {
		s, err := inputschema.CompileJSON([]byte(tt.schema))
		require.NoError(t, err, tt.schema)
		err = s.ValidateJSON([]byte(tt.args))
		var ie *inputschema.InputError
		require.ErrorAs(t, err, &ie, "%s with %s", tt.schema, tt.args)
		assert.Equal(t, "loneSurrogate", ie.Reason, tt.args)
		assert.Equal(t, tt.path, ie.Path, tt.args)
	}
	s, err := inputschema.CompileJSON([]byte(`{"properties":{"s":{"const":"\ud83d\ude00"}}}`))
	require.NoError(t, err)
	assert.NoError(t, s.ValidateJSON([]byte(`{"s":"\ud83d\ude00"}`)), "a pair is one character")
}
