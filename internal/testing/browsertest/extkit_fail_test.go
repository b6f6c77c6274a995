//go:build !js

package browsertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionKitFailsClosed (issue 37): the guide's extension with its manifest wrong, in each
// of the ways the guide names. The hand-off never reaches a page script; the console says once
// what to change in the manifest; the extension's calls answer the same instead of waiting.
func TestExtensionKitFailsClosed(t *testing.T) {
	skipWithoutBuild(t)
	ext := kitExtension(t, nil)
	base := serveWeb(t)
	var guide map[string]any
	require.NoError(t, json.Unmarshal([]byte(docBlock(t, extensionGuide, "## The manifest", "json")), &guide))
	for _, c := range []struct {
		name   string
		change func(m map[string]any)
		tool   string
		say    string // what the page's console says, once
		answer string // what the extension's call answers
	}{
		{
			name: "MAIN world first",
			change: func(m map[string]any) {
				cs := m["content_scripts"].([]any)
				m["content_scripts"] = []any{cs[1], cs[0]}
			},
			tool:   "echo",
			say:    "ran before its hand-off",
			answer: "ran before its hand-off",
		},
		{
			name: "no MAIN-world script",
			change: func(m map[string]any) {
				m["content_scripts"] = m["content_scripts"].([]any)[:1]
			},
			tool:   "echo",
			say:    "no MAIN-world script took the hand-off",
			answer: "no MAIN-world script took the hand-off",
		},
		{
			name:   "no web_accessible_resources",
			change: func(m map[string]any) { delete(m, "web_accessible_resources") },
			tool:   "echo",
			say:    "in the manifest's web_accessible_resources",
		},
		{
			name:   "no wasm-unsafe-eval for the extension's pages",
			change: func(m map[string]any) { delete(m, "content_security_policy") },
			tool:   "echo",
			answer: "content_security_policy.extension_pages",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "extension")
			require.NoError(t, os.CopyFS(dir, os.DirFS(ext)))
			m := map[string]any{}
			data, _ := json.Marshal(guide)
			require.NoError(t, json.Unmarshal(data, &m))
			c.change(m)
			data, _ = json.MarshalIndent(m, "", "  ")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644))

			browserCtx := browser(t, false,
				chromedp.Flag("disable-extensions-except", dir), chromedp.Flag("load-extension", dir))
			page, cancel := chromedp.NewContext(browserCtx)
			t.Cleanup(cancel)
			var mu sync.Mutex
			var said []string
			require.NoError(t, chromedp.Listen(page, func(ev any) {
				if e, ok := ev.(*runtime.EventConsoleAPICalled); ok && len(e.Args) > 0 {
					var s string
					_ = json.Unmarshal(e.Args[0].Value, &s)
					mu.Lock()
					said = append(said, s)
					mu.Unlock()
				}
			}))
			pageURL := base + "/test/handoff-probe.html"
			open(t, page, pageURL)
			var seen struct {
				Saw   *string `json:"saw"`
				Still bool    `json:"still"`
			}
			eval(t, page, `await window.registered; await new Promise((r) => setTimeout(r, 100));
				return {saw: window.sawHandOff, still: document.documentElement.hasAttribute("data-webmcp-bridge")}`, &seen)
			assert.Nil(t, seen.Saw, "no page script sees the hand-off")
			assert.False(t, seen.Still, "the hand-off is not left on the page")

			worker := serviceWorker(t, browserCtx)
			var answer map[string]any
			eval(t, worker, `const [tab] = await chrome.tabs.query({url: `+jsString(pageURL)+`});
				try { return await callTool(tab.id, `+jsString(c.tool)+`, {text: "hi"}); }
				catch (e) { return {error: e.message}; }`, &answer)
			got, _ := json.Marshal(answer)
			if c.answer != "" {
				assert.Contains(t, string(got), c.answer, "the call answers what to change")
			}
			if c.say != "" {
				mu.Lock()
				n := 0
				for _, s := range said {
					if strings.Contains(s, c.say) {
						n++
					}
				}
				mu.Unlock()
				assert.Equal(t, 1, n, "the console says it once: %q (the call answered %s)", said, got)
			}
		})
	}
}
