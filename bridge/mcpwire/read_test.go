package mcpwire_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
)

// badBlocks are wire forms UnmarshalContent refuses, with the exact error.
var badBlocks = []struct {
	name, in, err string
}{
	// not a block at all
	{"not JSON", `{"type":"text",`, "not JSON: unexpected end of input"},
	{"not an object", `["text"]`, "a content block must be an object"},
	{"null", `null`, "a content block must be an object"},

	// type
	{"unknown type", `{"type":"video","data":"","mimeType":"video/mp4"}`, `unknown content type "video"`},
	{"no type", `{"text":"hi"}`, `unknown content type ""`},
	{"type not a string", `{"type":1,"text":"hi"}`, `unknown content type ""`},
	{"type in the wrong case", `{"type":"Text","text":"hi"}`, `unknown content type "Text"`},
	{"sampling-only type", `{"type":"tool_use","id":"1","name":"f","input":{}}`, `unknown content type "tool_use"`},

	// missing or mistyped required members
	{"text without text", `{"type":"text"}`, `text block without a "text" string`},
	{"text null", `{"type":"text","text":null}`, `text block without a "text" string`},
	{"text not a string", `{"type":"text","text":5}`, `text block without a "text" string`},
	{"image without data", `{"type":"image","mimeType":"image/png"}`, `image block without a "data" string`},
	{"image without mimeType", `{"type":"image","data":"AA=="}`, `image block without a "mimeType" string`},
	{"image data not a string", `{"type":"image","data":[0],"mimeType":"image/png"}`,
		`image block without a "data" string`},
	{"audio without data", `{"type":"audio","mimeType":"audio/wav"}`, `audio block without a "data" string`},
	{"audio without mimeType", `{"type":"audio","data":"AA=="}`, `audio block without a "mimeType" string`},
	{"resource_link without uri", `{"type":"resource_link","name":"n"}`, `resource_link block without a "uri" string`},
	{"resource_link without name", `{"type":"resource_link","uri":"https://example.com/"}`,
		`resource_link block without a "name" string`},
	{"resource without resource", `{"type":"resource"}`, "resource block without a resource object"},
	{"resource not an object", `{"type":"resource","resource":"file:///a"}`, "resource block without a resource object"},
	{"resource without uri", `{"type":"resource","resource":{"text":"hi"}}`, "resource contents without a uri"},
	{"resource without text or blob", `{"type":"resource","resource":{"uri":"file:///a"}}`,
		"resource contents need text or blob"},
	{"resource text not a string", `{"type":"resource","resource":{"uri":"file:///a","text":1}}`,
		"resource contents need text or blob"},

	// base64
	{"data unpadded", `{"type":"image","data":"aGk","mimeType":"image/png"}`,
		"image data is not padded standard base64: illegal base64 data at input byte 0"},
	{"data URL alphabet", `{"type":"audio","data":"-_8=","mimeType":"audio/wav"}`,
		"audio data is not padded standard base64: illegal base64 data at input byte 0"},
	{"data a data: URL", `{"type":"image","data":"data:image/png;base64,AA==","mimeType":"image/png"}`,
		"image data is not padded standard base64: illegal base64 data at input byte 4"},
	{"data with a space", `{"type":"image","data":"AA AA","mimeType":"image/png"}`,
		"image data is not padded standard base64: illegal base64 data at input byte 2"},
	{"data too much padding", `{"type":"image","data":"AA===","mimeType":"image/png"}`,
		"image data is not padded standard base64: illegal base64 data at input byte 4"},
	{"blob unpadded", `{"type":"resource","resource":{"uri":"file:///a","blob":"aGk"}}`,
		"blob is not padded standard base64: illegal base64 data at input byte 0"},

	// size
	{"size negative", `{"type":"resource_link","uri":"https://example.com/","name":"n","size":-1}`,
		"size -1 is not a whole number from 0 to 2^53"},
	{"size fractional", `{"type":"resource_link","uri":"https://example.com/","name":"n","size":1.5}`,
		"size 1.5 is not a whole number from 0 to 2^53"},
	{"size a string", `{"type":"resource_link","uri":"https://example.com/","name":"n","size":"3"}`,
		`size "3" is not a whole number from 0 to 2^53`},
	{"size too big", `{"type":"resource_link","uri":"https://example.com/","name":"n","size":1e16}`,
		"size 1e16 is not a whole number from 0 to 2^53"},
	{"size beyond float64", `{"type":"resource_link","uri":"https://example.com/","name":"n","size":1e400}`,
		`size 1e400 is not a whole number from 0 to 2^53`},

	// annotations
	{"annotations not an object", `{"type":"text","text":"","annotations":["user"]}`, "annotations: not an object"},
	{"priority above 1", `{"type":"text","text":"","annotations":{"priority":1.5}}`,
		"annotations: priority 1.5 is not a number from 0 to 1"},
	{"priority below 0", `{"type":"text","text":"","annotations":{"priority":-0.1}}`,
		"annotations: priority -0.1 is not a number from 0 to 1"},
	{"priority a string", `{"type":"text","text":"","annotations":{"priority":"0.5"}}`,
		`annotations: priority "0.5" is not a number from 0 to 1`},
	{"priority null", `{"type":"text","text":"","annotations":{"priority":null}}`,
		"annotations: priority null is not a number from 0 to 1"},
	{"unknown annotation", `{"type":"text","text":"","annotations":{"color":"red"}}`,
		`annotations: unknown annotation "color"`},
	{"audience not an array", `{"type":"text","text":"","annotations":{"audience":"user"}}`,
		"annotations: audience is not an array"},
	{"audience with an unknown role", `{"type":"text","text":"","annotations":{"audience":["user","system"]}}`,
		`annotations: audience holds "system"; only "user" and "assistant" exist`},
	{"audience with a role in the wrong case", `{"type":"text","text":"","annotations":{"audience":["User"]}}`,
		`annotations: audience holds "User"; only "user" and "assistant" exist`},
	{"audience with a non-string", `{"type":"text","text":"","annotations":{"audience":[1]}}`,
		`annotations: audience holds 1; only "user" and "assistant" exist`},
	{"lastModified not a string", `{"type":"text","text":"","annotations":{"lastModified":20250112}}`,
		"annotations: lastModified is not a string"},
	{"lastModified not a date-time", `{"type":"text","text":"","annotations":{"lastModified":"yesterday"}}`,
		`annotations: lastModified "yesterday" is not an ISO 8601 date-time with an offset (such as 2025-01-12T15:00:58Z)`},
	{"lastModified without an offset", `{"type":"text","text":"","annotations":{"lastModified":"2024-01-01T10:00:00"}}`,
		`annotations: lastModified "2024-01-01T10:00:00" is not an ISO 8601 date-time with an offset ` +
			`(such as 2025-01-12T15:00:58Z)`},
	{"lastModified not a real date", `{"type":"text","text":"","annotations":{"lastModified":"2024-13-01T10:00:00Z"}}`,
		`annotations: lastModified "2024-13-01T10:00:00Z" is not a real date and time`},
	{"bad annotations on a resource_link",
		`{"type":"resource_link","uri":"https://example.com/","name":"n","annotations":{"priority":2}}`,
		"annotations: priority 2 is not a number from 0 to 1"},
}

