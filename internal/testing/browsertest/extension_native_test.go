//go:build !js

package browsertest

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpbinary"
)

// nativeSetup is the person's own browser as the tests make it: headless Chromium with the
// built extension, webmcp-mcp registered as its native-messaging host in the profile
// (<user-data-dir>/NativeMessagingHosts, written by `webmcp-mcp -install-host -host-dir`), and a
// private rendezvous directory ($XDG_RUNTIME_DIR) for the host and the servers.
type nativeSetup struct {
	ctx     context.Context // the browser
	bin     string          // webmcp-mcp
	runtime string          // $XDG_RUNTIME_DIR
	base    string          // http://localhost:PORT
	other   string          // the same server, another origin (http://127.0.0.1:PORT)
	profile string          // the browser's user-data-dir
	close   func()          // closes the browser
}

// webmcpMCP is cmd/webmcp-mcp, built once per test process (internal/testing/mcpbinary).
func webmcpMCP(t testing.TB) string { return mcpbinary.Path(t) }

func startNative(t *testing.T) nativeSetup {
	t.Helper()
	s := installedSetup(t)
	s.other = strings.Replace(s.base, "//localhost:", "//127.0.0.1:", 1)
	s.ctx, s.close = s.launch(t)
	return s
}

// installedSetup is a setup without its browser yet: the pages served, a profile with
// webmcp-mcp registered as its host, and the rendezvous directory.
func installedSetup(t testing.TB) nativeSetup {
	t.Helper()
	s := nativeSetup{bin: webmcpMCP(t), base: serveWeb(t), profile: t.TempDir(), runtime: t.TempDir()}
	t.Setenv("XDG_RUNTIME_DIR", s.runtime) // Chromium passes it on to the host it starts
	out, err := exec.Command(s.bin, "-install-host", "-host-dir", filepath.Join(s.profile, "NativeMessagingHosts")).
		CombinedOutput()
	require.NoError(t, err, "%s", out)
	return s
}

// launch starts headless Chromium on the setup's profile with the built extension and native
// WebMCP on; the returned function closes it (as t's cleanup does).
func (s nativeSetup) launch(t testing.TB) (context.Context, context.CancelFunc) {
	return s.launchWith(t, true)
}

// launchWith is launch with native WebMCP on or off.
func (s nativeSetup) launchWith(t testing.TB, native bool) (context.Context, context.CancelFunc) {
	t.Helper()
	extDir, err := filepath.Abs(fromRoot("web", "dist", "extension"))
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(extDir, "manifest.json"), "run make build (it builds the extension)")
	return browserIn(
		t,
		s.profile,
		native,
		chromedp.Flag("disable-extensions-except", extDir),
		chromedp.Flag("load-extension", extDir),
	)
}

// tab opens url in a new tab and waits for its tools.
func (s nativeSetup) tab(t testing.TB, url string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(s.ctx)
	t.Cleanup(cancel)
	open(t, ctx, url)
	var ok bool
	eval(t, ctx, `await window.registered; return true`, &ok)
	return ctx
}

// hostPID is the process id of the native-messaging host Chromium started (its socket's name).
func (s nativeSetup) hostPID(t testing.TB) int {
	t.Helper()
	return s.hostPIDOtherThan(t, 0, "the browser started no host")
}

// hostPIDOtherThan waits until the one host listening is not process old (a host that is going
// away may still have its socket for a moment) and gives its process id.
func (s nativeSetup) hostPIDOtherThan(t testing.TB, old int, msg string) int {
	t.Helper()
	var pid int
	require.Eventually(t, func() bool {
		paths, _ := filepath.Glob(filepath.Join(s.runtime, "webmcp-bridge", "host-*.sock"))
		if len(paths) != 1 {
			return false
		}
		pid, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(paths[0]), "host-"), ".sock"))
		return pid > 0 && pid != old
	}, 30*time.Second, 50*time.Millisecond, msg)
	return pid
}

// client starts `webmcp-mcp -extension args…` for a go-sdk client over stdio.
func (s nativeSetup) client(t testing.TB, args ...string) (*mcp.ClientSession, *exec.Cmd, chan string) {
	t.Helper()
	cmd := exec.Command(s.bin, append([]string{"-extension"}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+s.runtime)
	cmd.Stderr = newTestLog(t)
	progress := make(chan string, 16)
	c := mcp.NewClient(&mcp.Implementation{Name: "ext-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- r.Params.Message:
			default:
			}
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, cmd, progress
}

// newTestLog passes a process's lines to t.Log.
func newTestLog(t testing.TB) *os.File {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			t.Log(sc.Text())
		}
	}()
	t.Cleanup(func() { w.Close() })
	return w
}

