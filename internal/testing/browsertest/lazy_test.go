//go:build !js

package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

// requests records the URLs requested: from the server's log (serveLogged), which sees the
// Worker's requests too, or from DevTools' network log of the page (watchRequests).
type requests struct {
	mu   sync.Mutex
	urls []string
}

func (r *requests) add(url string) {
	r.mu.Lock()
	r.urls = append(r.urls, url)
	r.mu.Unlock()
}

func watchRequests(t *testing.T, ctx context.Context) *requests {
	t.Helper()
	r := &requests{}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			r.add(e.Request.URL)
		}
	}))
	_, err := chromedp.Call(ctx, network.Enable, network.EnableParams{})
	require.NoError(t, err)
	return r
}

func (r *requests) count(suffix string) int { return r.countUnder("", suffix) }

// countUnder counts the URLs that start with prefix and end with suffix.
func (r *requests) countUnder(prefix, suffix string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, u := range r.urls {
		if strings.HasPrefix(u, prefix) && strings.HasSuffix(u, suffix) {
			n++
		}
	}
	return n
}

// TestLazyStart: a page with the bridge and four tools, three with an inputSchema, does not
// request the module through load and two idle seconds (the schemas are checked on the page),
// and plain text results of a tool without a schema never need it; the first call that needs Go
// fetches it once, in the bridge's Worker. data-start="eager" fetches it at once. The
// requests are counted by the server, which sees the Worker's as well as the page's (DevTools'
// page log shows only the page's).
func TestLazyStart(t *testing.T) {
	skipWithoutBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		base, reqs := serveLogged(t, fromRoot("out", "testdist"))
		pageLog := watchRequests(t, ctx)
		open(t, ctx, base+"/test/lazy.html")
		var first struct{ Text, Refused string }
		runJS(t, ctx, "lazy.js", "idleThenPlainText", &first)
		assert.Equal(t, "hello", first.Text)
		assert.Equal(
			t,
			`TypeError: registerTool: inputSchema/properties/when/format: `+
				`format is not supported (excluded from the WebMCP input schema subset)`,
			first.Refused,
			"refused on the page, with the message the module gives",
		)
		assert.Equal(t, 1, reqs.count("/dist/webmcp-bridge.js"))
		assert.Zero(t, reqs.count(".wasm"), "no module before the first need: %v", reqs.urls)
		assert.Zero(t, reqs.count("wasm_exec.js"))

		var html string
		runJS(t, ctx, "lazy.js", "articleHTML", &html)
		assert.Equal(t, "<p>Hi</p>", html)
		assert.Equal(t, 1, reqs.count("/dist/webmcp-bridge.wasm"), "fetched once, at the first need")
		var found []string
		runJS(t, ctx, "lazy.js", "search", &found, "go", "Go!")
		assert.Equal(t, "found go", found[0])
		assert.Contains(
			t,
			found[1],
			`invalid arguments at "/q"`,
			"the schema accepted on the page is enforced by the module",
		)
		assert.Equal(t, 1, reqs.count("/dist/webmcp-bridge-worker.js"))
		assert.Zero(t, pageLog.count(".wasm"), "the page's thread never fetches the module: %v", pageLog.urls)
		var where string
		runJS(t, ctx, "lazy.js", "where", &where)
		assert.Equal(t, "worker", where)

		// The same loader with data-start="eager", on a page without it; ready is not read
		// (reading it would start the module by itself).
		base2, eager := serveLogged(t, fromRoot("out", "testdist"))
		ctx2 := browser(t, native)
		open(t, ctx2, base2+"/test/empty.html")
		var started bool
		runJS(t, ctx2, "lazy.js", "startEager", &started)
		assert.True(t, started, `data-start="eager" starts the module without being asked`)
		assert.Equal(t, 1, eager.count("/dist/webmcp-bridge.wasm"))
	})
}

// TestREADMEExample serves the README's first page example as written (the script's path
// pointed at the built loader) and calls its tool with the README's agent snippet: the text and
// the canvas image come back; then the page authors' guide's AbortSignal snippet.
func TestREADMEExample(t *testing.T) {
	skipWithoutBuild(t)
	example := docBlock(t, "README.md", "## In a page", "html")
	agent := docBlock(t, "README.md", "An agent calls it", "js")
	says := regexp.MustCompile(`console\.log\([^)]*\); // (.*)`).FindStringSubmatch(agent)
	require.NotNil(t, says, "the agent snippet says what it logs")
	agentSays := says[1]
	idiom := docBlock(t, pageGuide, "**Other frameworks**", "js")
	// Run up to its last line (the abort), look, then run that line.
	cut := strings.LastIndex(idiom, "controller.abort();")
	require.Positive(t, cut, "the AbortSignal snippet ends by aborting")
	registerIdiom, abortIdiom := idiom[:cut], idiom[cut:]
	page := strings.Replace(example, `src="/webmcp-bridge/webmcp-bridge.js"`, `src="/dist/webmcp-bridge.js"`, 1)
	require.NotEqual(t, example, page, "the example loads /webmcp-bridge/webmcp-bridge.js")
	mux := http.NewServeMux()
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(fromRoot("web", "dist"))))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><meta charset=utf-8>" + page))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			ctx := browser(t, mode.native)
			open(t, ctx, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)+"/")
			var r result
			eval(
				t,
				ctx,
				`for (let i = 0; i < 100 && !(await document.modelContext.getTools()).length; `+
					`i++) await new Promise((r) => setTimeout(r, 20));
				return await WebMCPBridge.agent.callTool("chart", {});`,
				&r,
			)
			require.Len(t, r.Content, 2, "%v", r.Content)
			assert.Equal(t, "Sales are up", r.Content[0]["text"])
			assert.Equal(t, "image/png", r.Content[1]["mimeType"])

			// The agent snippet, as written, logs what its comment says.
			var logged []string
			eval(t, ctx, `const logged = []; const log = console.log; console.log = (...a) => logged.push(a.join(" "));
				try { `+agent+` } finally { console.log = log; }
				return logged;`, &logged)
			assert.Equal(t, []string{strings.TrimSpace(agentSays)}, logged)

			// The AbortSignal idiom: registered, then gone at once, and the name free again.
			var abort struct{ Before, After, Again bool }
			eval(
				t,
				ctx,
				`const has = async () => (await document.modelContext.getTools()).some((t) => t.name === "page_title");
				const state = {};
				`+registerIdiom+`
				state.Before = await has();
				`+abortIdiom+`
				state.After = await has();
				await document.modelContext.registerTool({ name: "page_title", description: "again", execute: () => "" });
				state.Again = await has();
				return state;`,
				&abort,
			)
			assert.True(t, abort.Before, "registered")
			assert.False(t, abort.After, "gone once aborted")
			assert.True(t, abort.Again, "the name is free again")
		})
	}
}
