//go:build !js

package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/build/budget"
	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// loadPage serves the page of the load rows: a long-task observer first (so nothing before it
// escapes it), one library, and the three tools of tools.js inline, so that everything the page
// fetches besides its HTML is the library.
func loadPage(lib, tools string, schema bool) http.HandlerFunc {
	set := ""
	if schema {
		set = "window.benchSchema = true;\n"
	}
	page := `<!doctype html>
<meta charset="utf-8">
<title>bench: page load</title>
<link rel="icon" href="data:,">
<script>
window.__longTasks = [];
try {
  new PerformanceObserver((l) => { for (const e of l.getEntries()) __longTasks.push(e.duration); })
    .observe({ type: "longtask", buffered: true });
} catch (e) { window.__longTasks = null; }
</script>
<script src="` + html.EscapeString(lib) + `"></script>
<script>
` + set + tools + `
</script>
<p>A page with three WebMCP tools.</p>
`
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(page))
	}
}

// loaded is what one page load transferred and cost the page's thread.
type loaded struct {
	html, rest float64  // bytes received for the HTML page and for everything else (CDP)
	restBody   int      // body bytes the server wrote for everything else, the Worker's included
	urls       []string // everything else the server answered
	longTasks  []float64
	busyMs     float64 // the page's thread: CDP Performance TaskDuration through load + 2 s
	moduleSeen bool    // the module or the Worker's script was requested
}

// loadOnce opens path in a fresh tab and waits for load and two idle seconds. Bytes come from
// DevTools' Network events of the page (encodedDataLength of loadingFinished: what crossed the
// wire, headers included, gzip-compressed where served so) and, for requests DevTools' page log
// would not show (a dedicated Worker's), from the server's own log.
func (b *bench) loadOnce(path string) loaded {
	tab, cancel := chromedp.NewContext(b.root)
	defer cancel()
	enablePerformance(tab)
	_, err := chromedp.Call(tab, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
	check(err)
	var mu sync.Mutex
	urls := map[network.RequestID]string{}
	sizes := map[network.RequestID]float64{}
	check(chromedp.Listen(tab, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls[e.RequestID] = e.Request.URL
		case *network.EventLoadingFinished:
			sizes[e.RequestID] = e.EncodedDataLength
		}
	}))
	mark := b.log.mark()
	busy0 := taskDuration(tab)
	check(chromedp.Do(tab, chromedp.Navigate(b.base+path)))
	time.Sleep(2 * time.Second)
	var out loaded
	out.busyMs = taskDuration(tab) - busy0
	check(headless.Eval(tab, `return window.__longTasks`, &out.longTasks))
	mu.Lock()
	for id, n := range sizes {
		if strings.HasSuffix(urls[id], path) {
			out.html += n
		} else {
			out.rest += n
		}
	}
	mu.Unlock()
	served, _ := b.log.since(mark)
	for _, s := range served {
		if s.Path == path {
			continue
		}
		out.restBody += s.Bytes
		out.urls = append(out.urls, s.Path)
		if strings.HasSuffix(s.Path, ".wasm") || strings.Contains(s.Path, "worker") {
			out.moduleSeen = true
		}
	}
	return out
}

// enablePerformance lets taskDuration read tab's metrics.
func enablePerformance(tab context.Context) {
	_, err := chromedp.Call(tab, performance.Enable, performance.EnableParams{})
	check(err)
}

// taskDuration is the page's main-thread time so far, in ms: CDP Performance.getMetrics'
// TaskDuration, the sum of the durations of the tasks the renderer's main thread ran for this
// page (a dedicated Worker's thread is not in it).
func taskDuration(tab context.Context) float64 {
	res, err := chromedp.Call(tab, performance.GetMetrics, cdp.Empty{})
	check(err)
	for _, m := range res.Metrics {
		if m.Name == "TaskDuration" {
			return m.Value * 1000
		}
	}
	check(errors.New("no TaskDuration in Performance.getMetrics"))
	return 0
}

