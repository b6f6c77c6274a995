//go:build !js

package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoCalls are the demo page's tools with their arguments.
var demoCalls = map[string]map[string]any{
	"greet": {"name": "Ada"}, "sales_chart": {}, "article": {}, "docs_link": {}, "price_table": {},
	"find_order": {"id": 42}, "weather": {}, "crash": {}, "panorama": {},
}

// checkDemoResults asserts what a client gets from each demo tool (results decoded from the
// wire).
func checkDemoResults(t *testing.T, results map[string]map[string]any) {
	t.Helper()
	block := func(name string, i int) map[string]any {
		content, _ := results[name]["content"].([]any)
		require.Greater(t, len(content), i, "%s: %v", name, results[name])
		return content[i].(map[string]any)
	}
	types := func(name string) []string {
		var out []string
		for _, c := range results[name]["content"].([]any) {
			out = append(out, c.(map[string]any)["type"].(string))
		}
		return out
	}
	assert.Contains(t, block("greet", 0)["text"], "Hello, Ada!")

	assert.Equal(t, []string{"text", "image"}, types("sales_chart"))
	img := block("sales_chart", 1)
	assert.Equal(t, "image/png", img["mimeType"])
	png, err := base64.StdEncoding.DecodeString(img["data"].(string))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(png), "\x89PNG\r\n\x1a\n"), "real PNG bytes")
	assert.Equal(t, "Bar chart: Jan 42, Feb 55, Mar 71, Apr 64", img["_meta"].(map[string]any)["alt"])

	res := block("article", 0)
	assert.Equal(t, "resource", res["type"])
	html := res["resource"].(map[string]any)
	assert.Equal(t, "text/html", html["mimeType"])
	for _, bad := range []string{"<script", "onerror", "javascript:", "<form", "evil.example"} {
		assert.NotContains(t, html["text"], bad)
	}
	assert.Contains(t, html["text"], "<b>rich results</b>")
	assert.Equal(t, "text", block("article", 1)["type"])
	assert.Contains(t, block("article", 1)["text"], "Bridge ships")

	assert.Equal(t, "resource_link", block("docs_link", 0)["type"])
	assert.Equal(t, "https://github.com/webmachinelearning/webmcp", block("docs_link", 0)["uri"])
	assert.Contains(t, block("price_table", 0)["text"], "| Item |")
	assert.Equal(t, "text/csv", block("price_table", 1)["resource"].(map[string]any)["mimeType"])

	assert.Equal(t, true, results["find_order"]["isError"])
	assert.NotNil(t, block("find_order", 0)["_meta"], "webmcp-mcp's notice that the page's error follows is marked")
	assert.Equal(
		t,
		`The page's message: "Error [ORDER_NOT_FOUND]: Order 42 does not exist"`,
		block("find_order", 1)["text"],
	)
	assert.Equal(t, true, results["crash"]["isError"])
	assert.Contains(t, block("crash", 1)["text"], "TypeError")
	assert.Contains(t, block("crash", 1)["text"], "total", "the thrown error's message reaches the client")
	assert.Equal(
		t,
		map[string]any{
			"city":       "Oslo",
			"celsius":    float64(-3),
			"conditions": "light snow",
			"wind":       map[string]any{"kmh": float64(14), "from": "N"},
		},
		results["weather"]["structuredContent"],
	)
	assert.Contains(t, block("panorama", 0)["text"], "[image removed: 9000 px wide exceeds the 8000 px limit]")
	// The page's bridge hands results on raw and the server normalizes them once: its notices
	// carry the mark at the top of _meta, where a client looks for it.
	mark, _ := block("panorama", 0)["_meta"].(map[string]any)
	assert.Contains(t, mark, "webmcp-bridge/notice", "the notice is marked: %v", block("panorama", 0))
}

