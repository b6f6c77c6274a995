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
// schemas, one consequential tool; the page of the tools/list comparison.
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
				Annotations: map[string]any{"readOnlyHint": true}},
			{Name: "checkout", Title: "Check out", Description: "Places the order and pays with the saved card.",
				Annotations: map[string]any{"consequentialHint": true}},
		}}
}

// stdioListBytes is the size of the tools/list response as webmcp-mcp writes it on stdout (one
// JSON-RPC message, newline aside) to a go-sdk client over stdio.
func stdioListBytes(t *testing.T, src Source) int {
	t.Helper()
	srv := New(Options{Policy: bridge.DefaultPolicy(), Timeout: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv.Follow(ctx, src)
	srv.OpenAtStart(ctx, nil)
	srv.syncTools()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go srv.Run(ctx, inR, outW)
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
			return len(l)
		}
	}
	require.Fail(t, "no tools/list response")
	return 0
}

// TestListBytes (issue 36, 4): tools/list of a page of five tools is at most 1.2× the 3,836 B
// MCP-B's local relay lists for such a page (the figure), management tools and all; and
// what webmcp-mcp adds to each page tool (its page, origin and marks in the description, _meta
// with the page, the page's claims and the viewer) stays under maxAddedPerTool bytes, however
// long the page's own text, while every mark stays (TestMCPTool checks them).
func TestListBytes(t *testing.T) {
	const maxAddedPerTool = 300
	src := newMemSource()
	page := shopPage()
	src.add(page)
	n := stdioListBytes(t, src)
	empty := stdioListBytes(t, newMemSource())
	bare := 0
	for _, pt := range page.Tools {
		b, err := json.Marshal(map[string]any{"name": pt.Name, "title": pt.Title, "description": pt.Description,
			"inputSchema": objectSchema(pt.InputSchema)})
		require.NoError(t, err)
		bare += len(b) + 1
	}
	added := (n - empty - bare) / len(page.Tools)
	t.Logf("tools/list: %d bytes; no page: %d; the page's own tool definitions: %d; added per tool: %d",
		n, empty, bare, added)
	assert.LessOrEqual(t, n, 3836*12/10)
	assert.LessOrEqual(t, added, maxAddedPerTool)
}
