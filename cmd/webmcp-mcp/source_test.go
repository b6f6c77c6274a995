//go:build !js

package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// memSource is a PageSource held in memory, for tests of the MCP side: pages are set by the
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

// testApp is an app over src with a go-sdk client connected in memory.
func testApp(t *testing.T, src PageSource) (*app, *mcp.ClientSession) {
	t.Helper()
	a := newApp(bridge.DefaultPolicy(), 5*time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)), "test")
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	a.serve(ctx, src)
	a.openAtStart(ctx, nil)
	ct, st := mcp.NewInMemoryTransports()
	_, err := a.server.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return a, cs
}

// listedNames lists the server's tools' names.
func listedNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// callText calls a tool and returns its result's first text and isError.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	b, _ := json.Marshal(r.Content)
	var blocks []struct {
		Text string `json:"text"`
	}
	require.NoError(t, json.Unmarshal(b, &blocks))
	require.NotEmpty(t, blocks)
	return blocks[0].Text, r.IsError
}