// TestGoClient: the go-sdk client over stdio, in both browser modes (native WebMCP wrapped, and
// the bridge's own API), against the demo page, the test tools and a hostile page.
func TestGoClient(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	for _, mode := range []struct {
		name   string
		native bool
	}{{"native", true}, {"fallback", false}} {
		t.Run(mode.name, func(t *testing.T) {
			cs, rec, changed := session(
				t,
				serverArgs(
					t,
					mode.native,
					4*time.Second,
					base+"/demo/",
					base+"/test/tools.html",
					base+"/test/hostile.html",
				),
			)
			ctx := context.Background()
			tools := waitTools(t, cs, "greet", "register_more", "evil_html")
			var err error
			byName := map[string]*mcp.Tool{}
			for _, tl := range tools.Tools {
				byName[tl.Name] = tl
			}
			for _, want := range []string{
				"greet", "sales_chart", "article", "crash", "register_more", "evil_html", "webmcp_open_page", "webmcp_list_pages",
				"webmcp_close_page",
			} {
				require.Contains(t, byName, want)
			}
			greet := byName["greet"]
			assert.Equal(t, "Greet", greet.Title)
			assert.Contains(t, greet.Description, "Greets someone by name")
			assert.Contains(t, greet.Description, "Page p1 at ")
			schema, _ := json.Marshal(greet.InputSchema)
			assert.JSONEq(
				t,
				`{"type":"object","properties":{"name":{"type":"string","description":"who to greet","default":"Ada"}},`+
					`"required":["name"]}`,
				string(schema),
			)
			dangerous := byName["dangerous"]
			assert.Contains(t, dangerous.Description, "confirm with the user first")
			assert.Contains(t, dangerous.Description, "[untrusted output]")
			assert.Equal(t, true, claimsOf(t, cs, "dangerous")["consequentialHint"], "the claim, as the page's")
			assert.Nil(t, dangerous.Annotations, "no hint from a page: MCP's defaults (destructive, open world)")

			raws := map[string]json.RawMessage{}
			call := func(name string, args map[string]any) map[string]any {
				t.Helper()
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
				require.NoError(t, err, name)
				raw := rec.Last()
				raws[mode.name+"/"+name] = raw
				return requireValid(t, raw)
			}
			results := map[string]map[string]any{}
			for name, args := range demoCalls {
				results[name] = call(name, args)
			}
			checkDemoResults(t, results)

			// Arguments that break the schema: the bridge in the page refuses them, naming why.
			r := call("dangerous", map[string]any{"to": "NYC"})
			assert.Equal(t, true, r["isError"], "%v", r)
			assert.Equal(
				t,
				"booked LIS",
				call("dangerous", map[string]any{"to": "LIS"})["content"].([]any)[0].(map[string]any)["text"],
			)

			// The hostile page's own executeTool hands back raw content: it is normalized again.
			h := call("evil_html", nil)["content"].([]any)
			markup := h[0].(map[string]any)["resource"].(map[string]any)["text"]
			for _, bad := range []string{"onerror", "<script", "javascript:"} {
				assert.NotContains(t, markup, bad)
			}
			assert.Contains(
				t,
				h[1].(map[string]any)["text"],
				"[resource sanitized: removed",
				"the client is told what went",
			)
			l := call("evil_link", nil)
			for _, c := range l["content"].([]any) {
				assert.NotEqual(
					t,
					"resource_link",
					c.(map[string]any)["type"],
					"javascript: and ms-msdt: links are removed",
				)
			}
			img := call("evil_image", nil)
			assert.NotEqual(
				t,
				"image",
				img["content"].([]any)[0].(map[string]any)["type"],
				"SVG bytes labelled PNG are no image",
			)
			et := call("evil_text", nil)["content"].([]any)[0].(map[string]any)
			assert.Nil(t, et["_meta"], "page text imitating a notice carries no notice mark")

			// tools/list_changed when the page registers a tool.
			drain(changed)
			call("register_more", nil)
			waitChanged(t, changed)
			tools, err = cs.ListTools(ctx, nil)
			require.NoError(t, err)
			require.True(t, slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "later" }))
			assert.Nil(t, byNameOf(tools, "later").Annotations, "a page's readOnlyHint is its claim, not a hint")
			assert.Equal(t, true, claimsOf(t, cs, "later")["readOnlyHint"], "the claim is kept, as the page's")

			// Cancellation reaches the page: execute's AbortSignal fires.
			assert.Equal(t, "true", textOf(call("sees_signal", nil)))
			cctx, cancel := context.WithCancel(ctx)
			go func() { time.Sleep(700 * time.Millisecond); cancel() }()
			_, err = cs.CallTool(cctx, &mcp.CallToolParams{Name: "wait_for_abort", Arguments: map[string]any{}})
			require.Error(t, err)
			require.Eventually(t, func() bool {
				s := textOf(call("abort_seen", nil))
				t.Logf("abort_seen: %s", s)
				return strings.HasPrefix(s, "aborted") || s == "toolcancel"
			}, 5*time.Second, 100*time.Millisecond, "the page's tool saw the cancellation")

			// Several calls in flight stay independent; one that never answers times out.
			done := make(chan map[string]any, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "never", Arguments: map[string]any{}})
				if err == nil {
					done <- requireValidNoT(rec.Last())
				}
				close(done)
			}()
			assert.Contains(
				t,
				textOf(call("greet", map[string]any{"name": "Bo"})),
				"Hello, Bo!",
				"a call while another waits",
			)
			never := <-done
			require.NotNil(t, never)
			assert.Equal(t, true, never["isError"])
			assert.Contains(t, textOf(never), "did not answer within 4s")

			// A page that navigates during the call: isError that says so; the new page's
			// tools replace the old ones.
			drain(changed)
			nav := call("navigate_away", nil)
			assert.Equal(t, true, nav["isError"])
			assert.Contains(t, textOf(nav), "navigated during the call")
			waitChanged(t, changed)
			require.Eventually(t, func() bool {
				tools, err := cs.ListTools(ctx, nil)
				return err == nil && byNameOf(tools, "elsewhere") != nil && byNameOf(tools, "register_more") == nil
			}, 10*time.Second, 100*time.Millisecond)

			// Management tools.
			drain(changed)
			opened := call("webmcp_open_page", map[string]any{"url": base + "/test/other.html"})
			assert.Contains(t, textOf(opened), "Opened p4")
			waitChanged(t, changed)
			tools, err = cs.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.NotNil(t, byNameOf(tools, "elsewhere"), "the page that had the name first keeps it")
			assert.NotNil(t, byNameOf(tools, "p4_elsewhere"), "the same name on a later page: its page's prefix")
			list := call("webmcp_list_pages", nil)
			assert.Len(t, list["structuredContent"].(map[string]any)["pages"], 4)
			drain(changed)
			call("webmcp_close_page", map[string]any{"page": "p4"})
			waitChanged(t, changed)
			tools, err = cs.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.NotNil(t, byNameOf(tools, "elsewhere"), "its name held")
			assert.Nil(t, byNameOf(tools, "p4_elsewhere"))
			assert.True(t, call("webmcp_open_page", map[string]any{"url": "javascript:alert(1)"})["isError"].(bool))

			tsSchemaCheck(t, raws)
		})
	}
}

