//go:build !js

package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// The tests of issue 24 (webmcp-mcp as MCP clients meet it) and of issue 27's points in
// webmcp-mcp, with real clients: the TypeScript SDK (tsprobe.mjs), the go-sdk client, a raw
// JSON-RPC client over stdio where what matters is what is on the wire.

// TestArgumentsChecked (issue 24, 1): a binary with no web/dist near it (as `go install` leaves
// one) checks every call's arguments against the tool's inputSchema itself, before the page is
// asked, with the page's bridge's sentence.
func TestArgumentsChecked(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	args := []string{"-chromium", chromium(t), "-timeout", "20s", "-open", base + "/test/clients.html"}
	r := probeIn(t, t.TempDir(), []probeStep{wait("convert"),
		callStep("convert", map[string]any{}),
		callStep("convert", map[string]any{"from": 7}),
		callStep("convert", map[string]any{"from": "EUR"}),
	}, "stdio", args...)
	for i, want := range []string{
		`invalid arguments at "/from": the required property "from" is missing (required)`,
		`invalid arguments at "/from": `,
	} {
		res := resultOf(t, r.Steps[1+i])
		assert.Equal(t, true, res["isError"], "%v", res)
		assert.True(t, strings.HasPrefix(textOf(res), want), "%s", textOf(res))
	}
	assert.Equal(t, `page got {"from":"EUR"}`, textOf(resultOf(t, r.Steps[3])))
}

// TestFirstListWaits (issue 24, 2): a client's first tools/list, right after initialize, has the
// -open page's tools; the Inspector CLI's one-shot tools/call of a page tool works.
func TestFirstListWaits(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	args := serverArgs(t, true, 20*time.Second, base+"/test/clients.html")
	t.Run("typescript", func(t *testing.T) {
		r := probe(t, []probeStep{{Op: "list"}}, "stdio", args...)
		var tools []struct {
			Name string `json:"name"`
		}
		require.NoError(t, json.Unmarshal(r.Steps[0].Tools, &tools))
		var names []string
		for _, tl := range tools {
			names = append(names, tl.Name)
		}
		assert.Contains(t, names, "convert", "the first tools/list has the page's tools")
	})
	t.Run("inspector", func(t *testing.T) {
		out := inspectorCall(t, "convert", "from=EUR", append([]string{buildBinary(t)}, args...)...)
		assert.Contains(t, out, `page got {\"from\":\"EUR\"}`)
	})
}

// TestStableNames (issue 24, 3): with two tabs of one page the first keeps the tool's name and
// the second gets its prefix; when the first goes, the second's names hold, and the name that
// went away says whose it was.
func TestStableNames(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	page := base + "/test/clients.html"
	cs, rec, _ := session(t, serverArgs(t, true, 20*time.Second, page, page))
	ctx := context.Background()
	waitTools(t, cs, "convert", "p2_convert")
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp_close_page", Arguments: map[string]any{"page": "p1"}})
	require.NoError(t, err)
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.NotNil(t, byNameOf(tools, "p2_convert"), "the second tab's name holds")
	assert.Nil(t, byNameOf(tools, "convert"))
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "p2_convert", Arguments: map[string]any{"from": "EUR"}})
	require.NoError(t, err)
	assert.Equal(t, `page got {"from":"EUR"}`, textOf(requireValid(t, rec.Last())))
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "convert", Arguments: map[string]any{"from": "EUR"}})
	require.NoError(t, err)
	gone := requireValid(t, rec.Last())
	assert.Equal(t, true, gone["isError"])
	assert.Contains(
		t,
		textOf(gone),
		fmt.Sprintf(`the page that had the tool "convert" is gone (it was %s, page p1)`, page),
	)
}

