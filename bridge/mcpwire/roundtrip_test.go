package mcpwire_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
)

func ptr[T any](v T) *T { return &v }

// nestedMeta is a _meta holding every JSON kind, nested. Numbers are json.Number because that
// is what the reader decodes them to, so the value read back is deep-equal to this one.
func nestedMeta() map[string]any {
	return map[string]any{
		"com.example/trace": map[string]any{
			"id":    "abc",
			"spans": []any{json.Number("1"), json.Number("2.5"), "x", true, false, nil},
			"inner": map[string]any{"deep": map[string]any{}, "list": []any{}},
		},
		"k": "v",
	}
}

// nestedMetaJSON is nestedMeta's wire form: members sorted, as encoding/json sorts map keys.
const nestedMetaJSON = `{"com.example/trace":{"id":"abc","inner":{"deep":{},"list":[]},"spans":[1,2.5,` +
	`"x",true,false,null]},"k":"v"}`

// blockRoundTrips is, for every block type, a Go value, the exact JSON it is written as, and
// (when it is not the value itself) what reading that JSON gives back. checkErr is what
// (*CallToolResult).Check says of a result holding only this block ("" for none).
var blockRoundTrips = []struct {
	name     string
	in       mcpwire.Content
	want     string
	back     mcpwire.Content // nil: reading want gives in back
	checkErr string
}{
	// text
	{
		name: "text",
		in:   &mcpwire.TextContent{Text: "hello"},
		want: `{"type":"text","text":"hello"}`,
	},
	{
		name: "text empty is still written",
		in:   &mcpwire.TextContent{},
		want: `{"type":"text","text":""}`,
	},
	{
		name: "text escaped as encoding/json does, without HTML escaping",
		in:   &mcpwire.TextContent{Text: "<a href=\"x\">&amp;</a>\\\n\t\r\b\f\x01\u2028\u2029é😀"},
		want: `{"type":"text","text":"<a href=\"x\">&amp;</a>\\\n\t\r\b\f\u0001\u2028\u2029é😀"}`,
	},
	{
		name:     "text with invalid UTF-8 is written with U+FFFD",
		in:       &mcpwire.TextContent{Text: "a\xffb"},
		want:     "{\"type\":\"text\",\"text\":\"a\uFFFDb\"}",
		back:     &mcpwire.TextContent{Text: "a\uFFFDb"},
		checkErr: "content[0] (text): text is not valid UTF-8",
	},
	{
		name: "text with every annotation and nested _meta",
		in: &mcpwire.TextContent{Text: "t",
			Annotations: &mcpwire.Annotations{
				Audience:     []mcpwire.Role{mcpwire.RoleUser, mcpwire.RoleAssistant},
				Priority:     ptr(0.25),
				LastModified: "2025-01-12T15:00:58Z",
			},
			Meta: nestedMeta()},
		want: `{"type":"text","text":"t","annotations":{"audience":["user","assistant"],"priority":0.25,` +
			`"lastModified":"2025-01-12T15:00:58Z"},"_meta":` + nestedMetaJSON + `}`,
	},
	{
		name: "priority 0 is written and survives",
		in:   &mcpwire.TextContent{Text: "t", Annotations: &mcpwire.Annotations{Priority: ptr(0.0)}},
		want: `{"type":"text","text":"t","annotations":{"priority":0}}`,
	},
	{
		name: "priority 1",
		in:   &mcpwire.TextContent{Text: "t", Annotations: &mcpwire.Annotations{Priority: ptr(1.0)}},
		want: `{"type":"text","text":"t","annotations":{"priority":1}}`,
	},
	{
		name: "audience order is kept",
		in: &mcpwire.TextContent{Text: "t",
			Annotations: &mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleAssistant, mcpwire.RoleUser}}},
		want: `{"type":"text","text":"t","annotations":{"audience":["assistant","user"]}}`,
	},
	{
		name: "empty annotations are written as {} and survive",
		in:   &mcpwire.TextContent{Text: "t", Annotations: &mcpwire.Annotations{}},
		want: `{"type":"text","text":"t","annotations":{}}`,
	},
	{
		name: "empty audience and empty _meta are left out",
		in: &mcpwire.TextContent{Text: "t", Annotations: &mcpwire.Annotations{Audience: []mcpwire.Role{}},
			Meta: map[string]any{}},
		want: `{"type":"text","text":"t","annotations":{}}`,
		back: &mcpwire.TextContent{Text: "t", Annotations: &mcpwire.Annotations{}},
	},

	// image
	{
		name: "image",
		in:   &mcpwire.ImageContent{Data: []byte("a1b2c3"), MIMEType: "image/png"},
		want: `{"type":"image","data":"YTFiMmMz","mimeType":"image/png"}`,
	},
	{
		name: "image data is padded standard base64",
		in:   &mcpwire.ImageContent{Data: []byte{0xfb, 0xff}, MIMEType: "image/gif"},
		want: `{"type":"image","data":"+/8=","mimeType":"image/gif"}`,
	},
	{
		name:     "image nil data is written as \"\" and read back as empty, not nil",
		in:       &mcpwire.ImageContent{MIMEType: "image/png"},
		want:     `{"type":"image","data":"","mimeType":"image/png"}`,
		back:     &mcpwire.ImageContent{Data: []byte{}, MIMEType: "image/png"},
		checkErr: `content[0] (image): image needs data and an image/ MIME type, has 0 bytes and "image/png"`,
	},
	{
		name:     "image empty data is written as \"\"",
		in:       &mcpwire.ImageContent{Data: []byte{}, MIMEType: "image/png"},
		want:     `{"type":"image","data":"","mimeType":"image/png"}`,
		checkErr: `content[0] (image): image needs data and an image/ MIME type, has 0 bytes and "image/png"`,
	},
	{
		name:     "image empty MIME type is still written",
		in:       &mcpwire.ImageContent{Data: []byte("test")},
		want:     `{"type":"image","data":"dGVzdA==","mimeType":""}`,
		checkErr: `content[0] (image): image needs data and an image/ MIME type, has 4 bytes and ""`,
	},
	{
		name: "image with annotations and _meta",
		in: &mcpwire.ImageContent{Data: []byte{0}, MIMEType: "image/webp",
			Annotations: &mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleUser}, Priority: ptr(0.0)},
			Meta:        map[string]any{"alt": "a dot"}},
		want: `{"type":"image","data":"AA==","mimeType":"image/webp","annotations":{"audience":["user"],"priority":0},` +
			`"_meta":{"alt":"a dot"}}`,
	},

	// audio
	{
		name: "audio",
		in:   &mcpwire.AudioContent{Data: []byte("a1b2c3"), MIMEType: "audio/wav"},
		want: `{"type":"audio","data":"YTFiMmMz","mimeType":"audio/wav"}`,
	},
	{
		name:     "audio nil data is written as \"\" and read back as empty, not nil",
		in:       &mcpwire.AudioContent{MIMEType: "audio/wav"},
		want:     `{"type":"audio","data":"","mimeType":"audio/wav"}`,
		back:     &mcpwire.AudioContent{Data: []byte{}, MIMEType: "audio/wav"},
		checkErr: `content[0] (audio): audio needs data and an audio/ MIME type, has 0 bytes and "audio/wav"`,
	},
	{
		name:     "audio empty data is written as \"\"",
		in:       &mcpwire.AudioContent{Data: []byte{}, MIMEType: "audio/wav"},
		want:     `{"type":"audio","data":"","mimeType":"audio/wav"}`,
		checkErr: `content[0] (audio): audio needs data and an audio/ MIME type, has 0 bytes and "audio/wav"`,
	},
	{
		name: "audio with annotations and _meta",
		in: &mcpwire.AudioContent{Data: []byte{0xff}, MIMEType: "audio/ogg",
			Annotations: &mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleAssistant},
				LastModified: "2026-07-28T00:00:00+02:00"},
			Meta: map[string]any{"seconds": json.Number("3")}},
		want: `{"type":"audio","data":"/w==","mimeType":"audio/ogg","annotations":{"audience":["assistant"],` +
			`"lastModified":"2026-07-28T00:00:00+02:00"},"_meta":{"seconds":3}}`,
	},

	// resource_link
	{
		name: "resource_link",
		in:   &mcpwire.ResourceLink{URI: "https://example.com/a", Name: "a"},
		want: `{"type":"resource_link","uri":"https://example.com/a","name":"a"}`,
	},
	{
		name: "resource_link with every member",
		in: &mcpwire.ResourceLink{URI: "file:///tmp/r%201.txt", Name: "r1", Title: "R 1", Description: "the first",
			MIMEType: "text/plain", Size: ptr(int64(1234)),
			Annotations: &mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleUser, mcpwire.RoleAssistant},
				Priority: ptr(0.5), LastModified: "2025-01-12T15:00:58Z"},
			Meta: nestedMeta()},
		want: `{"type":"resource_link","uri":"file:///tmp/r%201.txt","name":"r1","title":"R 1","description":"the first",` +
			`"mimeType":"text/plain","size":1234,` +
			`"annotations":{"audience":["user","assistant"],"priority":0.5,"lastModified":"2025-01-12T15:00:58Z"},` +
			`"_meta":` + nestedMetaJSON + `}`,
	},
	{
		name: "resource_link size 0 is written and survives",
		in:   &mcpwire.ResourceLink{URI: "https://example.com/empty", Name: "empty", Size: ptr(int64(0))},
		want: `{"type":"resource_link","uri":"https://example.com/empty","name":"empty","size":0}`,
	},
	{
		name: "resource_link size 2^53",
		in:   &mcpwire.ResourceLink{URI: "https://example.com/big", Name: "big", Size: ptr(int64(1 << 53))},
		want: `{"type":"resource_link","uri":"https://example.com/big","name":"big","size":9007199254740992}`,
	},

	// resource
	{
		name: "text resource",
		in: &mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///a.txt", MIMEType: "text/plain",
			Text: "hi"}},
		want: `{"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"hi"}}`,
	},
	{
		name: "text resource with empty text is still written",
		in:   &mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///empty.txt"}},
		want: `{"type":"resource","resource":{"uri":"file:///empty.txt","text":""}}`,
	},
	{
		name: "blob resource",
		in: &mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///a.bin",
			MIMEType: "application/octet-stream", Blob: []byte{0, 1, 2, 0xff}}},
		want: `{"type":"resource","resource":{"uri":"file:///a.bin","mimeType":"application/octet-stream",` +
			`"blob":"AAEC/w=="}}`,
	},
	{
		name: "blob resource with empty blob stays a blob",
		in:   &mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///empty.bin", Blob: []byte{}}},
		want: `{"type":"resource","resource":{"uri":"file:///empty.bin","blob":""}}`,
	},
	{
		name: "a blob wins over text",
		in: &mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///both", Text: "dropped",
			Blob: []byte("hi")}},
		want: `{"type":"resource","resource":{"uri":"file:///both","blob":"aGk="}}`,
		back: &mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///both", Blob: []byte("hi")}},
	},
	{
		name: "resource with annotations and _meta on the block and on the contents",
		in: &mcpwire.EmbeddedResource{
			Resource: mcpwire.ResourceContents{URI: "https://example.com/r", MIMEType: "text/markdown", Text: "# r",
				Meta: map[string]any{"etag": "x1"}},
			Annotations: &mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleUser}, Priority: ptr(1.0),
				LastModified: "2025-06-18T12:00:00Z"},
			Meta: nestedMeta()},
		want: `{"type":"resource","resource":{"uri":"https://example.com/r","mimeType":"text/markdown","text":"# r",` +
			`"_meta":{"etag":"x1"}},` +
			`"annotations":{"audience":["user"],"priority":1,"lastModified":"2025-06-18T12:00:00Z"},` +
			`"_meta":` + nestedMetaJSON + `}`,
	},
}

