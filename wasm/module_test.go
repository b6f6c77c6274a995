package main

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
)

// split reads a frame the way the loader does: the head as JSON, the body as text.
func split(t *testing.T, out []byte) (map[string]any, string) {
	t.Helper()
	head, body, ok := strings.Cut(string(out), "\n")
	require.True(t, ok, "a frame has a newline after its head: %q", out)
	var h map[string]any
	require.NoError(t, json.Unmarshal([]byte(head), &h), head)
	return h, body
}

func TestNormalizeFrame(t *testing.T) {
	m := NewModule("test")
	head, body := split(t, m.Normalize(`{"type":"html","html":"<b>x</b><script>1</script>"}`, "", nil, false))
	require.Len(t, head["violations"], 1)
	assert.Equal(t, "html", head["violations"].([]any)[0].(map[string]any)["type"])
	var r map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &r), "the body is the result, handed to executeTool as it is")
	assert.Equal(t, "complete", r["resultType"])

	head, body = split(t, m.Normalize(`{not json`, "", nil, false))
	assert.Equal(t, "TypeError", head["error"].(map[string]any)["name"])
	assert.Empty(t, body)
}

func TestErrorResultWritesOnePrefix(t *testing.T) {
	m := NewModule("test")
	for _, tt := range []struct{ name, message, want string }{
		{"Error", "database offline", "Error: database offline"},
		{"TypeError", "x is not a function", "Error: TypeError: x is not a function"},
		{"", "plain string thrown", "Error: plain string thrown"},
		{"RangeError", "RangeError: already said", "Error: RangeError: already said"},
	} {
		_, body := split(t, m.ErrorResult(tt.name, tt.message, "", false))
		var r struct {
			Content []struct{ Text string }
			IsError bool
		}
		require.NoError(t, json.Unmarshal([]byte(body), &r))
		assert.True(t, r.IsError)
		assert.Equal(t, tt.want, r.Content[0].Text, tt.name)
	}
}

func TestConfigureNamesTheSetting(t *testing.T) {
	m := NewModule("test")
	head, _ := split(t, m.Configure(`{"maxImageBytes": -1}`))
	e := head["error"].(map[string]any)
	assert.Equal(t, "TypeError", e["name"])
	assert.Equal(t, "maxImageBytes", e["setting"])
	assert.Contains(t, e["message"], "maxImageBytes")

	head, _ = split(t, m.Configure(`{"maxTextChars": 5}`))
	assert.Equal(t, 5.0, head["policy"].(map[string]any)["maxTextChars"])
	head, _ = split(t, m.Start())
	assert.Equal(t, 5.0, head["policy"].(map[string]any)["maxTextChars"], "the policy is kept")
	assert.Equal(t, "test", head["version"])
}

