package mcpwire_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
)

// otherBlock is a Content type from outside the package, which Check does not know.
type otherBlock struct{ mcpwire.TextContent }

func (*otherBlock) ContentType() string { return "other" }

func one(c mcpwire.Content) *mcpwire.CallToolResult {
	return &mcpwire.CallToolResult{Content: []mcpwire.Content{c}}
}

func withAnnotations(a *mcpwire.Annotations) *mcpwire.CallToolResult {
	return one(&mcpwire.TextContent{Text: "t", Annotations: a})
}

// checkFailures are results that break a rule, with the error Check gives.
var checkFailures = []struct {
	name string
	in   *mcpwire.CallToolResult
	err  string
}{
	{"nil result", nil, "result is nil"},
	{"nil block", one(nil), "content[0] (nil): nil block"},
	{"nil block after a good one", &mcpwire.CallToolResult{Content: []mcpwire.Content{&mcpwire.TextContent{}, nil}},
		"content[1] (nil): nil block"},
	{"the first bad block is reported", &mcpwire.CallToolResult{Content: []mcpwire.Content{
		&mcpwire.TextContent{Text: "ok"}, &mcpwire.ImageContent{MIMEType: "image/png"}, &mcpwire.TextContent{Text: "\xff"}}},
		`content[1] (image): image needs data and an image/ MIME type, has 0 bytes and "image/png"`},
	{"unknown block type", one(&otherBlock{}), "content[0] (other): unknown block type *mcpwire_test.otherBlock"},

	// text
	{"invalid UTF-8 text", one(&mcpwire.TextContent{Text: "caf\xe9"}), "content[0] (text): text is not valid UTF-8"},
	{"a lone surrogate's bytes", one(&mcpwire.TextContent{Text: "\xed\xa0\x80"}),
		"content[0] (text): text is not valid UTF-8"},

	// image and audio
	{"image without data", one(&mcpwire.ImageContent{MIMEType: "image/png"}),
		`content[0] (image): image needs data and an image/ MIME type, has 0 bytes and "image/png"`},
	{"image with empty data", one(&mcpwire.ImageContent{Data: []byte{}, MIMEType: "image/png"}),
		`content[0] (image): image needs data and an image/ MIME type, has 0 bytes and "image/png"`},
	{"image without MIME type", one(&mcpwire.ImageContent{Data: []byte{1}}),
		`content[0] (image): image needs data and an image/ MIME type, has 1 bytes and ""`},
	{"image with a non-image MIME type", one(&mcpwire.ImageContent{Data: []byte("<svg/>"), MIMEType: "text/html"}),
		`content[0] (image): image needs data and an image/ MIME type, has 6 bytes and "text/html"`},
	{"image with an audio MIME type", one(&mcpwire.ImageContent{Data: []byte{1, 2}, MIMEType: "audio/wav"}),
		`content[0] (image): image needs data and an image/ MIME type, has 2 bytes and "audio/wav"`},
	{"image MIME type in the wrong case", one(&mcpwire.ImageContent{Data: []byte{1}, MIMEType: "Image/PNG"}),
		`content[0] (image): image needs data and an image/ MIME type, has 1 bytes and "Image/PNG"`},
	{"audio without data", one(&mcpwire.AudioContent{MIMEType: "audio/wav"}),
		`content[0] (audio): audio needs data and an audio/ MIME type, has 0 bytes and "audio/wav"`},
	{"audio with an image MIME type", one(&mcpwire.AudioContent{Data: []byte{1}, MIMEType: "image/png"}),
		`content[0] (audio): audio needs data and an audio/ MIME type, has 1 bytes and "image/png"`},

	// resource_link
	{"resource_link with a relative URI", one(&mcpwire.ResourceLink{URI: "/docs/a.txt", Name: "a"}),
		`content[0] (resource_link): uri "/docs/a.txt" is not absolute`},
	{"resource_link with a scheme-relative URI", one(&mcpwire.ResourceLink{URI: "//example.com/a", Name: "a"}),
		`content[0] (resource_link): uri "//example.com/a" is not absolute`},
	{"resource_link without URI", one(&mcpwire.ResourceLink{Name: "a"}),
		`content[0] (resource_link): uri "" is not absolute`},
	{"resource_link with a URI that does not parse", one(&mcpwire.ResourceLink{URI: "https://example.com/%zz", Name: "a"}),
		`content[0] (resource_link): uri "https://example.com/%zz" does not parse: "invalid URL escape \"%zz\""`},
	{"resource_link without name", one(&mcpwire.ResourceLink{URI: "https://example.com/a"}),
		"content[0] (resource_link): resource_link has no name"},
	{"resource_link with a negative size",
		one(&mcpwire.ResourceLink{URI: "https://example.com/a", Name: "a", Size: ptr(int64(-1))}),
		"content[0] (resource_link): size -1 is negative"},

	// resource
	{"resource with a relative URI",
		one(&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "a.txt", Text: "hi"}}),
		`content[0] (resource): uri "a.txt" is not absolute`},
	{"resource without URI", one(&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{Blob: []byte{1}}}),
		`content[0] (resource): uri "" is not absolute`},
	{"resource text invalid UTF-8",
		one(&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///a", Text: "\xff"}}),
		"content[0] (resource): resource text is not valid UTF-8"},

	// annotations, on every block type
	{"priority above 1", withAnnotations(&mcpwire.Annotations{Priority: ptr(1.5)}),
		"content[0] (text): priority 1.5 is outside 0..1"},
	{"priority below 0", withAnnotations(&mcpwire.Annotations{Priority: ptr(-0.25)}),
		"content[0] (text): priority -0.25 is outside 0..1"},
	{"priority +Inf", withAnnotations(&mcpwire.Annotations{Priority: ptr(math.Inf(1))}),
		"content[0] (text): priority +Inf is outside 0..1"},
	{"priority just above 1", withAnnotations(&mcpwire.Annotations{Priority: ptr(math.Nextafter(1, 2))}),
		"content[0] (text): priority 1.0000000000000002 is outside 0..1"},
	{"audience with an unknown role",
		withAnnotations(&mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleUser, "system"}}),
		`content[0] (text): audience "system" is not a role`},
	{"audience with an empty role", withAnnotations(&mcpwire.Annotations{Audience: []mcpwire.Role{""}}),
		`content[0] (text): audience "" is not a role`},
	{"priority on an image",
		one(&mcpwire.ImageContent{Data: []byte{1}, MIMEType: "image/png",
			Annotations: &mcpwire.Annotations{Priority: ptr(2.0)}}),
		"content[0] (image): priority 2 is outside 0..1"},
	{"priority on an audio block",
		one(&mcpwire.AudioContent{Data: []byte{1}, MIMEType: "audio/wav",
			Annotations: &mcpwire.Annotations{Priority: ptr(-1.0)}}),
		"content[0] (audio): priority -1 is outside 0..1"},
	{"audience on a resource_link",
		one(&mcpwire.ResourceLink{URI: "https://example.com/", Name: "n",
			Annotations: &mcpwire.Annotations{Audience: []mcpwire.Role{"model"}}}),
		`content[0] (resource_link): audience "model" is not a role`},
	{"annotations are checked before the block",
		one(&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "rel"},
			Annotations: &mcpwire.Annotations{Priority: ptr(9.0)}}),
		"content[0] (resource): priority 9 is outside 0..1"},
}