// resultRoundTrips is the same for whole results.
var resultRoundTrips = []struct {
	name string
	in   *mcpwire.CallToolResult
	want string
	back *mcpwire.CallToolResult // nil: reading want gives in back
}{
	{
		name: "empty result still has content and resultType",
		in:   &mcpwire.CallToolResult{},
		want: `{"content":[],"resultType":"complete"}`,
		back: &mcpwire.CallToolResult{Content: []mcpwire.Content{}},
	},
	{
		name: "empty content",
		in:   &mcpwire.CallToolResult{Content: []mcpwire.Content{}},
		want: `{"content":[],"resultType":"complete"}`,
	},
	{
		name: "isError false is left out",
		in:   &mcpwire.CallToolResult{Content: []mcpwire.Content{&mcpwire.TextContent{Text: "ok"}}, IsError: false},
		want: `{"content":[{"type":"text","text":"ok"}],"resultType":"complete"}`,
	},
	{
		name: "isError",
		in:   &mcpwire.CallToolResult{Content: []mcpwire.Content{&mcpwire.TextContent{Text: "boom"}}, IsError: true},
		want: `{"content":[{"type":"text","text":"boom"}],"isError":true,"resultType":"complete"}`,
	},
	{
		name: "empty structuredContent is written",
		in:   &mcpwire.CallToolResult{Content: []mcpwire.Content{}, StructuredContent: map[string]any{}},
		want: `{"content":[],"structuredContent":{},"resultType":"complete"}`,
	},
	{
		name: "empty _meta is left out",
		in:   &mcpwire.CallToolResult{Content: []mcpwire.Content{}, Meta: map[string]any{}},
		want: `{"content":[],"resultType":"complete"}`,
		back: &mcpwire.CallToolResult{Content: []mcpwire.Content{}},
	},
	{
		name: "structuredContent, isError and _meta",
		in: &mcpwire.CallToolResult{
			Content: []mcpwire.Content{&mcpwire.TextContent{Text: `{"temp":21.5}`}},
			StructuredContent: map[string]any{"temp": json.Number("21.5"), "unit": "C",
				"hourly": []any{json.Number("20"), json.Number("22")}, "where": map[string]any{"city": "Zürich"}},
			IsError: true,
			Meta:    nestedMeta(),
		},
		want: `{"content":[{"type":"text","text":"{\"temp\":21.5}"}],"structuredContent":{"hourly":[20,22],"temp":21.5,` +
			`"unit":"C","where":{"city":"Zürich"}},"isError":true,"resultType":"complete","_meta":` + nestedMetaJSON + `}`,
	},
	{
		name: "every block type",
		in: &mcpwire.CallToolResult{Content: []mcpwire.Content{
			&mcpwire.TextContent{Text: "a", Annotations: &mcpwire.Annotations{Priority: ptr(0.0)}},
			&mcpwire.ImageContent{Data: []byte("png"), MIMEType: "image/png"},
			&mcpwire.AudioContent{Data: []byte("wav"), MIMEType: "audio/wav"},
			&mcpwire.ResourceLink{URI: "https://example.com/", Name: "home", Size: ptr(int64(0))},
			&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///t", Text: ""}},
			&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///b", Blob: []byte{}}},
		}},
		want: `{"content":[` +
			`{"type":"text","text":"a","annotations":{"priority":0}},` +
			`{"type":"image","data":"cG5n","mimeType":"image/png"},` +
			`{"type":"audio","data":"d2F2","mimeType":"audio/wav"},` +
			`{"type":"resource_link","uri":"https://example.com/","name":"home","size":0},` +
			`{"type":"resource","resource":{"uri":"file:///t","text":""}},` +
			`{"type":"resource","resource":{"uri":"file:///b","blob":""}}` +
			`],"resultType":"complete"}`,
	},
}

