package mcpwire_test

import (
	"encoding/json"
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
)

// The wire form of a result: "content" and "resultType":"complete" are always there, required
// members are written even when empty, a set priority of 0 and a size of 0 stay, data and
// blobs are padded standard base64, and _meta members are sorted.
func ExampleCallToolResult_MarshalJSON() {
	zero := 0.0
	r := &mcpwire.CallToolResult{
		Content: []mcpwire.Content{
			&mcpwire.TextContent{Text: "", Annotations: &mcpwire.Annotations{
				Audience: []mcpwire.Role{mcpwire.RoleAssistant}, Priority: &zero}},
			&mcpwire.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"},
			&mcpwire.ResourceLink{URI: "https://example.com/report.pdf", Name: "report", Size: new(int64)},
			&mcpwire.EmbeddedResource{Resource: mcpwire.ResourceContents{URI: "file:///empty.bin", Blob: []byte{}}},
		},
		StructuredContent: map[string]any{"pages": 3},
		Meta:              map[string]any{"z": 1, "a": []any{true, nil}},
	}
	if err := r.Check(); err != nil {
		fmt.Println("invalid:", err)
		return
	}
	b, err := r.MarshalJSON()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))

	var back mcpwire.CallToolResult
	if err := json.Unmarshal(b, &back); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*back.Content[0].(*mcpwire.TextContent).Annotations.Priority,
		*back.Content[2].(*mcpwire.ResourceLink).Size)

	empty, _ := (&mcpwire.CallToolResult{}).MarshalJSON()
	fmt.Println(string(empty))
	// Output:
	// {"content":[{"type":"text","text":"","annotations":{"audience":["assistant"],"priority":0}},{"type":"image","data":"iVBORw==","mimeType":"image/png"},{"type":"resource_link","uri":"https://example.com/report.pdf","name":"report","size":0},{"type":"resource","resource":{"uri":"file:///empty.bin","blob":""}}],"structuredContent":{"pages":3},"resultType":"complete","_meta":{"a":[true,null],"z":1}}
	// 0 0
	// {"content":[],"resultType":"complete"}
}

// Reading refuses what the MCP schemas refuse, and says what is wrong.
func ExampleUnmarshalContent() {
	for _, in := range []string{
		`{"type":"image","data":"iVBORw==","mimeType":"image/png"}`,
		`{"type":"image","data":"iVBORw","mimeType":"image/png"}`,
		`{"type":"text","text":"hi","annotations":{"priority":2}}`,
		`{"type":"video","data":""}`,
	} {
		c, err := mcpwire.UnmarshalContent([]byte(in))
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%s %q\n", c.ContentType(), c.(*mcpwire.ImageContent).Data)
	}
	// Output:
	// image "\x89PNG"
	// error: image data is not padded standard base64: illegal base64 data at input byte 4
	// error: annotations: priority 2 is not a number from 0 to 1
	// error: unknown content type "video"
}