func TestSchemaCompileValidateRelease(t *testing.T) {
	m := NewModule("test")
	head, _ := split(t, m.CompileSchema(`{"type":"object","properties":{"x":{"$ref":"#"}}}`))
	e := head["error"].(map[string]any)
	assert.Equal(t, "TypeError", e["name"])
	assert.Equal(t, "/properties/x/$ref", e["path"])

	head, _ = split(t, m.CompileSchema(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`))
	id := int(head["id"].(float64))
	head, body := split(t, m.Validate(id, `{"n":1}`, false))
	assert.Empty(t, head)
	assert.Empty(t, body)

	head, body = split(t, m.Validate(id, `{"n":"one"}`, true))
	assert.Equal(t, "/n", head["invalid"].(map[string]any)["path"])
	assert.JSONEq(t, `{"path":"/n","reason":"type","schemaPath":"/type","message":"expected integer, got string"}`,
		head["message"].(string))
	assert.Contains(t, body, `"isError":true`)
	assert.Contains(t, body, `invalid arguments at \"/n\": expected integer, got string (type)`)
	assert.Contains(t, head, "modelInput", "forAgent: the agent side needs no second crossing")

	assert.Equal(t, 1, m.Schemas())
	m.ReleaseSchema(id)
	assert.Equal(t, 0, m.Schemas())
	head, _ = split(t, m.Validate(id, `{}`, false))
	assert.Equal(t, "InvalidStateError", head["error"].(map[string]any)["name"])
}

func TestParseToolOutputAnswersEverythingOnce(t *testing.T) {
	m := NewModule("test")
	_, normalized := split(t,
		m.Normalize(`{"type":"table","headers":["a","b"],"rows":[["1","x,y"],["2","\"q\""]]}`, "", nil, false))
	head, body := split(t, m.ParseToolOutput(normalized, ""))
	assert.Equal(t, []any{[]any{"a", "b"}, []any{"1", "x,y"}, []any{"2", `"q"`}}, head["tables"].(map[string]any)["1"],
		"the renderer gets the CSV resource (block 1) as rows")
	assert.Contains(t, head["modelInput"].(map[string]any)["text"], "| a | b |")
	assert.Empty(t, head["violations"])
	assert.Contains(t, body, `"text/csv"`)
}

func TestRecoveredPanicIsAnErrorFrame(t *testing.T) {
	out := recovered("boom", func() []byte { panic("kaput") })
	head, _ := split(t, out)
	e := head["error"].(map[string]any)
	assert.Equal(t, "Error", e["name"])
	assert.Equal(t, "webmcp-bridge: boom failed inside the module: kaput", e["message"],
		"the shipped module carries no stack")
}

// TestRefuse: the loader's measured refusals come back as isError results with the violation,
// worded by the bridge; the start head tells the loader the nesting limit.
func TestRefuse(t *testing.T) {
	m := NewModule("test")
	head, _ := split(t, m.Start())
	assert.Equal(t, 128.0, head["maxNesting"])

	head, body := split(t, m.Refuse("nesting", 0))
	assert.Equal(t, "nesting", head["violations"].([]any)[0].(map[string]any)["limit"])
	assert.Contains(t, body, `"isError":true`)
	assert.Contains(t, body, "[result refused: the result is nested more than 128 levels deep (the limit)]")

	_, body = split(t, m.Refuse("maxResultBytes", 20<<20))
	assert.Contains(t, body, "[result refused: the result is 20 MiB of JSON, over the 16 MiB limit]")
	_, body = split(t, m.Refuse("maxResultBytes", -1))
	assert.Contains(t, body, "[result refused: the result is more than 16 MiB of JSON (the limit)]")
}

// TestRelativeLinksResolveAgainstThePage: the loader passes the page's URL with each result.
func TestRelativeLinksResolveAgainstThePage(t *testing.T) {
	m := NewModule("test")
	_, body := split(t, m.Normalize(`{"type":"link","url":"/docs/page"}`, "https://shop.example/a/b", nil, false))
	assert.Contains(t, body, `"uri":"https://shop.example/docs/page"`)
	_, body = split(t, m.ParseToolOutput(`{"type":"link","url":"/docs/page"}`, "https://shop.example/a/b"))
	assert.Contains(t, body, `"uri":"https://shop.example/docs/page"`)
	_, body = split(t, m.Normalize(`{"type":"link","url":"/docs/page"}`, "", nil, false))
	assert.Contains(t, body, "[link removed: the URL is not absolute (it has no scheme)]")
}

// TestNormalizeBinaries: binaries arrive as bytes beside the JSON, at the places the loader
// names; the result carries them as one canonical base64, checked like any image.
func TestNormalizeBinaries(t *testing.T) {
	m := NewModule("test")
	png := fixtures.PNG(3, 2, false)
	want := base64.StdEncoding.EncodeToString(png)
	for _, tc := range []struct {
		name, json string
		b          Binary
	}{
		{"the result itself", `null`, Binary{Index: -1, Bytes: png}},
		{"a Blob with a type", `null`, Binary{Index: -1, Bytes: png, MIMEType: "image/png"}},
		{"an item of a list", `[null,"caption"]`, Binary{Index: 0, Bytes: png}},
		{"an image block's data", `{"type":"image","data":null,"alt":"a dot"}`, Binary{Index: -1, Field: "data", Bytes: png}},
		{"a block's data in a list", `["caption",{"type":"image","data":null}]`, Binary{Index: 1, Field: "data", Bytes: png}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, body := split(t, m.Normalize(tc.json, "", []Binary{tc.b}, false))
			require.Empty(t, head["violations"])
			var r struct{ Content []map[string]any }
			require.NoError(t, json.Unmarshal([]byte(body), &r))
			var img map[string]any
			for _, c := range r.Content {
				if c["type"] == "image" {
					img = c
				}
			}
			require.NotNil(t, img, body)
			assert.Equal(t, want, img["data"])
			assert.Equal(t, "image/png", img["mimeType"])
		})
	}
	// A binary that is not an image is refused with a notice, whatever type it claims.
	head, _ := split(t,
		m.Normalize(`null`, "", []Binary{{Index: -1, Bytes: []byte("<svg/onload=alert(1)>"), MIMEType: "image/png"}}, false))
	require.Len(t, head["violations"], 1)
	// A place that does not exist leaves the value as it was.
	_, body := split(t, m.Normalize(`"text"`, "", []Binary{{Index: 4, Bytes: png}}, false))
	assert.Contains(t, body, `"text":"text"`)
}

// TestNormalizeForAgent: with forAgent the head carries the model input and the tables, so
// the agent side needs no second crossing.
func TestNormalizeForAgent(t *testing.T) {
	m := NewModule("test")
	head, _ := split(t, m.Normalize(`{"type":"table","headers":["a"],"rows":[["1"]]}`, "", nil, true))
	require.Contains(t, head, "modelInput")
	require.Contains(t, head, "tables")
	assert.Contains(t, head["modelInput"].(map[string]any)["text"], "| a |")
	head, _ = split(t, m.Normalize(`"x"`, "", nil, false))
	assert.NotContains(t, head, "modelInput")
}

// TestErrorResultIsHeldToMaxTextChars: a thrown message is text like any other: cut at
// maxTextChars, with a notice, so no page can send an unbounded error.
func TestErrorResultIsHeldToMaxTextChars(t *testing.T) {
	m := NewModule("test")
	head, _ := split(t, m.Configure(`{"maxTextChars": 50}`))
	require.NotContains(t, head, "error")
	head, body := split(t, m.ErrorResult("Error", strings.Repeat("x", 5000), "E1", false))
	require.Len(t, head["violations"], 1)
	assert.Less(t, len(body), 1000)
	assert.Contains(t, body, `"isError":true`)
}

// TestArgumentsOverMaxArgumentBytesAreRefusedBeforeValidation: arguments longer than the
// policy's maxArgumentBytes (default 512 KiB) are refused with the limit named, before they are
// read (issue 27, point 3: a 1 MB argument against [a-z]{1000}! kept the module busy 354 s).
func TestArgumentsOverMaxArgumentBytesAreRefusedBeforeValidation(t *testing.T) {
	m := NewModule("test")
	head, _ := split(t, m.CompileSchema(`{"properties":{"s":{"type":"string"}}}`))
	id := int(head["id"].(float64))
	big := `{"s":"` + strings.Repeat("a", 512<<10) + `"}`
	head, body := split(t, m.Validate(id, big, false))
	invalid := head["invalid"].(map[string]any)
	assert.Equal(t, "maxArgumentBytes", invalid["reason"])
	assert.Contains(t, invalid["message"], "over the maxArgumentBytes limit of 524288 bytes")
	assert.Contains(t, body, `"isError":true`)

	// What the page's crossing asks first, with the text's length in UTF-16 units alone: over the
	// limit, the same refusal without the text; within it, nothing (Validate reads the text).
	head, body = split(t, m.RefuseLongArguments(id, 2<<20, true))
	invalid = head["invalid"].(map[string]any)
	assert.Equal(t, "maxArgumentBytes", invalid["reason"])
	assert.Contains(t, invalid["message"], "2097152 UTF-16 units of JSON, so at least as many bytes, over the "+
		"maxArgumentBytes limit of 524288 bytes")
	assert.Contains(t, body, `"isError":true`)
	assert.Contains(t, head, "modelInput", "forAgent: the agent side's needs, as Validate gives them")
	assert.Nil(t, m.RefuseLongArguments(id, 512<<10, false), "at the limit: may be within")
	assert.Nil(t, m.RefuseLongArguments(id+100, 2<<20, false), "no such schema: Validate answers")

	head, _ = split(t, m.Configure(`{"maxArgumentBytes":0}`))
	require.NotContains(t, head, "error")
	head, _ = split(t, m.Validate(id, big, false))
	assert.Empty(t, head, "0: no limit")
	assert.Nil(t, m.RefuseLongArguments(id, 2<<20, false), "0: no limit")
}
