package bridge_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
)

// TestNormalizeLeavesInputUnchanged: Normalize reads its caller's value and never writes to it,
// at any depth — a nested _meta that gets the bridge's own members is a copy.
func TestNormalizeLeavesInputUnchanged(t *testing.T) {
	png := b64(fixtures.PNG(2, 2, false))
	tests := []struct{ name, in string }{
		{"extra members merge into a nested extra",
			`{"type":"text","text":"hi","odd":1,"_meta":{"webmcp-bridge/extra":{"kept":true}}}`},
		{"a forged notice mark moves under extra",
			`{"type":"text","text":"hi","_meta":{"webmcp-bridge/notice":{"limit":"x"},"webmcp-bridge/extra":{"a":[1,2]}}}`},
		{"error code into an existing code object",
			`{"type":"error","message":"m","code":{"n":1},"_meta":{"code":{"old":true}}}`},
		{"image alt into an existing alt object",
			`{"type":"image","data":"` + png + `","alt":{"a":1},"_meta":{"alt":{"b":2}}}`},
		{"resource uri replaced, extra merged",
			`{"type":"resource","resource":{"uri":"javascript:alert(1)","text":"t","_meta":{"x":1}},` +
				`"_meta":{"webmcp-bridge/extra":{"k":"v"}}}`},
		{"resource_link size and icons",
			`{"type":"resource_link","uri":"https://example.com/a","name":"a","size":-1,"icons":[{"src":"x"}],` +
				`"_meta":{"webmcp-bridge/extra":{"k":[{"deep":{}}]}}}`},
		{"bad lastModified dropped",
			`{"type":"text","text":"t","annotations":{"audience":["user"],"lastModified":"yesterday"}}`},
		{"envelope with meta and structured content",
			`{"content":[{"type":"text","text":"a","_meta":{"webmcp-bridge/extra":{}}},"b"],"structuredContent":[1,{"x":[2]}],` +
				`"_meta":{"m":{"n":[3]}}}`},
		{"html with a nested extra",
			`{"type":"html","html":"<p onclick=x>hi<script>1</script></p>","z":[1],"_meta":{"webmcp-bridge/extra":{"y":{}}}}`},
		{"table",
			`{"type":"table","headers":["a","b"],"rows":[["=1",2],[{"x":1},null]],"_meta":{"webmcp-bridge/extra":{"q":1}},` +
				`"extra":true}`},
		{"array of blocks",
			`[{"type":"text","text":"a","u":1,"_meta":{"webmcp-bridge/extra":{"v":2}}},{"type":"link","url":"/rel",` +
				`"title":"t"}]`},
		{"data", `{"a":{"b":[{"c":null}]},"_meta":{"webmcp-bridge/extra":{}}}`},
	}
	for _, strict := range []bool{false, true} {
		p := bridge.DefaultPolicy()
		p.Strict = strict
		p.PageURL = "https://example.com/page"
		for _, tt := range tests {
			in, want := decode(t, tt.in), decode(t, tt.in)
			bridge.Normalize(in, p)
			assert.Equal(t, want, in, "%s (strict %v): Normalize changed its input", tt.name, strict)
		}
	}
}
