//go:build !js

package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// shopPage is a page of five tools as a shop would write them: short descriptions, small
// schemas, one consequential tool; the tools of `webmcp-bench -relay` (cmd/webmcp-bench/relay.go).
func shopPage() Page {
	str := func(d string) map[string]any { return map[string]any{"type": "string", "description": d} }
	obj := func(props map[string]any, req ...any) map[string]any {
		s := map[string]any{"type": "object", "properties": props}
		if len(req) > 0 {
			s["required"] = req
		}
		return s
	}
	return Page{URL: "http://localhost:8080/shop/", Origin: "http://localhost:8080", Title: "Tea shop",
		Tools: []PageTool{
			{Name: "search_products", Title: "Search products", Description: "Searches the catalogue by keyword.",
				InputSchema: obj(map[string]any{"query": str("keywords"),
					"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": 50}}, "query"),
				Annotations: map[string]any{"readOnlyHint": true}},
			{Name: "get_product", Title: "Get a product", Description: "Returns a product's details and price.",
				InputSchema: obj(map[string]any{"id": str("the product id")}, "id"),
				Annotations: map[string]any{"readOnlyHint": true}},
			{Name: "add_to_cart", Title: "Add to cart", Description: "Adds a product to the cart.",
				InputSchema: obj(map[string]any{"id": str("the product id"),
					"quantity": map[string]any{"type": "integer", "minimum": 1}}, "id")},
			{Name: "view_cart", Title: "View the cart", Description: "Lists the cart's items and total.",
				InputSchema: obj(map[string]any{}), Annotations: map[string]any{"readOnlyHint": true}},
			{Name: "checkout", Title: "Check out", Description: "Places the order and pays with the saved card.",
				InputSchema: obj(map[string]any{}), Annotations: map[string]any{"consequentialHint": true}},
		}}
}

// serveStdio serves src's pages over stdio-like pipes until ctx ends: a client reads the
// server's stdout from outR and writes its stdin to inW.
func serveStdio(ctx context.Context, src Source) (outR *io.PipeReader, inW *io.PipeWriter) {
	srv := New(Options{Policy: bridge.DefaultPolicy(), Timeout: 5 * time.Second})
	srv.Follow(ctx, src)
	srv.OpenAtStart(ctx, nil)
	srv.syncTools()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go srv.Run(ctx, inR, outW)
	return outR, inW
}

// stdioList is the tools/list response as webmcp-mcp writes it on stdout (one JSON-RPC message,
// newline aside) to a go-sdk client over stdio.
func stdioList(t *testing.T, src Source) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, inW := serveStdio(ctx, src)
	var mu sync.Mutex
	var lines []string
	clientIn, tap := io.Pipe()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
			tap.Write(append(bytes.Clone(sc.Bytes()), '\n'))
		}
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: inW}, nil)
	require.NoError(t, err)
	defer cs.Close()
	_, err = cs.ListTools(ctx, nil)
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	for _, l := range lines {
		if strings.Contains(l, `"tools":[`) {
			return l
		}
	}
	require.Fail(t, "no tools/list response")
	return ""
}

// modelVisible is ModelVisibleBytes of the result of msg, a tools/list response.
func modelVisible(t *testing.T, msg string) int {
	t.Helper()
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(msg), &m))
	n, err := ModelVisibleBytes(m.Result)
	require.NoError(t, err)
	return n
}

// MCP-B's local relay (@mcp-b/webmcp-local-relay 2.2.0 with @mcp-b/global 5.1.0) on the same
// five tools, as `go run ./cmd/webmcp-bench -relay 30` measured it on 2026-11-28 (commit
// f6075fc, and again since): its tools/list result, and of it what clients give the model.
const (
	relayListBytes  = 2899
	relayModelBytes = 2689
)

// listResult is the result of msg, a tools/list response, as the client reads it.
func listResult(t *testing.T, msg string) json.RawMessage {
	t.Helper()
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(msg), &m))
	return m.Result
}

// TestListBytes (issue 36, 4): tools/list for a page of five tools, management tools and all, is
// at most 1.2× what MCP-B's local relay lists for the same tools, as webmcp-mcp -open lists it
// and as -extension does (which names the browser too); so is what a client gives the model of
// it (names, titles, descriptions, schemas), every mark of provenance and of the page's own text
// kept (TestMCPTool checks them); and what webmcp-mcp adds to each page tool (its page, origin
// and marks in the description, the page's id and the viewer in _meta) stays under
// maxAddedPerTool bytes. Where the page is (URL, origin, title, browser) is said once per page.
func TestListBytes(t *testing.T) {
	const maxAddedPerTool = 200
	for _, browser := range []string{"", "Chromium"} {
		src := newMemSource()
		page := shopPage()
		page.Browser = browser
		src.add(page)
		msg := stdioList(t, src)
		result := listResult(t, msg)
		n, model := len(result), modelVisible(t, msg)
		empty := len(listResult(t, stdioList(t, newMemSource())))
		bare := 0
		for _, pt := range page.Tools {
			b, err := json.Marshal(map[string]any{"name": pt.Name, "title": pt.Title, "description": pt.Description,
				"inputSchema": objectSchema(pt.InputSchema)})
			require.NoError(t, err)
			bare += len(b) + 1
		}
		added := (n - empty - bare) / len(page.Tools)
		t.Logf("browser %q: tools/list result %d bytes (%.2fx the relay's), %d model-visible (%.2fx); no page: %d; "+
			"the page's own tool definitions: %d; added per tool: %d", browser, n, float64(n)/relayListBytes, model,
			float64(model)/relayModelBytes, empty, bare, added)
		assert.LessOrEqual(t, n, relayListBytes*12/10, "browser %q: tools/list at most 1.2x the relay's", browser)
		assert.LessOrEqual(t, model, relayModelBytes*12/10)
		assert.LessOrEqual(t, added, maxAddedPerTool)
	}
}
