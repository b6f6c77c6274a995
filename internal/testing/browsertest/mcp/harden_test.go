//go:build !js

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of issue 18: hostile pages against webmcp-mcp with the official TypeScript SDK as
// the client (testdata/tsprobe.mjs), the session alive after each attack.

// probeStep is one step of testdata/tsprobe.mjs, and what it found.
type probeStep struct {
	Op       string          `json:"op"`
	Name     string          `json:"name,omitempty"`
	Args     map[string]any  `json:"args,omitempty"`
	Tools    json.RawMessage `json:"tools,omitempty"`
	Meta     json.RawMessage `json:"meta,omitempty"`     // a list's _meta
	Progress any             `json:"progress,omitempty"` // asked: true; found: how many

	Found   bool            `json:"found"`
	Result  json.RawMessage `json:"result"`
	Bytes   int             `json:"bytes"`
	Changed int             `json:"changed"`
	Ms      int             `json:"ms"`
	Error   string          `json:"error"`
}

type probeOut struct {
	ServerInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
	Steps  []probeStep `json:"steps"`
	Closed bool        `json:"closed"`
	Alive  bool        `json:"alive"`
}

func wait(tools ...string) probeStep {
	b, _ := json.Marshal(tools)
	return probeStep{Op: "wait", Tools: b}
}

func callStep(name string, args map[string]any) probeStep {
	return probeStep{Op: "call", Name: name, Args: args}
}

// probe runs tsprobe.mjs over transport ("stdio": it spawns webmcp-mcp with args; "http": args[0]
// is the /mcp URL).
func probe(t *testing.T, steps []probeStep, transport string, args ...string) probeOut {
	t.Helper()
	return probeIn(t, "", steps, transport, args...)
}

// probeIn is probe with webmcp-mcp started in the directory dir ("": this one).
func probeIn(t *testing.T, dir string, steps []probeStep, transport string, args ...string) probeOut {
	t.Helper()
	in, err := json.Marshal(steps)
	require.NoError(t, err)
	args = append([]string{transport}, args...)
	if transport == "stdio" {
		args = append([]string{transport, buildBinary(t)}, args[1:]...)
	}
	out := runNodeScript(t, "tsprobe.mjs", []string{"STEPS=" + string(in), "PROBE_CWD=" + dir}, args...)
	var r probeOut
	require.NoError(t, json.Unmarshal(out, &r), "%.2000s", out)
	require.Len(t, r.Steps, len(steps))
	for i, s := range r.Steps {
		if steps[i].Op == "wait" {
			require.True(t, s.Found, "the server never listed %s", steps[i].Tools)
		}
	}
	return r
}

// resultOf decodes a step's result, checked against the MCP schemas.
func resultOf(t *testing.T, s probeStep) map[string]any {
	t.Helper()
	require.Empty(t, s.Error, "%s", s.Name)
	return requireValid(t, s.Result)
}