func TestUnmarshalContentErrors(t *testing.T) {
	for _, tt := range badBlocks {
		t.Run(tt.name, func(t *testing.T) {
			c, err := mcpwire.UnmarshalContent([]byte(tt.in))
			require.EqualError(t, err, tt.err)
			require.Nil(t, c)

			// The same block inside a result is refused with its index.
			if json.Valid([]byte(tt.in)) && tt.in[0] == '{' {
				var r mcpwire.CallToolResult
				err := r.UnmarshalJSON([]byte(`{"content":[{"type":"text","text":"ok"},` + tt.in + `]}`))
				require.EqualError(t, err, "content[1]: "+tt.err)
			}
		})
	}
}

// badResults are wire forms (*CallToolResult).UnmarshalJSON refuses, with the exact error.
var badResults = []struct {
	name, in, err string
}{
	{"not JSON", `{"content":[]`, "not JSON: unexpected end of input"},
	{"not an object", `[]`, "a CallToolResult must be an object"},
	{"no content", `{"resultType":"complete"}`, "a CallToolResult needs a content array"},
	{"content null", `{"content":null}`, "a CallToolResult needs a content array"},
	{"content an object", `{"content":{"type":"text","text":"hi"}}`, "a CallToolResult needs a content array"},
	{"block not an object", `{"content":["hi"]}`, "content[0]: not an object"},
	{"null block", `{"content":[{"type":"text","text":""},null]}`, "content[1]: not an object"},
	{"unknown block type", `{"content":[{"type":"video"}]}`, `content[0]: unknown content type "video"`},
	{"isError a string", `{"content":[],"isError":"true"}`, `isError is "true", not a boolean`},
	{"isError a number", `{"content":[],"isError":1}`, "isError is 1, not a boolean"},
	{"isError an object", `{"content":[],"isError":{}}`, `isError is "{}", not a boolean`},
	{"structuredContent an array", `{"content":[],"structuredContent":[1,2]}`, "structuredContent is not an object"},
	{"structuredContent a string", `{"content":[],"structuredContent":"{}"}`, "structuredContent is not an object"},
	{"structuredContent a number", `{"content":[],"structuredContent":0}`, "structuredContent is not an object"},
}