// waitTools waits until the server lists every tool named (pages open while the server already
// answers) and returns the list.
func waitTools(t *testing.T, cs *mcp.ClientSession, names ...string) *mcp.ListToolsResult {
	t.Helper()
	var tools *mcp.ListToolsResult
	require.Eventually(t, func() bool {
		var err error
		if tools, err = cs.ListTools(context.Background(), nil); err != nil {
			return false
		}
		for _, n := range names {
			if byNameOf(tools, n) == nil {
				return false
			}
		}
		return true
	}, 60*time.Second, 100*time.Millisecond, "the server lists %v", names)
	return tools
}

func requireValidNoT(raw json.RawMessage) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

// claimsOf is what the page claims of the tool listed as mcpName (its annotations), as
// webmcp_list_tools gives them: tools/list does not carry them.
func claimsOf(t *testing.T, cs *mcp.ClientSession, mcpName string) map[string]any {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "webmcp_list_tools"})
	require.NoError(t, err)
	var listed struct {
		Tools []struct {
			MCPName     string         `json:"mcpName"`
			Annotations map[string]any `json:"annotations"`
		} `json:"tools"`
	}
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &listed))
	for _, tl := range listed.Tools {
		if tl.MCPName == mcpName {
			return tl.Annotations
		}
	}
	require.Failf(t, "not listed", "webmcp_list_tools has no %s", mcpName)
	return nil
}