// allText is the text of every text block of a result.
func allText(r map[string]any) string {
	var b strings.Builder
	for _, c := range r["content"].([]any) {
		if s, ok := c.(map[string]any)["text"].(string); ok {
			b.WriteString(s)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestPageCannotEndSession (issue 18, 1): a tool description of 11 MB, an input schema of
// 11 MB, a result of 11 MB and a thrown message of 1 MB each reach the TypeScript client cut,
// with a notice, in messages under its 10 MiB limit, over stdio and streamable HTTP; the session
// lives on.
func TestPageCannotEndSession(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	args := serverArgs(t, true, 30*time.Second, base+"/test/huge.html")
	steps := []probeStep{
		wait("huge_description", "huge_schema", "huge_result", "huge_error", "small"),
		{Op: "list"},
		callStep("huge_result", nil),
		callStep("huge_error", nil),
		callStep("small", nil),
	}
	check := func(t *testing.T, r probeOut) {
		for _, s := range r.Steps[1:] {
			t.Logf("%s %s: %d bytes on the wire %s", s.Op, s.Name, s.Bytes, s.Error)
		}
		assert.False(t, r.Closed, "the connection closed under the client")
		assert.True(t, r.Alive)
		const clientLimit = 10 << 20
		list := r.Steps[1]
		require.Empty(t, list.Error)
		assert.Less(t, list.Bytes, clientLimit)
		var tools []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"inputSchema"`
		}
		require.NoError(t, json.Unmarshal(list.Tools, &tools))
		for _, tl := range tools {
			switch tl.Name {
			case "huge_description":
				assert.Less(t, len(tl.Description), 10000)
				assert.Contains(t, tl.Description, "the description was cut at 4000 of 11000000 characters")
			case "huge_schema":
				assert.Contains(t, tl.InputSchema["description"], "the page's input schema is")
				assert.Contains(t, tl.InputSchema["description"], "over the 64 KiB limit")
			}
		}
		res := r.Steps[2]
		assert.Less(t, res.Bytes, clientLimit)
		rr := resultOf(t, res)
		assert.Equal(t, true, rr["isError"])
		assert.Contains(t, allText(rr), "over webmcp-mcp's limit of 4 MiB")
		er := r.Steps[3]
		assert.Less(t, er.Bytes, 200_000, "the thrown message is cut")
		assert.Equal(t, true, resultOf(t, er)["isError"])
		assert.Contains(t, allText(resultOf(t, er)), "eeee")
		assert.Regexp(t, `cut|removed|truncated`, allText(resultOf(t, er)), "the cut is marked")
		assert.Equal(t, "still here", textOf(resultOf(t, r.Steps[4])))
	}
	t.Run("stdio", func(t *testing.T) { check(t, probe(t, steps, "stdio", args...)) })
	t.Run("http", func(t *testing.T) { check(t, probe(t, steps, "http", httpServer(t, args))) })
}

// TestProvenanceFromBrowser (issue 18, 2): a page at 127.0.0.1 whose every object serializes as
// a bank's page cannot make its tools read as the bank's: the page, its origin and its title
// come from the browser.
func TestProvenanceFromBrowser(t *testing.T) {
	skipWithoutBuild(t)
	base := strings.Replace(serveSite(t), "localhost", "127.0.0.1", 1)
	r := probe(t, []probeStep{wait("transfer"), {Op: "list"}, callStep("transfer", nil)}, "stdio",
		serverArgs(t, true, 20*time.Second, base+"/test/forge.html")...)
	var tools []struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Meta        map[string]any `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(r.Steps[1].Tools, &tools))
	var found bool
	for _, tl := range tools {
		if tl.Name != "transfer" {
			continue
		}
		found = true
		assert.True(t, strings.HasPrefix(tl.Description, "Page p1 at "+base+". "), tl.Description)
		assert.NotContains(t, tl.Description, "bank.example")
		assert.Equal(t, "p1", tl.Meta["webmcp-bridge/page"])
	}
	assert.True(t, found)
	// Where the page is, once for its tools: tools/list's own _meta.
	var meta struct {
		Pages map[string]map[string]any `json:"webmcp-bridge/pages"`
	}
	require.NoError(t, json.Unmarshal(r.Steps[1].Meta, &meta), "%s", r.Steps[1].Meta)
	page := meta.Pages["p1"]
	assert.Equal(t, base, page["origin"])
	assert.Equal(t, base+"/test/forge.html", page["url"])
	assert.Equal(t, "forger", page["title"])
	assert.Equal(t, "moved", textOf(resultOf(t, r.Steps[2])))
}

// TestNoPrivateNetworkFlags (issue 18, 3): the browser webmcp-mcp launches keeps its
// private-network protection: no flag switches it off.
func TestNoPrivateNetworkFlags(t *testing.T) {
	skipWithoutBuild(t)
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args")
	wrapper := filepath.Join(dir, "chromium")
	require.NoError(
		t,
		os.WriteFile(
			wrapper,
			[]byte(fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" >> %q\nexec %q \"$@\"\n", argsFile, chromium(t))),
			0o755,
		),
	)
	args := serverArgs(t, true, 20*time.Second)
	for i, a := range args {
		if a == "-chromium" {
			args[i+1] = wrapper
		}
	}
	r := probe(t, []probeStep{callStep("webmcp_list_pages", nil)}, "stdio", args...)
	assert.True(t, r.Alive)
	b, err := os.ReadFile(argsFile)
	require.NoError(t, err, "the wrapper ran")
	assert.Contains(t, string(b), "--headless")
	assert.NotRegexp(
		t,
		`(?i)LocalNetworkAccess|PrivateNetworkAccess|disable-web-security|allow-insecure-localhost`,
		string(b),
	)
}

// TestNoSquatting (issue 18, 4): a page cannot take a name shaped like another page's prefixed
// name or one of webmcp-mcp's own; each prefixed name calls the page it names.
func TestNoSquatting(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	r := probe(t, []probeStep{
		wait("search", "p2_search", "p1_p2_search", "p1_webmcp_list_pages"),
		{Op: "list"},
		callStep("p2_search", nil),
		callStep("search", nil),
		callStep("p1_p2_search", nil),
		callStep("webmcp_list_pages", nil),
	}, "stdio", serverArgs(t, true, 20*time.Second, base+"/test/squat1.html", base+"/test/squat2.html")...)
	var tools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	require.NoError(t, json.Unmarshal(r.Steps[1].Tools, &tools))
	for _, tl := range tools {
		switch {
		case strings.HasPrefix(tl.Name, "p1_") || tl.Name == "search": // the first page keeps the name it had first
			assert.Contains(t, tl.Description, "squatter's")
			assert.Contains(t, tl.Description, "Page p1 at ")
		case strings.HasPrefix(tl.Name, "p2_"):
			assert.Contains(t, tl.Description, "victim's")
			assert.Contains(t, tl.Description, "Page p2 at ")
		default:
			assert.True(t, strings.HasPrefix(tl.Name, "webmcp_"), "%s: an unprefixed page tool", tl.Name)
		}
	}
	assert.Equal(t, "victim ran search", textOf(resultOf(t, r.Steps[2])))
	assert.Equal(t, "squatter ran search", textOf(resultOf(t, r.Steps[3])))
	assert.Equal(t, "squatter ran p2_search", textOf(resultOf(t, r.Steps[4])))
	assert.Contains(t, textOf(resultOf(t, r.Steps[5])), "p1: ", "webmcp_list_pages is webmcp-mcp's")
}

// TestDialogs (issue 18, 5): a page that opens an alert while it loads does not hold up
// initialize or its tools; dialogs in a call are dismissed (confirm false, prompt null) and
// reported by webmcp_list_pages.
func TestDialogs(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	r := probe(t, []probeStep{
		wait("ask"),
		callStep("ask", nil),
		callStep("webmcp_list_pages", nil),
		callStep("webmcp_open_page", map[string]any{"url": base + "/test/other.html"}),
	}, "stdio", serverArgs(t, true, 20*time.Second, base+"/test/dialogs.html")...)
	assert.Equal(t, "confirm: false, prompt: null", textOf(resultOf(t, r.Steps[1])))
	pages := textOf(resultOf(t, r.Steps[2]))
	assert.Contains(t, pages, `alert "welcome" dismissed`)
	assert.Contains(t, pages, `confirm "really?" dismissed`)
	assert.Contains(t, pages, `prompt "your name?" dismissed`)
	assert.Contains(t, textOf(resultOf(t, r.Steps[3])), "Opened p2")
}

// TestUnreachableOpen (issue 18, 6): an -open URL nothing answers leaves the server up; the page
// is listed with its error, and opening the URL again once it answers loads it in the same tab.
func TestUnreachableOpen(t *testing.T) {
	skipWithoutBuild(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	target := "http://" + addr + "/"
	cs, rec, _ := session(t, serverArgs(t, true, 20*time.Second, target))
	ctx := context.Background()
	pages := func() string {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp_list_pages", Arguments: map[string]any{}})
		require.NoError(t, err, "the server is up")
		return textOf(requireValid(t, rec.Last()))
	}
	require.Eventually(
		t,
		func() bool { return strings.Contains(pages(), "did not load") },
		60*time.Second,
		200*time.Millisecond,
	)
	assert.Contains(t, pages(), "ERR_CONNECTION_REFUSED")
	assert.Contains(t, pages(), "p1: ")

	// Now something answers there: opening the URL again loads it, in the same page.
	ln, err = net.Listen("tcp", addr)
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(
			w,
			`<!doctype html><title>back</title><script>document.modelContext.registerTool({name: "back", `+
				`description: "up again", execute: () => "up"})</script>`,
		)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp_open_page", Arguments: map[string]any{"url": target}})
	require.NoError(t, err)
	opened := requireValid(t, rec.Last())
	assert.Nil(t, opened["isError"])
	assert.Contains(t, textOf(opened), "Opened p1")
	waitTools(t, cs, "back")
	assert.NotContains(t, pages(), "did not load")
}

// TestProgressAndStuckTabs (issue 18, 7): a call that waits sends progress notifications to a
// client that asked for them, then ends with an isError result at -timeout; a tab whose renderer
// dies is reported and closed, and its tools go away instead of being waited on.
func TestProgressAndStuckTabs(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	t.Run("progress", func(t *testing.T) {
		slow := callStep("never", nil)
		slow.Progress = true
		r := probe(
			t,
			[]probeStep{wait("never"), slow},
			"stdio",
			serverArgs(t, true, 4*time.Second, base+"/test/tools.html")...)
		s := r.Steps[1]
		res := resultOf(t, s)
		assert.Equal(t, true, res["isError"])
		assert.Contains(t, textOf(res), "did not answer within 4s")
		assert.GreaterOrEqual(t, s.Progress, float64(1), "progress notifications while the page did not answer")
	})
	t.Run("crash", func(t *testing.T) {
		endpoint := debugChromium(t, base+"/test/other.html")
		cs, rec, _ := session(t, []string{"-assets", assetsDir(t), "-browser", endpoint, "-timeout", "20s"})
		ctx := context.Background()
		waitTools(t, cs, "elsewhere")

		actx, cancel := remote.NewAllocator(ctx, endpoint)
		defer cancel()
		bctx, cancel := chromedp.NewContext(actx)
		defer cancel()
		targets, err := chromedp.Targets(bctx)
		require.NoError(t, err)
		var id target.ID
		for _, ti := range targets {
			if ti.Type == "page" && strings.HasSuffix(ti.URL, "/test/other.html") {
				id = ti.TargetID
			}
		}
		require.NotEmpty(t, id)
		tctx, cancel := chromedp.NewContext(bctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
		defer cancel()
		_, _ = chromedp.Call(tctx, page.Crash, cdp.Empty{}) // the renderer dies before it answers

		require.Eventually(t, func() bool {
			tools, err := cs.ListTools(ctx, nil)
			return err == nil && byNameOf(tools, "elsewhere") == nil
		}, 30*time.Second, 100*time.Millisecond, "the dead tab's tools go away")
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp_list_pages", Arguments: map[string]any{}})
		require.NoError(t, err)
		assert.Regexp(
			t,
			`p1 \(.*/test/other\.html\) was closed: its renderer crashed or ran out of memory`,
			textOf(requireValid(t, rec.Last())),
		)
	})
}

// TestListChangedCoalesced (issue 18, 9): a page that registers and unregisters a tool 200
// times gives the client about one tools/list_changed per second, not one per change.
func TestListChangedCoalesced(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	r := probe(
		t,
		[]probeStep{wait("churn"), callStep("churn", nil)},
		"stdio",
		serverArgs(t, true, 30*time.Second, base+"/test/churn.html")...)
	s := r.Steps[1]
	assert.Equal(t, "churned", textOf(resultOf(t, s)))
	t.Logf("tools/list_changed during 200 registrations and 200 unregistrations (%d ms): %d", s.Ms, s.Changed)
	// One update of the list per second at most (webmcp-mcp's pause between updates), whatever
	// the machine's speed; counted twice over, for an update split in two notifications by a
	// slow machine, and two more for the updates under way when the call started and ended.
	assert.LessOrEqual(t, s.Changed, s.Ms/500+2)
}

// TestInstalledBinary (issue 18, 10): a binary started in an empty directory, with no -assets
// and no web/dist anywhere near it (as `go install …/cmd/webmcp-mcp@VERSION` leaves one), serves
// a page's tools with the embedded loader and reports a real version.
func TestInstalledBinary(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	empty := t.TempDir()
	args := []string{
		"-chromium",
		chromium(t),
		"-timeout",
		"20s",
		"-open",
		base + "/test/tools.html",
		"-open",
		base + "/test/hostile.html",
	}
	r := probeIn(
		t,
		empty,
		[]probeStep{wait("sees_signal", "evil_html"), callStep("sees_signal", nil), callStep("evil_html", nil)},
		"stdio",
		args...)
	assert.Equal(t, "webmcp-mcp", r.ServerInfo.Name)
	assert.Regexp(t, `^v?[0-9]+\.[0-9]+\.[0-9]+`, r.ServerInfo.Version, "a version, not dev")
	t.Logf("serverInfo.version: %s", r.ServerInfo.Version)
	assert.Equal(t, "true", textOf(resultOf(t, r.Steps[1])))
	evil := resultOf(t, r.Steps[2])["content"].([]any)
	assert.NotContains(
		t,
		evil[0].(map[string]any)["resource"].(map[string]any)["text"],
		"onerror",
		"normalized natively",
	)
	entries, err := os.ReadDir(empty)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing written where it was started")
}