// A pageTool is a page tool as a client lists it: the tool, its page's id (its
// _meta["webmcp-bridge/page"]) and where that page is (url, origin, title, browser: tools/list's
// own _meta["webmcp-bridge/pages"], said once per page).
type pageTool struct {
	*mcp.Tool
	page  string
	where map[string]any
}

// pageToolsOf are the page tools of a tools/list result, management tools aside.
func pageToolsOf(list *mcp.ListToolsResult) []pageTool {
	pages, _ := list.Meta["webmcp-bridge/pages"].(map[string]any)
	var out []pageTool
	for _, tl := range list.Tools {
		if id, _ := tl.Meta["webmcp-bridge/page"].(string); id != "" {
			where, _ := pages[id].(map[string]any)
			out = append(out, pageTool{tl, id, where})
		}
	}
	return out
}

// pageTools waits until the client lists n page tools (management tools aside) and returns them.
func pageTools(t testing.TB, cs *mcp.ClientSession, n int) []pageTool {
	t.Helper()
	var got []pageTool
	ok := assert.Eventually(t, func() bool {
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			return false
		}
		got = pageToolsOf(list)
		return len(got) == n
	}, 30*time.Second, 100*time.Millisecond)
	require.True(t, ok, "%d page tools listed, want %d", len(got), n)
	return got
}

// nameFor is the MCP name of the tool named name on the page at origin.
func nameFor(t *testing.T, tools []pageTool, origin, name string) string {
	t.Helper()
	for _, tl := range tools {
		if tl.where["origin"] == origin && (tl.Name == name || strings.HasSuffix(tl.Name, "_"+name)) {
			return tl.Name
		}
	}
	t.Fatalf("no tool %q of %s listed", name, origin)
	return ""
}

// newPageTool waits for the tool named name of a page at origin whose id is not in old (a page
// listed anew after its browser or host came back) and returns its MCP name.
func newPageTool(t *testing.T, cs *mcp.ClientSession, origin, name string, old ...string) string {
	t.Helper()
	var found string
	require.Eventually(t, func() bool {
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			return false
		}
		for _, tl := range pageToolsOf(list) {
			if tl.where["origin"] == origin && !slices.Contains(old, tl.page) &&
				(tl.Name == name || strings.HasSuffix(tl.Name, "_"+name)) {
				found = tl.Name
			}
		}
		return found != ""
	}, 30*time.Second, 100*time.Millisecond, "no %s of a new page of %s", name, origin)
	return found
}

// pageIDs are the page ids of tools.
func pageIDs(tools []pageTool) []string {
	var ids []string
	for _, tl := range tools {
		ids = append(ids, tl.page)
	}
	return ids
}

// callMCP calls a tool and returns its result as JSON and as its texts.
func callMCP(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args any) (string, string, bool) {
	t.Helper()
	p := &mcp.CallToolParams{Name: name, Arguments: args}
	p.SetProgressToken("tok-" + name)
	r, err := cs.CallTool(ctx, p)
	require.NoError(t, err, name)
	raw, _ := json.Marshal(r)
	var texts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return string(raw), strings.Join(texts, "\n"), r.IsError
}

// seen reads what the page's tools recorded.
func seen(t *testing.T, ctx context.Context) map[string]float64 {
	t.Helper()
	var m map[string]float64
	eval(t, ctx, `return window.seen`, &m)
	return m
}

