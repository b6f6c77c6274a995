//go:build !js

package mcpserver

import (
	"context"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpclient"
)

// memSource is a Source held in memory, for tests of the MCP side: pages are set by the
// test, and each call is answered by the test's answer function.
type memSource struct {
	mu      sync.Mutex
	pages   []Page
	last    int
	answer  func(ctx context.Context, c ToolCall) (ToolAnswer, error)
	calls   []ToolCall
	changes chan struct{}
}

func newMemSource() *memSource { return &memSource{changes: make(chan struct{}, 1)} }

func (m *memSource) Pages(context.Context) []Page {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.pages)
}

func (m *memSource) Open(_ context.Context, rawURL string) (Page, error) {
	return m.add(Page{URL: rawURL, Origin: rawURL}), nil
}

func (m *memSource) Close(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, p := range m.pages {
		if p.ID == id && p.Closed == "" {
			m.pages[i] = Page{ID: p.ID, URL: p.URL, Origin: p.Origin, Closed: "closed"}
			return nil
		}
	}
	return ErrPageClosed
}

func (m *memSource) Call(ctx context.Context, c ToolCall) (ToolAnswer, error) {
	m.mu.Lock()
	m.calls = append(m.calls, c)
	answer := m.answer
	m.mu.Unlock()
	if answer == nil {
		s := "ok"
		return ToolAnswer{Output: &s}, nil
	}
	return answer(ctx, c)
}

func (m *memSource) Changes() <-chan struct{} { return m.changes }

// add adds a page (its ID given by the source) and returns it.
func (m *memSource) add(p Page) Page {
	m.mu.Lock()
	m.last++
	p.ID = "p" + string(rune('0'+m.last))
	m.pages = append(m.pages, p)
	m.mu.Unlock()
	select {
	case m.changes <- struct{}{}:
	default:
	}
	return p
}

// page adds a page at url with tools of the given names.
func (m *memSource) page(url string, names ...string) Page {
	p := Page{URL: url, Origin: url}
	for _, n := range names {
		p.Tools = append(p.Tools, PageTool{Name: n})
	}
	return m.add(p)
}

// testServer is a Server over src with a go-sdk client connected in memory.
func testServer(t *testing.T, src Source) (*Server, *mcp.ClientSession) {
	t.Helper()
	return serverWith(t, src, Options{Policy: bridge.DefaultPolicy(), Timeout: 5 * time.Second, Version: "test"})
}

// serverWith is a Server with options o over src with a go-sdk client connected in memory; its
// tools are those of src's pages already.
func serverWith(t *testing.T, src Source, o Options) (*Server, *mcp.ClientSession) {
	t.Helper()
	srv := New(o)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv.Follow(ctx, src)
	srv.OpenAtStart(ctx, nil)
	cs := mcpclient.Connect(t, ctx, srv, nil)
	srv.syncTools()
	return srv, cs
}

// httpServer is a Server over src served as streamable HTTP in this process, with a go-sdk
// client connected to it (which asks for 2026-07-28, so it is served statelessly).
func httpServer(t *testing.T, src Source) (*httptest.Server, *mcp.ClientSession) {
	t.Helper()
	srv := New(Options{Policy: bridge.DefaultPolicy(), Timeout: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv.Follow(ctx, src)
	srv.OpenAtStart(ctx, nil)
	srv.syncTools()
	h := httptest.NewServer(srv.Handler())
	t.Cleanup(h.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.URL}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return h, cs
}
