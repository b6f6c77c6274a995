package bridge_test

import (
	"encoding/json"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// FuzzNormalizeJSON: whatever JSON a tool returns, Normalize does not panic and its result
// passes the MCP checks and every schema.
func FuzzNormalizeJSON(f *testing.F) {
	for _, s := range []string{`"x"`, `{"type":"html","html":"<b>x</b><script>1</script>"}`,
		`{"type":"image","data":"iVBORw0KGgo="}`,
		`{"content":[{"type":"text","text":"a"}],"isError":true}`, `[{"type":"link","url":"https://e.test"}]`,
		`{"type":"table","headers":["a"],"rows":[[1,{"x":2}]]}`, `{"type":"text","text":"a","annotations":{"priority":0}}`,
		`{"type":"resource","resource":{"uri":"a:b","blob":"AA=="}}`, `null`, `[1,2]`} {
		f.Add([]byte(s))
	}
	p := bridge.DefaultPolicy()
	p.MaxTextChars = 64
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		r, _, err := bridge.NormalizeJSON(in, p)
		if err != nil {
			return // JSON the decoder refuses (e.g. nesting over its limit)
		}
		requireValidMCP(t, r)
	})
}

// FuzzParseToolOutput: the agent side survives any string a page returns.
func FuzzParseToolOutput(f *testing.F) {
	f.Add(`{"content":[{"type":"mystery"}]}`)
	f.Add(`plain`)
	f.Add(`{"content":[{"type":"resource","resource":{"uri":"javascript:x","text":"<p>"}}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		r, _ := bridge.ParseToolOutput(raw, bridge.DefaultPolicy())
		requireValidMCP(t, r)
		_ = bridge.ToModelInput(r)
	})
}