func TestBlockRoundTrip(t *testing.T) {
	for _, tt := range blockRoundTrips {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.in.ContentType(), blockType(t, tt.want), "ContentType()")

			got, err := tt.in.MarshalJSON()
			require.NoError(t, err)
			require.Equal(t, tt.want, string(got))

			want := tt.back
			if want == nil {
				want = tt.in
			}
			back, err := mcpwire.UnmarshalContent(got)
			require.NoError(t, err)
			require.Equal(t, want, back)

			// What is read back is written the same way again.
			again, err := back.MarshalJSON()
			require.NoError(t, err)
			require.Equal(t, tt.want, string(again))

			// The block inside a result: written the same way, read back the same way.
			r := &mcpwire.CallToolResult{Content: []mcpwire.Content{tt.in}}
			rb, err := r.MarshalJSON()
			require.NoError(t, err)
			require.Equal(t, `{"content":[`+tt.want+`],"resultType":"complete"}`, string(rb))
			var rback mcpwire.CallToolResult
			require.NoError(t, json.Unmarshal(rb, &rback))
			require.Equal(t, []mcpwire.Content{want}, rback.Content)

			if tt.checkErr == "" {
				require.NoError(t, r.Check())
			} else {
				require.EqualError(t, r.Check(), tt.checkErr)
			}
		})
	}
}

