//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestXSSOracle renders a corpus of XSS vectors in sandboxed iframes whose alert() reports
// back. Unsanitized, the oracle must catch most of them (so it can see an attack); after
// WebMCPBridge.normalize, none may run, and benign markup must survive.
func TestXSSOracle(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/xss.html")
	type outcome struct {
		Fired  bool   `json:"fired"`
		Markup string `json:"markup"`
	}
	var raw []outcome
	runJS(t, ctx, "xss.js", "raw", &raw)
	caught := 0
	for _, o := range raw {
		if o.Fired {
			caught++
		}
	}
	t.Logf("the oracle caught %d of %d raw vectors", caught, len(raw))
	require.GreaterOrEqual(t, caught, 15, "the oracle must see raw attacks execute, or it proves nothing")

	var clean []outcome
	runJS(t, ctx, "xss.js", "sanitized", &clean)
	require.Len(t, clean, len(raw))
	for i, o := range clean {
		assert.False(t, o.Fired, "vector %d executed after sanitizing: %s", i, o.Markup)
	}

	var benign []string
	runJS(t, ctx, "xss.js", "benign", &benign)
	for _, want := range []string{
		"<h2>Title</h2>", "<b>bold</b>", "<em>em</em>", `<a href="https://example.com/page"`, "<li>one</li>", "<table>",
		"<td>d</td>", `<img src="https://example.com/i.png" alt="pic">`,
	} {
		assert.Contains(t, benign[0], want)
	}
}