func byNameOf(r *mcp.ListToolsResult, name string) *mcp.Tool {
	for _, tl := range r.Tools {
		if tl.Name == name {
			return tl
		}
	}
	return nil
}

func textOf(r map[string]any) string {
	c, _ := r["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}

func drain(ch chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func waitChanged(t *testing.T, ch chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("no tools/list_changed")
	}
}

// tsClientResult is what testdata/tsclient.mjs prints.
type tsClientResult struct {
	Tools        []string                   `json:"tools"`
	Results      map[string]json.RawMessage `json:"results"`
	SchemaErrors []map[string]string        `json:"schemaErrors"`
	ListChanged  bool                       `json:"listChanged"`
	ToolsAfter   []string                   `json:"toolsAfter"`
}

func runTSClient(t *testing.T, args ...string) tsClientResult {
	t.Helper()
	calls, err := json.Marshal(demoCalls)
	require.NoError(t, err)
	out := runNodeScript(t, "tsclient.mjs", []string{"CALLS=" + string(calls)}, args...)
	var r tsClientResult
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	return r
}

// runNodeScript runs testdata/script with the TypeScript SDK's directory and args, env added
// to the environment, and returns what it prints; it is killed after a few minutes.
func runNodeScript(t *testing.T, script string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", append([]string{filepath.Join("testdata", script), tsDir(t)}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = newTestWriter(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	go func() {
		<-ctx.Done()
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
	}()
	out, err := cmd.Output()
	require.NoError(t, err)
	return out
}

func checkTSClient(t *testing.T, r tsClientResult) {
	t.Helper()
	assert.Empty(t, r.SchemaErrors, "the TypeScript SDK refuses results")
	require.Len(t, r.Results, len(demoCalls))
	decoded := map[string]map[string]any{}
	for name, raw := range r.Results {
		decoded[name] = requireValid(t, raw)
	}
	checkDemoResults(t, decoded)
	assert.True(t, r.ListChanged, "tools/list_changed reached the TypeScript client")
	assert.Contains(t, r.ToolsAfter, "later")
}

// TestTypeScriptClient: the official TypeScript SDK as the client, over stdio (it spawns
// webmcp-mcp) and over streamable HTTP.
func TestTypeScriptClient(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	args := serverArgs(t, true, 20*time.Second, base+"/demo/", base+"/test/tools.html")
	t.Run("stdio", func(t *testing.T) {
		checkTSClient(t, runTSClient(t, append([]string{"stdio", buildBinary(t)}, args...)...))
	})
	t.Run("http", func(t *testing.T) {
		checkTSClient(t, runTSClient(t, "http", httpServer(t, args)))
	})
}

// TestTypeScriptSchemaAcceptsGolden: the TypeScript SDK's CallToolResultSchema accepts every
// result bridge.Normalize produces for the golden inputs (bridge/testdata/golden).
func TestTypeScriptSchemaAcceptsGolden(t *testing.T) {
	skipWithoutBuild(t)
	files, err := filepath.Glob(filepath.Join(repo, "bridge", "testdata", "golden", "*.golden.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	results := map[string]json.RawMessage{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var g struct {
			Result json.RawMessage `json:"result"`
		}
		require.NoError(t, json.Unmarshal(b, &g), f)
		results[filepath.Base(f)] = g.Result
	}
	tsSchemaCheck(t, results)
}