// TestExtensionNativeMessaging (issue 25): an MCP client reaches the tools of the person's own
// browser through the extension and native messaging. Only an allowed origin's tools are listed
// (-allow, or the panel's switch); calls return normalized results; a consequential tool runs
// only once the person confirmed it in the panel; a cancelled call aborts the page's execute; a
// navigation mid-call answers that the page went; two clients at once; the host killed mid-call
// answers and the extension starts a new one.
func TestExtensionNativeMessaging(t *testing.T) {
	skipWithoutBuild(t)
	s := startNative(t)
	pageA := s.tab(t, s.base+"/test/agent-tools.html")
	pageB := s.tab(t, s.other+"/test/agent-tools.html")
	s.hostPID(t)

	cs, _, progress := s.client(t, "-allow", s.base)
	tools := pageTools(t, cs, 6)
	for _, tl := range tools {
		assert.Equal(
			t,
			s.base+"/test/agent-tools.html",
			tl.where["url"],
			"%s: provenance from the browser, only the allowed origin",
			tl.Name,
		)
	}
	ctx := context.Background()
	_, text, isErr := callMCP(t, ctx, cs, "echo", map[string]any{"text": "hi"})
	assert.False(t, isErr)
	assert.Equal(t, "you said hi", text)
	raw, _, _ := callMCP(t, ctx, cs, "rich", map[string]any{})
	assert.Contains(t, raw, `"mimeType":"text/html"`)
	assert.NotContains(t, raw, "alert(1)", "sanitized")
	assert.Contains(t, raw, "html sanitized: removed", "with the notice")
	raw, _, _ = callMCP(t, ctx, cs, "chart", map[string]any{})
	assert.Contains(t, raw, `"type":"image"`)
	assert.Contains(t, raw, `"mimeType":"image/png"`)
	_, text, _ = callMCP(t, ctx, cs, "table", map[string]any{})
	assert.Contains(t, text, "| a | b |")
	_, text, isErr = callMCP(t, ctx, cs, "echo", map[string]any{})
	assert.True(t, isErr, "a required argument missing is refused before the page is asked")
	assert.Contains(t, text, "text")

	// The second origin is absent until the person allows it in the panel.
	panel := openPanel(t, s.ctx, s.other+"/test/agent-tools.html")
	var clicked bool
	runJSInline(t, panel, "panel.js", "allowOrigin", &clicked, s.other)
	require.True(t, clicked)
	both := pageTools(t, cs, 12)
	buy, slowA, slowB := nameFor(
		t,
		both,
		s.base,
		"buy",
	), nameFor(
		t,
		both,
		s.base,
		"slow",
	), nameFor(
		t,
		both,
		s.other,
		"slow",
	)
	echoA := nameFor(t, both, s.base, "echo")

	// A consequential tool waits for the person: yes runs it, no does not.
	type answer struct {
		raw, text string
		isErr     bool
	}
	confirm := func(yes bool) answer {
		done := make(chan answer, 1)
		go func() {
			raw, text, isErr := callMCP(t, ctx, cs, buy, map[string]any{})
			done <- answer{raw, text, isErr}
		}()
		assert.Equal(t, "waiting for you to confirm in the browser", <-progress)
		var q map[string]string
		runJSInline(t, panel, "panel.js", "answerConfirm", &q, yes)
		assert.Equal(t, "buy", q["tool"], "the panel names the tool")
		assert.Contains(t, q["where"], s.base, "and the page, from the browser")
		return <-done
	}
	drainProgress(progress)
	before := seen(t, pageA)["bought"]
	declined := confirm(false)
	assert.True(t, declined.isErr)
	assert.Contains(t, declined.text, "you declined")
	assert.Equal(t, before, seen(t, pageA)["bought"], "not run when declined")
	drainProgress(progress)
	ran := confirm(true)
	assert.False(t, ran.isErr, ran.raw)
	assert.Equal(t, "bought", ran.text)
	assert.Equal(t, before+1, seen(t, pageA)["bought"])

	// Cancelling the request aborts the page's execute.
	cctx, cancel := context.WithCancel(ctx)
	go func() { _, _ = cs.CallTool(cctx, &mcp.CallToolParams{Name: slowA, Arguments: map[string]any{}}) }()
	require.Eventually(t, func() bool { return seen(t, pageA)["started"] == 1 }, 10*time.Second, 50*time.Millisecond)
	cancel()
	require.Eventually(
		t,
		func() bool { return seen(t, pageA)["aborted"] == 1 },
		10*time.Second,
		50*time.Millisecond,
		"the page saw the abort",
	)

	// A navigation mid-call: the call answers that the page went; the tools come back with the page.
	done := make(chan answer, 1)
	go func() {
		raw, text, isErr := callMCP(t, ctx, cs, slowB, map[string]any{})
		done <- answer{raw, text, isErr}
	}()
	require.Eventually(t, func() bool { return seen(t, pageB)["started"] == 1 }, 10*time.Second, 50*time.Millisecond)
	open(t, pageB, s.other+"/test/agent-tools.html?again")
	nav := <-done
	assert.True(t, nav.isErr)
	assert.Contains(t, nav.text, "navigated during the call")

	// Two clients at once, one browser.
	cs2, _, _ := s.client(t)
	two := pageTools(t, cs2, 6) // only the origin the panel allowed: this client has no -allow
	_, text, _ = callMCP(t, ctx, cs2, nameFor(t, two, s.other, "echo"), map[string]any{"text": "two"})
	assert.Equal(t, "you said two", text)
	_, text, _ = callMCP(t, ctx, cs, echoA, map[string]any{"text": "one"})
	assert.Equal(t, "you said one", text)

	// -confirm-timeout: no answer in time is a no; -confirm=never asks no one.
	bought := seen(t, pageA)["bought"]
	cs3, _, _ := s.client(t, "-allow", s.base, "-confirm-timeout", "1s")
	_, text, isErr = callMCP(t, ctx, cs3, nameFor(t, pageTools(t, cs3, 12), s.base, "buy"), map[string]any{})
	assert.True(t, isErr)
	assert.Contains(t, text, "was not confirmed in the browser within 1 s; it did not run")
	cs4, _, _ := s.client(t, "-allow", s.base, "-confirm=never")
	_, text, isErr = callMCP(t, ctx, cs4, nameFor(t, pageTools(t, cs4, 12), s.base, "buy"), map[string]any{})
	assert.False(t, isErr)
	assert.Equal(t, "bought", text)
	assert.Equal(t, bought+1, seen(t, pageA)["bought"], "run once: with -confirm=never, not after the timeout")

	// The host killed mid-call: the call answers; the extension starts a new host.
	pid := s.hostPID(t)
	go func() {
		raw, text, isErr := callMCP(t, ctx, cs, slowA, map[string]any{})
		done <- answer{raw, text, isErr}
	}()
	require.Eventually(t, func() bool { return seen(t, pageA)["started"] == 2 }, 10*time.Second, 50*time.Millisecond)
	proc, err := os.FindProcess(pid)
	require.NoError(t, err)
	require.NoError(t, proc.Kill())
	killed := <-done
	assert.True(t, killed.isErr)
	assert.Contains(t, killed.text, "the browser disconnected")
	s.hostPIDOtherThan(t, pid, "a new host")
	// The tab keeps its page and names through the host's restart (issue 36, 1): the name held
	// from before answers once the extension lists the tab again.
	require.Eventually(t, func() bool {
		_, text, _ = callMCP(t, ctx, cs, echoA, map[string]any{"text": "back"})
		return text == "you said back"
	}, 30*time.Second, 200*time.Millisecond, "the held name %s answers again: %s", echoA, text)
}