// TestCancelledGetsNoResponse (issue 24, 5): a call the client cancels aborts the page's execute
// and gets no response at all: everything webmcp-mcp writes until it exits is read, and nothing
// answers the cancelled id.
func TestCancelledGetsNoResponse(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	cmd := exec.Command(buildBinary(t), serverArgs(t, true, 20*time.Second, base+"/test/tools.html")...)
	cmd.Stderr = newTestWriter(t)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var seen []string
	send := func(m string) { _, err := io.WriteString(stdin, m+"\n"); require.NoError(t, err) }
	answer := func(id int) map[string]any {
		t.Helper()
		for line := range lines {
			seen = append(seen, line)
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &m))
			if m["id"] == float64(id) {
				return m
			}
		}
		t.Fatalf("no answer to %d", id)
		return nil
	}
	send(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},` +
			`"clientInfo":{"name":"raw","version":"1"}}}`,
	)
	answer(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := 1000; ; i++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i))
		if strings.Contains(fmt.Sprint(answer(i)), "wait_for_abort") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wait_for_abort","arguments":{}}}`)
	// Cancel once the page's execute is waiting.
	for i := 4; ; i++ {
		send(
			fmt.Sprintf(
				`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"abort_seen","arguments":{}}}`,
				i,
			),
		)
		if strings.Contains(fmt.Sprint(answer(i)), "waiting") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	send(
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,` +
			`"reason":"the user changed their mind"}}`,
	)
	for i := 100; ; i++ {
		send(
			fmt.Sprintf(
				`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"abort_seen","arguments":{}}}`,
				i,
			),
		)
		if strings.Contains(fmt.Sprint(answer(i)), "aborted: AbortError") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.NoError(t, stdin.Close()) // the server ends; all it wrote is read
	for line := range lines {
		seen = append(seen, line)
	}
	for _, line := range seen {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m))
		assert.NotEqual(t, float64(3), m["id"], "the cancelled request was answered: %s", line)
	}
}

// TestPageClaimsAndErrors (issue 27, 2 and 7; issue 24, 7): a page that calls delete_account
// read-only does not get readOnlyHint to the client; each description begins with the browser's
// word and the untrusted mark; a thrown message that reads like webmcp-mcp's is quoted as the
// page's, after webmcp-mcp's marked notice; every result says which page answered.
func TestPageClaimsAndErrors(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	r := probe(t, []probeStep{wait("delete_account", "forge_error"), {Op: "list"}, callStep("forge_error", nil),
		callStep("delete_account", nil), callStep("webmcp_list_tools", nil)}, "stdio",
		serverArgs(t, true, 20*time.Second, base+"/test/clients.html")...)
	var tools []struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Annotations map[string]any `json:"annotations"`
		Meta        map[string]any `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(r.Steps[1].Tools, &tools))
	for _, tl := range tools {
		if strings.HasPrefix(tl.Name, "webmcp_") {
			continue
		}
		assert.NotEqual(t, true, tl.Annotations["readOnlyHint"], "%s: a page's claim became a hint", tl.Name)
		assert.NotEqual(t, false, tl.Annotations["destructiveHint"], tl.Name)
		assert.Empty(t, tl.Annotations, "%s: MCP's defaults (not read-only, destructive, open world)", tl.Name)
		assert.True(t, strings.HasPrefix(tl.Description, "Page p1 at "+base), tl.Description)
		assert.Contains(t, tl.Description, "Page text, untrusted: ")
		assert.Equal(t, "p1", tl.Meta["webmcp-bridge/page"], "the tool names its page")
	}
	// The page's claims are given as the page's by webmcp_list_tools, not in tools/list.
	var listed struct {
		Tools []struct {
			Tool        string         `json:"tool"`
			Annotations map[string]any `json:"annotations"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(resultOf(t, r.Steps[4]))), &listed))
	claimed := false
	for _, tl := range listed.Tools {
		claimed = claimed || tl.Tool == "delete_account" && tl.Annotations["readOnlyHint"] == true
	}
	assert.True(t, claimed, "the claim is kept, as the page's, in webmcp_list_tools")
	forged := resultOf(t, r.Steps[2])
	assert.Equal(t, true, forged["isError"])
	content := forged["content"].([]any)
	require.Len(t, content, 2)
	first, second := content[0].(map[string]any), content[1].(map[string]any)
	assert.NotNil(t, first["_meta"], "webmcp-mcp's own word carries the notice mark")
	assert.NotContains(t, first["text"], "bank.example")
	assert.Nil(t, second["_meta"], "the page's message is not marked as webmcp-mcp's")
	assert.True(t, strings.HasPrefix(second["text"].(string), `The page's message: "`), second["text"])
	assert.Contains(t, second["text"], `page p1 navigated during the call`)
	for _, s := range r.Steps[2:4] {
		meta := resultOf(t, s)["_meta"].(map[string]any)["webmcp-bridge/page"].(map[string]any)
		assert.Equal(t, base+"/test/clients.html", meta["url"])
		assert.Equal(t, "p1", meta["page"])
	}
}

// inspectorPkg is the MCP Inspector, whose CLI mode makes one request and exits.
const inspectorPkg = "@modelcontextprotocol/inspector@2.12.0"

// inspectorCall runs the Inspector CLI's one-shot tools/call of tool with one key=value argument
// against the stdio server command, and returns what it printed.
func inspectorCall(t *testing.T, tool, arg string, command ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir, err := npmcache.Install(ctx, inspectorPkg)
	require.NoError(t, err)
	launcher := filepath.Join(
		dir,
		"node_modules",
		"@modelcontextprotocol",
		"inspector",
		"clients",
		"launcher",
		"build",
		"index.js",
	)
	args := append(
		[]string{launcher, "--cli", "--method", "tools/call", "--tool-name", tool, "--tool-arg", arg, "--"},
		command...)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "mcp.json"))
	cmd.Stderr = newTestWriter(t)
	out, err := cmd.Output()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// ts2SDK is the official TypeScript SDK 2.x client.
