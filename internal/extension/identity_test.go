//go:build !js

package extension

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost/hosttest"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpclient"
)

// tab is a tab of shop.example as the extension lists it, with tools of the given names.
func tab(id int, path string, tools ...string) map[string]any {
	var ts []any
	for _, n := range tools {
		ts = append(ts, map[string]any{"name": n, "description": n})
	}
	return map[string]any{"tab": id, "window": 1, "url": "https://shop.example" + path,
		"origin": "https://shop.example", "title": "Shop", "tools": ts}
}

// listPages sends the server client the tabs of the browser of profile "profile-1".
func (b fakeBrowser) listPages(client any, tabs ...map[string]any) {
	b.send(map[string]any{"client": client, "type": "pages", "pages": tabs,
		"browser": map[string]any{"id": "profile-1", "name": "Chromium"}})
}

// hasNames waits until the client lists exactly these page tools (management tools aside).
func hasNames(t *testing.T, cs *mcp.ClientSession, want ...string) {
	t.Helper()
	var got []string
	ok := assert.Eventually(t, func() bool {
		got = nil
		for _, n := range mcpclient.Names(t, cs) {
			if !slices.Contains([]string{"webmcp_open_page", "webmcp_list_pages", "webmcp_close_page",
				"webmcp_list_tools", "webmcp_call_tool"}, n) {
				got = append(got, n)
			}
		}
		slices.Sort(got)
		return slices.Equal(got, want)
	}, 5*time.Second, 20*time.Millisecond)
	require.True(t, ok, "page tools %v, want %v", got, want)
}

// callAsync calls name in the background; the result comes on the returned channel.
func callAsync(t *testing.T, cs *mcp.ClientSession, name string) chan string {
	done := make(chan string, 1)
	go func() {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		assert.NoError(t, err)
		raw, _ := json.Marshal(r)
		done <- string(raw)
	}()
	return done
}

// TestPageIdentity (issue 36, 1): through the extension, a tab keeps its page id and its tools
// their names as under -open: through a reload (a call in flight answers that the page
// navigated, and a call of the held name while the tab reloads answers from the reloaded page), a same-origin navigation,
// its origin switched off and on in the panel, and a browser restart; a held name whose tool
// the new page lacks says so; a closed tab's tools leave tools/list; the page says which
// browser it is in.
func TestPageIdentity(t *testing.T) {
	b, dir, hostEnded := hosttest.Start(t)
	fb := fakeBrowser{b, t}
	_, cs, _ := extensionServer(t, dir, true)
	client := fb.next("client")["client"]
	fb.next("hello")
	fb.listPages(client, tab(7, "/cart", "search"))
	hasNames(t, cs, "search")
	text, _ := mcpclient.CallText(t, cs, "webmcp_list_pages", map[string]any{})
	assert.Contains(t, text, `p1: "Shop" https://shop.example/cart in Chromium (tools: search)`)

	// A reload during a call: the call answers that the page navigated; the extension does not
	// list the tab while it loads; then the same name answers from the reloaded page.
	done := callAsync(t, cs, "search")
	call := fb.next("call")
	fb.listPages(client)
	fb.send(map[string]any{"client": client, "type": "result", "id": call["id"], "gone": "navigated"})
	assert.Contains(t, <-done, "page p1 navigated during the call")
	hasNames(t, cs)
	done = callAsync(t, cs, "search") // while the tab reloads: it waits for the page to be back
	time.Sleep(200 * time.Millisecond)
	fb.listPages(client, tab(7, "/cart", "search"))
	call = fb.next("call")
	assert.Equal(t, 7.0, call["tab"])
	fb.send(map[string]any{"client": client, "type": "result", "id": call["id"], "output": "reloaded"})
	assert.Contains(t, <-done, `"text":"reloaded"`)
	hasNames(t, cs, "search")

	// A same-origin navigation, and the origin switched off and on in the panel: the tab is
	// unlisted a while, and comes back as p1 with its names.
	fb.listPages(client)
	hasNames(t, cs)
	fb.listPages(client, tab(7, "/tea", "search", "buy"))
	hasNames(t, cs, "buy", "search")
	fb.listPages(client)
	hasNames(t, cs)
	fb.listPages(client, tab(7, "/tea", "buy"))
	hasNames(t, cs, "buy")
	text, isErr := mcpclient.CallText(t, cs, "search", nil)
	assert.True(t, isErr)
	assert.Equal(t, `page p1 (https://shop.example/tea) no longer offers the tool "search"; list the tools again`, text)

	// The browser restarts: its host goes, another comes, the tab has another id; the page at
	// the same URL in the same profile is p1 again, with its names.
	require.NoError(t, b.ToHost.Close())
	hasNames(t, cs)
	// Both hosts run in this process, so they listen on the same host-<pid>.sock: the first must
	// have ended (and removed its socket) before the second makes its own.
	select {
	case <-hostEnded:
	case <-time.After(10 * time.Second):
		t.Fatal("the first host did not end when its browser went")
	}
	b2 := startHost(t)
	fb2 := fakeBrowser{b2, t}
	client = fb2.next("client")["client"]
	fb2.next("hello")
	fb2.listPages(client, tab(31, "/tea", "buy"))
	hasNames(t, cs, "buy")
	text, _ = mcpclient.CallText(t, cs, "webmcp_list_pages", map[string]any{})
	assert.Contains(t, text, `p1: "Shop" https://shop.example/tea in Chromium (tools: buy)`)

	// A tab that closes leaves tools/list at once, and is listed as closed.
	fb2.listPages(client)
	hasNames(t, cs)
	text, _ = mcpclient.CallText(t, cs, "webmcp_list_pages", map[string]any{})
	assert.NotContains(t, text, "p1:")
}