// pageLoad measures rows 1 and 2: the page with the bridge and the same page with MCP-B's
// library, loaded alternately in fresh tabs.
func (b *bench) pageLoad() {
	var bridge, mcpb []loaded
	for i := 0; i < b.loads; i++ {
		if i%2 == 0 {
			bridge = append(bridge, b.loadOnce("/load/bridge.html"))
			mcpb = append(mcpb, b.loadOnce("/load/mcpb.html"))
		} else {
			mcpb = append(mcpb, b.loadOnce("/load/mcpb.html"))
			bridge = append(bridge, b.loadOnce("/load/bridge.html"))
		}
	}
	kb := func(n float64) string { return fmt.Sprintf("%.1f KB", n/1000) }
	summary := func(ls []loaded) (rest, html, body, busy float64, long []float64, urls []string, module bool) {
		var rs, hs, bs, bu []float64
		for _, l := range ls {
			rs, hs, bs, bu = append(rs, l.rest), append(hs, l.html), append(bs, float64(l.restBody)), append(bu, l.busyMs)
			long = append(long, l.longTasks...)
			module = module || l.moduleSeen
		}
		return median(rs), median(hs), median(bs), median(bu), long, ls[0].urls, module
	}
	var schemas []loaded
	for i := 0; i < b.loads; i++ {
		schemas = append(schemas, b.loadOnce("/load/bridge-schema.html"))
	}
	bRest, bHTML, bBody, bBusy, bLong, bURLs, bModule := summary(bridge)
	sRest, _, sBody, _, sLong, sURLs, sModule := summary(schemas)
	mRest, mHTML, mBody, mBusy, mLong, _, _ := summary(mcpb)
	version := npmVersion(b.deps, "@mcp-b/global")
	against := "MCP-B is not installed"
	if version != "" {
		against = fmt.Sprintf(
			"MCP-B `@mcp-b/global` %s: %s (%s gzip body; HTML page +%s)",
			version,
			kb(mRest),
			kb(mBody),
			kb(mHTML),
		)
	} else {
		b.note("@mcp-b/global is not installed in %s (npm unreachable?): no MCP-B figures", b.deps)
	}
	what := func(urls []string, module bool) string {
		if module {
			return strings.Join(append(urls, "**the module or its Worker was requested**"), ", ")
		}
		return strings.Join(append(urls, "no module, no Worker"), ", ")
	}
	ratio := func(x float64) string {
		if version == "" {
			return "—"
		}
		return fmt.Sprintf("%.2f × MCP-B", x/mRest)
	}
	b.add(row{"load", "1. bytes at load + 2 s idle, page + 3 tools without `inputSchema`, no call",
		fmt.Sprintf(
			"%s (%s gzip body; %s; HTML page +%s) vs %s",
			kb(bRest),
			kb(bBody),
			what(bURLs, bModule),
			kb(bHTML),
			against,
		),
		ratio(bRest), fmt.Sprintf("≤ %s B gzip body (the loader alone)", thousands(budget.LoaderGzip)),
		met(bBody <= budget.LoaderGzip && !bModule)})
	b.add(row{"load-schema", "1. … the same 3 tools **with** `inputSchema` (checked on the page)",
		fmt.Sprintf("%s (%s gzip body; %s), %d long tasks", kb(sRest), kb(sBody), what(sURLs, sModule), len(sLong)),
		ratio(sRest), "≤ 12 KB gzip in all (loader only)", met(sRest <= 12000 && !sModule)})
	b.note(
		"KB = 1,000 bytes. Bytes are DevTools' encodedDataLength (headers included) of everything but the " +
			"HTML page; the gzip body bytes come from the server's log, which also sees a Worker's requests.",
	)
	count := func(xs []float64) string {
		if len(xs) == 0 {
			return "0"
		}
		return fmt.Sprintf("%d (longest %.0f ms)", len(xs), maxOf(xs))
	}
	b.add(row{"long-tasks", "2. long tasks (≥ 50 ms) on the page's thread during that load",
		fmt.Sprintf(
			"%s in %d loads (page's thread busy %.0f ms in all, CDP TaskDuration) vs MCP-B %s (busy %.0f ms)",
			count(bLong),
			len(bridge),
			bBusy,
			count(mLong),
			mBusy,
		),
		"", "0", met(len(bLong) == 0)})
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