func TestUnmarshalResultErrors(t *testing.T) {
	for _, tt := range badResults {
		t.Run(tt.name, func(t *testing.T) {
			r := mcpwire.CallToolResult{IsError: true}
			require.EqualError(t, r.UnmarshalJSON([]byte(tt.in)), tt.err)
			require.True(t, r.IsError, "a failed read leaves the result as it was")

			// encoding/json checks the syntax itself; past that it returns the same error.
			if json.Valid([]byte(tt.in)) {
				require.EqualError(t, json.Unmarshal([]byte(tt.in), &r), tt.err)
			}
		})
	}
}

// badContents are wire forms (*ResourceContents).UnmarshalJSON refuses.
var badContents = []struct {
	name, in, err string
}{
	{"not an object", `"file:///a"`, "resource contents must be an object"},
	{"no uri", `{"text":"hi"}`, "resource contents without a uri"},
	{"uri not a string", `{"uri":1,"text":"hi"}`, "resource contents without a uri"},
	{"neither text nor blob", `{"uri":"file:///a","mimeType":"text/plain"}`, "resource contents need text or blob"},
	{"blob null", `{"uri":"file:///a","blob":null}`, "resource contents need text or blob"},
	{"blob not base64", `{"uri":"file:///a","blob":"***"}`,
		"blob is not padded standard base64: illegal base64 data at input byte 0"},
}

func TestUnmarshalResourceContentsErrors(t *testing.T) {
	for _, tt := range badContents {
		t.Run(tt.name, func(t *testing.T) {
			var rc mcpwire.ResourceContents
			require.EqualError(t, rc.UnmarshalJSON([]byte(tt.in)), tt.err)
			require.Equal(t, mcpwire.ResourceContents{}, rc)
		})
	}
}

