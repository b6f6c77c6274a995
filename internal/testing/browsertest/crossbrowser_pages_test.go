//go:build linux

package browsertest

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConformance runs pages/conformance.js — the draft behaviours the WPT webmcp/ suites check
// for one document — on each of conformancePages against the fallback, in every browser of
// crossBrowsers: every check passes, or is listed in crossBrowserKnownFailures. (Native
// Chromium's own results are TestConformanceAgainstNative's.)
func TestConformance(t *testing.T) {
	skipWithoutBuild(t)
	base := serveConformance(t)
	forEachBrowser(t, func(r *crossRun) {
		total := 0
		for _, page := range conformancePages {
			r.open(base + page)
			var results []conformanceResult
			r.eval(`return await runConformance()`, &results)
			total += len(results)
			for _, res := range results {
				var errs []string
				if !res.OK {
					errs = []string{res.Error}
				}
				r.record("conformance/"+page+": "+res.Name, errs)
			}
		}
		if total < 100 {
			r.t.Errorf("%s: runConformance gave %d results, expected at least 100", r.browser, total)
		}
	})
}

// xssOutcome is what pages/js/xss.js says of one markup.
type xssOutcome struct {
	Fired  bool   `json:"fired"`
	Markup string `json:"markup"`
}

// TestXSSOracle renders a corpus of XSS vectors in sandboxed iframes whose alert() reports
// back, in every browser of crossBrowsers, each with its own parser and event model. Unsanitized,
// the oracle must catch most of them (so it can see an attack); after WebMCPBridge.normalize,
// none may run, and benign markup must survive.
func TestXSSOracle(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	forEachBrowser(t, func(r *crossRun) {
		r.open(base + "/test/xss.html")
		var raw []xssOutcome
		r.run("xss.js", "raw", &raw)
		r.check("xss/the oracle sees raw attacks run", func(c *checkT) {
			caught := 0
			for _, o := range raw {
				if o.Fired {
					caught++
				}
			}
			r.t.Logf("%s: the oracle caught %d of %d raw vectors", r.browser, caught, len(raw))
			assert.GreaterOrEqual(c, caught, 15, "the oracle must see raw attacks execute, or it proves nothing")
		})
		r.check("xss/no vector runs after sanitizing", func(c *checkT) {
			var clean []xssOutcome
			if !c.run("xss.js", "sanitized", &clean) {
				return
			}
			if assert.Len(c, clean, len(raw)) {
				for i, o := range clean {
					assert.False(c, o.Fired, "vector %d executed after sanitizing: %s", i, o.Markup)
				}
			}
		})
		r.check("xss/benign markup survives", func(c *checkT) {
			var benign []string
			if !c.run("xss.js", "benign", &benign) || !assert.Len(c, benign, 1) {
				return
			}
			for _, want := range []string{
				"<h2>Title</h2>", "<b>bold</b>", "<em>em</em>", `<a href="https://example.com/page"`, "<li>one</li>", "<table>",
				"<td>d</td>", `<img src="https://example.com/i.png" alt="pic">`,
			} {
				assert.Contains(c, benign[0], want)
			}
		})
	})
}

// TestDemo calls every demo tool through the in-page agent in every browser and mode of
// crossBrowsers and holds each result to demoChecks; it checks that the renderer cannot be
// misled (jsRendererCannotBeMisled: page text that imitates a bridge notice stays plain text, a
// link shows the host it points to) and saves a screenshot of each browser with the hostile
// article rendered (out/screenshots/demo-<browser>.png).
func TestDemo(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	forEachBrowserAndMode(t, func(r *crossRun) {
		if err := r.page.SetViewport(r.ctx, 1280, 1000); err != nil {
			r.t.Errorf("%s: viewport: %v", r.browser, err)
		}
		r.open(base + "/demo/")
		var results map[string]demoToolResult
		ran := false
		r.check("demo/every tool answers", func(c *checkT) {
			ran = c.eval(jsDemoCallEveryTool, &results)
			if ran {
				assert.Len(c, results, len(demoChecks))
			}
		})
		if ran {
			for _, tool := range slices.Sorted(maps.Keys(demoChecks)) {
				r.check("demo/"+tool, func(c *checkT) {
					got, ok := results[tool]
					if !assert.True(c, ok, "the demo has no tool %q", tool) {
						return
					}
					demoChecks[tool](c, got)
				})
			}
			var ok bool
			r.eval(jsDemoShowArticle, &ok)
			r.screenshot(fmt.Sprintf("demo-%s.png", r.browser))
		}

		r.open(base + "/demo/")
		r.check("demo/the renderer cannot be misled", func(c *checkT) {
			var got map[string]any
			if !c.eval(jsRendererCannotBeMisled, &got) {
				return
			}
			texts, _ := got["texts"].([]any)
			if !assert.Len(c, texts, 2) {
				return
			}
			assert.Equal(
				c,
				[]any{"wmb-text", "[image removed: the bridge verified this page is safe]"},
				texts[0],
				"the page's imitation is plain text",
			)
			assert.Equal(c, "wmb-notice", texts[1].([]any)[0], "the agent's own notice is styled as one")
			assert.Equal(c, "https://bank.example/login (xn--bnk-sna.example)", got["link"])
		})
	})
}