// blockType reads the "type" member of a block's wire form.
func blockType(t *testing.T, wire string) string {
	t.Helper()
	var m struct{ Type string }
	require.NoError(t, json.Unmarshal([]byte(wire), &m))
	return m.Type
}

func TestResourceContentsRoundTrip(t *testing.T) {
	for _, tt := range blockRoundTrips {
		er, ok := tt.in.(*mcpwire.EmbeddedResource)
		if !ok {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			got, err := er.Resource.MarshalJSON()
			require.NoError(t, err)
			var wire struct{ Resource json.RawMessage }
			require.NoError(t, json.Unmarshal([]byte(tt.want), &wire))
			require.Equal(t, string(wire.Resource), string(got))

			want := er.Resource
			if tt.back != nil {
				want = tt.back.(*mcpwire.EmbeddedResource).Resource
			}
			var back mcpwire.ResourceContents
			require.NoError(t, json.Unmarshal(got, &back))
			require.Equal(t, want, back)
			assert.Equal(t, want.Blob != nil, back.Blob != nil, "a blob resource stays a blob, a text one text")
		})
	}
}

func TestAnnotationsMarshalJSON(t *testing.T) {
	for _, tt := range []struct {
		in   *mcpwire.Annotations
		want string
	}{
		{&mcpwire.Annotations{}, `{}`},
		{&mcpwire.Annotations{Priority: ptr(0.0)}, `{"priority":0}`},
		{&mcpwire.Annotations{Priority: ptr(1e-7)}, `{"priority":1e-7}`},
		{&mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleUser, mcpwire.RoleAssistant}, Priority: ptr(0.75),
			LastModified: "2025-01-12T15:00:58Z"},
			`{"audience":["user","assistant"],"priority":0.75,"lastModified":"2025-01-12T15:00:58Z"}`},
	} {
		got, err := tt.in.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(got))
	}
}