// startHost runs another native-messaging host in this process, in the rendezvous directory
// hosttest.Start made (a browser started again).
func startHost(t *testing.T) hosttest.Browser {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { nativehost.Run(inR, outW, slog.New(slog.DiscardHandler)); outW.Close() }()
	t.Cleanup(func() { inW.Close() })
	return hosttest.Browser{ToHost: inW, FromHost: outR}
}

// TestTwoBrowsers: two browsers connected at once are told apart, in each page's provenance and
// in webmcp_list_pages: by name, numbered when both have the same; a tab id of one is not the
// other's.
func TestTwoBrowsers(t *testing.T) {
	s := New(nil, true, time.Minute, "test", slog.New(slog.DiscardHandler))
	one := &extBrowser{path: "host-1.sock", tabs: map[string]int{}}
	two := &extBrowser{path: "host-2.sock", tabs: map[string]int{}}
	three := &extBrowser{path: "host-3.sock", tabs: map[string]int{}}
	s.browsers[one.path], s.browsers[two.path], s.browsers[three.path] = one, two, three
	pages := func(profile, name string, tabs ...map[string]any) extMessage {
		raw, _ := json.Marshal(map[string]any{"type": "pages", "pages": tabs,
			"browser": map[string]any{"id": profile, "name": name}})
		var m extMessage
		require.NoError(t, json.Unmarshal(raw, &m))
		return m
	}
	s.take(one, pages("a", "Chromium", tab(7, "/")))
	s.take(two, pages("b", "Chromium", tab(7, "/")))
	s.take(three, pages("c", "Firefox <script>", tab(7, "/")))
	var got []string
	for _, p := range s.Pages(context.Background()) {
		got = append(got, p.ID+" "+p.Browser)
	}
	assert.Equal(t, []string{"p1 Chromium", "p2 Chromium 2", "p3 Firefox script"}, got)

	srv := mcpserver.New(mcpserver.Options{Timeout: time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv.Follow(ctx, s)
	srv.OpenAtStart(ctx, nil)
	cs := mcpclient.Connect(t, ctx, srv, nil)
	text, _ := mcpclient.CallText(t, cs, "webmcp_list_pages", map[string]any{})
	assert.Contains(t, text, `p2: "Shop" https://shop.example/ in Chromium 2`)
}