// TestReadAccepts documents wire forms the reader takes that the writer never produces.
func TestReadAccepts(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     mcpwire.Content
	}{
		{"white space and member order do not matter",
			" {\n\"text\" : \"hi\" , \"type\" : \"text\" } ",
			&mcpwire.TextContent{Text: "hi"}},
		{"annotations null is none",
			`{"type":"text","text":"","annotations":null}`,
			&mcpwire.TextContent{}},
		{"size null is none",
			`{"type":"resource_link","uri":"https://example.com/","name":"n","size":null}`,
			&mcpwire.ResourceLink{URI: "https://example.com/", Name: "n"}},
		{"size written as a float",
			`{"type":"resource_link","uri":"https://example.com/","name":"n","size":2.0e3}`,
			&mcpwire.ResourceLink{URI: "https://example.com/", Name: "n", Size: ptr(int64(2000))}},
		{"priority 0 written as 0.0",
			`{"type":"text","text":"","annotations":{"priority":0.0}}`,
			&mcpwire.TextContent{Annotations: &mcpwire.Annotations{Priority: ptr(0.0)}}},
		{"empty audience",
			`{"type":"text","text":"","annotations":{"audience":[]}}`,
			&mcpwire.TextContent{Annotations: &mcpwire.Annotations{}}},
		{"members the reader does not know are ignored",
			`{"type":"resource_link","uri":"https://example.com/","name":"n","icons":[{"src":"https://example.com/i.png"}]}`,
			&mcpwire.ResourceLink{URI: "https://example.com/", Name: "n"}},
		{"a blob resource with text too reads as a blob",
			`{"type":"resource","resource":{"uri":"file:///a","text":"t","blob":"aGk="}}`,
			&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///a", Blob: []byte("hi")}}},
		{"escapes in strings",
			`{"type":"text","text":"\u003cb\u003e \ud83d\ude00 \/"}`,
			&mcpwire.TextContent{Text: "<b> 😀 /"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mcpwire.UnmarshalContent([]byte(tt.in))
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}

	// null isError and structuredContent are the same as absent; resultType is not read.
	var r mcpwire.CallToolResult
	require.NoError(t,
		json.Unmarshal([]byte(`{"content":[],"isError":null,"structuredContent":null,"resultType":"complete"}`), &r))
	require.Equal(t, mcpwire.CallToolResult{Content: []mcpwire.Content{}}, r)
}

// TestBlockFromMapTakesGoNumbers: BlockFromMap also reads maps built in Go, where numbers are
// float64 or int rather than json.Number.
func TestBlockFromMapTakesGoNumbers(t *testing.T) {
	c, err := mcpwire.BlockFromMap(map[string]any{
		"type": "resource_link", "uri": "https://example.com/", "name": "n", "size": 7,
		"annotations": map[string]any{"priority": 0.5, "audience": []any{"assistant"}},
	})
	require.NoError(t, err)
	require.Equal(t, &mcpwire.ResourceLink{URI: "https://example.com/", Name: "n", Size: ptr(int64(7)),
		Annotations: &mcpwire.Annotations{Priority: ptr(0.5), Audience: []mcpwire.Role{mcpwire.RoleAssistant}}}, c)

	_, err = mcpwire.BlockFromMap(map[string]any{"type": "text", "text": "",
		"annotations": map[string]any{"priority": float64(2)}})
	require.EqualError(t, err, "annotations: priority 2 is not a number from 0 to 1")
}

// TestParseSizeIsExact: a size is "a whole number from 0 to 2^53" (ParseSize's doc, and
// "type": "integer" in the schemas), judged on the number as written, not on the nearest
// float64. All three schemas refuse 1.0000000000000001 and so does the go-sdk (size is an
// int64 there); 2^53+1 is over the limit, not rounded into it.
func TestParseSizeIsExact(t *testing.T) {
	for _, tt := range []struct{ in, err string }{
		{"9007199254740993", "size 9007199254740993 is not a whole number from 0 to 2^53"}, // 2^53+1
		{"1.0000000000000001", "size 1.0000000000000001 is not a whole number from 0 to 2^53"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			size, err := mcpwire.ParseSize(json.Number(tt.in))
			require.EqualError(t, err, tt.err)
			require.Nil(t, size)
		})
	}
}

func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want *int64
	}{
		{nil, nil},
		{json.Number("0"), ptr(int64(0))},
		{json.Number("-0"), ptr(int64(0))},
		{json.Number("1e3"), ptr(int64(1000))},
		{json.Number("9007199254740992"), ptr(int64(1 << 53))},
		{float64(5), ptr(int64(5))},
		{7, ptr(int64(7))},
	} {
		got, err := mcpwire.ParseSize(tt.in)
		require.NoError(t, err, "%v", tt.in)
		require.Equal(t, tt.want, got, "%v", tt.in)
	}
}