func TestCheckFailures(t *testing.T) {
	for _, tt := range checkFailures {
		t.Run(tt.name, func(t *testing.T) {
			require.EqualError(t, tt.in.Check(), tt.err)
		})
	}
}

// checkPasses are results at the edges of the rules that Check accepts.
var checkPasses = []struct {
	name string
	in   *mcpwire.CallToolResult
}{
	{"empty result", &mcpwire.CallToolResult{}},
	{"empty text", one(&mcpwire.TextContent{})},
	{"text with U+FFFD and an emoji", one(&mcpwire.TextContent{Text: "\uFFFD😀"})},
	{"one-byte image", one(&mcpwire.ImageContent{Data: []byte{0}, MIMEType: "image/png"})},
	{"image/svg+xml is an image MIME type", one(&mcpwire.ImageContent{Data: []byte("<svg/>"), MIMEType: "image/svg+xml"})},
	{"one-byte audio", one(&mcpwire.AudioContent{Data: []byte{0}, MIMEType: "audio/mpeg"})},
	{"resource_link with every member",
		one(&mcpwire.ResourceLink{URI: "https://example.com/a?b=c#d", Name: "a", Title: "A", Description: "d",
			MIMEType: "text/plain", Size: ptr(int64(10))})},
	{"resource_link size 0", one(&mcpwire.ResourceLink{URI: "https://example.com/a", Name: "a", Size: ptr(int64(0))})},
	{"resource_link with an opaque URI", one(&mcpwire.ResourceLink{URI: "urn:isbn:0451450523", Name: "book"})},
	{"resource_link with a custom scheme", one(&mcpwire.ResourceLink{URI: "webmcp://content/0.html", Name: "c"})},
	{"text resource with empty text",
		one(&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///a"}})},
	{"blob resource with an empty blob",
		one(&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///a", Blob: []byte{}}})},
	{"blob resource: bytes are not UTF-8 and need not be",
		one(&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///a", Blob: []byte{0xff}}})},
	{"priority 0", withAnnotations(&mcpwire.Annotations{Priority: ptr(0.0)})},
	{"priority 1", withAnnotations(&mcpwire.Annotations{Priority: ptr(1.0)})},
	{"priority -0", withAnnotations(&mcpwire.Annotations{Priority: ptr(math.Copysign(0, -1))})},
	{"both roles",
		withAnnotations(&mcpwire.Annotations{Audience: []mcpwire.Role{mcpwire.RoleUser, mcpwire.RoleAssistant}})},
	{"empty annotations", withAnnotations(&mcpwire.Annotations{})},
	{"isError with structuredContent and _meta", &mcpwire.CallToolResult{IsError: true,
		StructuredContent: map[string]any{"a": 1}, Meta: map[string]any{"b": "c"}}},
}

func TestCheckPasses(t *testing.T) {
	for _, tt := range checkPasses {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.in.Check())
			b, err := tt.in.MarshalJSON()
			require.NoError(t, err, "what Check passes can be written")
			requireOfficialMCP(t, b, len(tt.in.Content), tt.in.IsError)
		})
	}
}

// TestCheckRefusesNaNPriority: NaN is not within 0..1 and cannot be written as JSON, so Check
// must refuse it rather than pass a result whose MarshalJSON then fails.
func TestCheckRefusesNaNPriority(t *testing.T) {
	r := withAnnotations(&mcpwire.Annotations{Priority: ptr(math.NaN())})
	_, err := r.MarshalJSON()
	require.Error(t, err, "NaN cannot be written")
	require.EqualError(t, r.Check(), "content[0] (text): priority NaN is outside 0..1")
}