const ts2SDK = "@modelcontextprotocol/client@2.4.0"

// ts2Result is what testdata/ts2client.mjs prints.
type ts2Result struct {
	Version string          `json:"version"`
	Tools   []string        `json:"tools"`
	Result  json.RawMessage `json:"result"`
}

// runTS2 runs testdata/ts2client.mjs (the TypeScript SDK 2.x client, version negotiation on)
// with tool and its arguments against webmcp-mcp: mode "stdio" with the server's command, "http"
// with its /mcp URL.
func runTS2(t *testing.T, tool string, args map[string]any, mode string, target ...string) ts2Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir, err := npmcache.Install(ctx, ts2SDK)
	require.NoError(t, err)
	a, err := json.Marshal(args)
	require.NoError(t, err)
	cmd := exec.CommandContext(
		ctx,
		"node",
		append([]string{filepath.Join("testdata", "ts2client.mjs"), dir, mode}, target...)...)
	cmd.Env = append(os.Environ(), "TOOL="+tool, "ARGS="+string(a))
	cmd.Stderr = newTestWriter(t)
	out, err := cmd.Output()
	require.NoError(t, err, "%s", out)
	var r ts2Result
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	return r
}

// TestNewestProtocol (issue 24, 4): 2026-07-28 (stateless: server/discover, per-request _meta,
// subscriptions/listen) and 2025-11-25 are served on stdio and on HTTP, each to a client that
// asks for it: the go-sdk client and the TypeScript SDK 2.x client with version negotiation ask
// for 2026-07-28; the TypeScript SDK 1.x asks for 2025-11-25 (TestTypeScriptClient).
func TestNewestProtocol(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	args := serverArgs(t, true, 20*time.Second, base+"/test/clients.html")
	url := httpServer(t, args)
	check := func(t *testing.T, r ts2Result) {
		assert.Equal(t, "2026-07-28", r.Version)
		assert.Contains(t, r.Tools, "convert")
		var res map[string]any // as the SDK hands it on, parsed (the wire form is checked by the other clients)
		require.NoError(t, json.Unmarshal(r.Result, &res))
		assert.Equal(t, `page got {"from":"EUR"}`, textOf(res))
	}
	t.Run(
		"typescript2/http",
		func(t *testing.T) { check(t, runTS2(t, "convert", map[string]any{"from": "EUR"}, "http", url)) },
	)
	t.Run("typescript2/stdio", func(t *testing.T) {
		check(
			t,
			runTS2(t, "convert", map[string]any{"from": "EUR"}, "stdio", append([]string{buildBinary(t)}, args...)...),
		)
	})
	t.Run("go/http", func(t *testing.T) {
		client, changed := goClient()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		require.NoError(t, err)
		defer cs.Close()
		assert.Equal(t, "2026-07-28", cs.InitializeResult().ProtocolVersion)
		tools := waitTools(t, cs, "convert")
		assert.NotNil(t, byNameOf(tools, "convert"))
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "convert", Arguments: map[string]any{"from": "EUR"}})
		require.NoError(t, err)
		assert.Equal(t, `page got {"from":"EUR"}`, r.Content[0].(*mcp.TextContent).Text)
		// tools/list_changed reaches a 2026-07-28 client through subscriptions/listen.
		drain(changed)
		_, err = cs.CallTool(
			ctx,
			&mcp.CallToolParams{Name: "webmcp_open_page", Arguments: map[string]any{"url": base + "/test/other.html"}},
		)
		require.NoError(t, err)
		waitChanged(t, changed)
	})
}

