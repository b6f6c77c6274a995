package bridge_test

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// A tool returned a proposed WebMCP html block; the agent gets sanitized markup for display and
// plain text for the model.
func ExampleNormalizeJSON() {
	out := []byte(`{"type":"html","html":"<p>Hi <b>there</b><script>steal()</script></p>"}`)
	r, violations, err := bridge.NormalizeJSON(out, bridge.DefaultPolicy())
	if err != nil {
		panic(err)
	}
	b, _ := r.MarshalJSON()
	fmt.Println(string(b))
	fmt.Println(violations[0].Notice)
	// Output:
	// {"content":[{"type":"resource","resource":{"uri":"webmcp://content/0.html","mimeType":"text/html","text":"<p>Hi <b>there</b></p>"},"annotations":{"audience":["user"]}},{"type":"text","text":"Hi there","annotations":{"audience":["assistant"]}},{"type":"text","text":"[html sanitized: removed <script>]","_meta":{"webmcp-bridge/notice":{"limit":"html"}}}],"resultType":"complete"}
	// [html sanitized: removed <script>]
}

// Any other JSON value is kept whole as structuredContent, with its JSON as text.
func ExampleNormalize() {
	r, _ := bridge.Normalize(map[string]any{"temperature": 21.5}, bridge.DefaultPolicy())
	b, _ := r.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"content":[{"type":"text","text":"{\"temperature\":21.5}"}],"structuredContent":{"temperature":21.5},"resultType":"complete"}
}

// Pages pass their policy as JSON; what they leave out keeps its default.
func ExamplePolicyFromJSON() {
	p, err := bridge.PolicyFromJSON([]byte(`{"maxImageBytes": 1048576, "strict": true}`))
	fmt.Println(p.MaxImageBytes, p.Strict, p.MaxTextChars, err)
	_, err = bridge.PolicyFromJSON([]byte(`{"maxImageByte": 1}`))
	fmt.Println(err)
	// Output:
	// 1048576 true 100000 <nil>
	// policy: unknown setting "maxImageByte"
}

// The agent side: re-normalize what executeTool returned, then hand the model what it takes.
func ExampleToModelInput() {
	raw := `{"content":[{"type":"text","text":"Found it"},` +
		`{"type":"resource_link","uri":"https://example.com/r/1","name":"r1","title":"Report 1"}]}`
	r, _ := bridge.ParseToolOutput(raw, bridge.DefaultPolicy())
	in := bridge.ToModelInput(r)
	fmt.Println(in.Text)
	fmt.Println(len(in.Attachments), in.Attachments[0].Type, in.IsError)
	// Output:
	// Found it
	// Link: "Report 1" <https://example.com/r/1>
	// 1 resource_link false
}