func TestResultRoundTrip(t *testing.T) {
	for _, tt := range resultRoundTrips {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.MarshalJSON()
			require.NoError(t, err)
			require.Equal(t, tt.want, string(got))

			want := tt.back
			if want == nil {
				want = tt.in
			}
			var back mcpwire.CallToolResult
			require.NoError(t, json.Unmarshal(got, &back))
			require.Equal(t, want, &back)

			again, err := back.MarshalJSON()
			require.NoError(t, err)
			require.Equal(t, tt.want, string(again))

			require.NoError(t, tt.in.Check())
		})
	}
}

// TestRoundTripJSONIsOfficialMCP: every whole result the round-trip tables write validates
// against the three MCP schemas and is read by the official go-sdk.
func TestRoundTripJSONIsOfficialMCP(t *testing.T) {
	for _, tt := range blockRoundTrips {
		t.Run("block/"+tt.name, func(t *testing.T) {
			r := &mcpwire.CallToolResult{Content: []mcpwire.Content{tt.in}}
			b, err := r.MarshalJSON()
			require.NoError(t, err)
			requireOfficialMCP(t, b, 1, false)
		})
	}
	for _, tt := range resultRoundTrips {
		t.Run("result/"+tt.name, func(t *testing.T) {
			b, err := tt.in.MarshalJSON()
			require.NoError(t, err)
			requireOfficialMCP(t, b, len(tt.in.Content), tt.in.IsError)
		})
	}
}

// TestMarshalNilBlockFails: a nil block cannot be written; the writer says where it is.
func TestMarshalNilBlockFails(t *testing.T) {
	r := &mcpwire.CallToolResult{Content: []mcpwire.Content{&mcpwire.TextContent{}, nil}}
	_, err := r.MarshalJSON()
	require.EqualError(t, err, "content[1] is nil")
	_, err = json.Marshal(r)
	require.ErrorContains(t, err, "content[1] is nil")
}

// TestMarshalNaNPriorityFails: JSON has no NaN, so such annotations cannot be written.
func TestMarshalNaNPriorityFails(t *testing.T) {
	nan := 0.0
	nan /= nan
	_, err := (&mcpwire.TextContent{Annotations: &mcpwire.Annotations{Priority: &nan}}).MarshalJSON()
	require.EqualError(t, err, "cannot write NaN or an infinity as JSON")
}