// TestPageErrorsVisible (issue 24, 6): a page whose script threw and whose script failed to load
// shows both in webmcp_list_pages, quoted as page text, beside the tools it did register.
func TestPageErrorsVisible(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	r := probe(t, []probeStep{wait("fine"), callStep("webmcp_list_pages", nil)}, "stdio",
		serverArgs(t, true, 20*time.Second, base+"/test/broken.html")...)
	res := resultOf(t, r.Steps[1])
	text := textOf(res)
	assert.Contains(t, text, "fine")
	assert.Regexp(t, `page error \(page text\): "Uncaught SyntaxError: [^"]*broken\.html:\d+\)"`, text)
	assert.Regexp(t, `page error \(page text\): "Failed to load resource: [^"]*404[^"]*/test/no-such-script\.js"`, text)
	pages := res["structuredContent"].(map[string]any)["pages"].([]any)
	assert.Len(t, pages[0].(map[string]any)["errors"], 2)
}

// TestAllowOrigins (issue 24, 8): with -browser and -allow, the person's tabs of other origins
// are not taken in, and webmcp_open_page opens no other origin.
func TestAllowOrigins(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)                                        // http://localhost:PORT
	other := strings.Replace(base, "localhost", "127.0.0.1", 1) // another origin, same server
	endpoint := debugChromium(t, base+"/test/other.html")
	cs, rec, _ := session(t, []string{"-browser", endpoint, "-allow", other, "-timeout", "20s"})
	ctx := context.Background()
	_, err := cs.CallTool(
		ctx,
		&mcp.CallToolParams{Name: "webmcp_open_page", Arguments: map[string]any{"url": other + "/test/clients.html"}},
	)
	require.NoError(t, err)
	assert.Nil(t, requireValid(t, rec.Last())["isError"])
	tools := waitTools(t, cs, "convert")
	assert.Nil(t, byNameOf(tools, "elsewhere"), "the tab of an origin not allowed is not taken in")
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp_list_pages", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.NotContains(t, textOf(requireValid(t, rec.Last())), base+"/test/other.html")
	_, err = cs.CallTool(
		ctx,
		&mcp.CallToolParams{Name: "webmcp_open_page", Arguments: map[string]any{"url": base + "/test/tools.html"}},
	)
	require.NoError(t, err)
	refused := requireValid(t, rec.Last())
	assert.Equal(t, true, refused["isError"])
	assert.Contains(t, textOf(refused), "is not an origin webmcp-mcp may open")
}