func drainProgress(ch chan string) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// TestExtensionNativeBrowserRestart (issue 25): the browser closes under a running server — its
// pages go and webmcp_list_pages says no browser is connected — and comes back: the server
// finds the new host and the tab's tools return, without restarting the client.
func TestExtensionNativeBrowserRestart(t *testing.T) {
	skipWithoutBuild(t)
	s := startNative(t)
	s.tab(t, s.base+"/test/agent-tools.html")
	first := s.hostPID(t)
	cs, _, _ := s.client(t, "-allow", s.base)
	pageTools(t, cs, 6)

	s.close()
	pageTools(t, cs, 0)
	ctx := context.Background()
	_, text, _ := callMCP(t, ctx, cs, "webmcp_list_pages", map[string]any{})
	assert.Contains(
		t,
		text,
		"no browser connected: is the extension installed and the host registered? (webmcp-mcp -install-host)",
	)
	assert.Contains(t, text, "the browser disconnected", "the page that went says why")

	s.ctx, s.close = s.launch(t)
	s.tab(t, s.base+"/test/agent-tools.html")
	s.hostPIDOtherThan(t, first, "a new host")
	tools := pageTools(t, cs, 6)
	_, text, isErr := callMCP(t, ctx, cs, nameFor(t, tools, s.base, "echo"), map[string]any{"text": "again"})
	assert.False(t, isErr)
	assert.Equal(t, "you said again", text)
}

// TestExtensionNativeWorkerRestart (issue 25): the extension's service worker is stopped (as an
// MV3 browser may) during a call: the call is answered with an error, not left hanging; the
// worker comes back with the next tab event and the server finds it again.
func TestExtensionNativeWorkerRestart(t *testing.T) {
	skipWithoutBuild(t)
	s := startNative(t)
	page := s.tab(t, s.base+"/test/agent-tools.html")
	first := s.hostPID(t)
	cs, _, _ := s.client(t, "-allow", s.base)
	tools := pageTools(t, cs, 6)
	before := pageIDs(tools)[0]
	ctx := context.Background()
	type answer struct {
		text  string
		isErr bool
	}
	done := make(chan answer, 1)
	go func() {
		_, text, isErr := callMCP(t, ctx, cs, nameFor(t, tools, s.base, "slow"), map[string]any{})
		done <- answer{text, isErr}
	}()
	require.Eventually(t, func() bool { return seen(t, page)["started"] == 1 }, 10*time.Second, 50*time.Millisecond)
	_, err := chromedp.Call(page, serviceworker.Enable, cdp.Empty{})
	require.NoError(t, err)
	_, err = chromedp.Call(page, serviceworker.StopAllWorkers, cdp.Empty{})
	require.NoError(t, err)
	select {
	case a := <-done:
		assert.True(t, a.isErr)
		assert.Contains(t, a.text, "the browser disconnected")
	case <-time.After(30 * time.Second):
		t.Fatal("the call in flight was left hanging when the worker stopped")
	}

	open(t, page, s.base+"/test/agent-tools.html?again") // a tab event wakes the worker
	var ok bool
	eval(t, page, `await window.registered; return true`, &ok)
	s.hostPIDOtherThan(t, first, "the worker started no new host")
	echo := newPageTool(t, cs, s.base, "echo", before)
	_, text, isErr := callMCP(t, ctx, cs, echo, map[string]any{"text": "back"})
	assert.False(t, isErr)
	assert.Equal(t, "you said back", text)
}
