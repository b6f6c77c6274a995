//go:build !js

// Package mcpserver is webmcp-mcp's MCP server over a source of pages. A [Source] lists pages and
// their WebMCP tools, calls a tool, aborts a call and says when something changed; the [Server]
// offers every tool of every page as an MCP tool under a name that holds while its page lives,
// with where the page is (from the browser) apart from what the page says (quoted), validates
// each call's arguments against the tool's input schema, normalizes what the page returns with
// bridge.ParseToolOutput, and bounds every message it sends. It knows no browser: the DevTools
// source (internal/devtools) and the extension source (internal/extension) implement [Source].
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
)

// A Server is the MCP server over a source of pages: it follows the source's pages
// ([Server.Follow]) and serves over stdio ([Server.Run]) or streamable HTTP
// ([Server.ListenAndServe]). Make one with [New].
type Server struct {
	server  *mcp.Server
	src     Source
	policy  bridge.Policy
	timeout time.Duration
	log     *slog.Logger

	syncReq    chan struct{}
	syncMu     sync.Mutex
	registered map[string]wantedTool // the page tools the server has, by MCP name
	omitted    map[string]int        // per page id: tools left out of the list (maxListBytes)
	names      *toolNames            // the MCP names of page tools
	pages      map[string]Page       // the pages as last listed, by id
	kept       keptTexts             // the whole texts of cut blocks, per session

	allow []string // the origins whose pages are offered (-allow); empty: every origin

	ready        chan struct{} // closed once every -open page loaded (or failed)
	readyTimeout time.Duration // how long the first tools/list waits for them (-ready-timeout)
	readyBy      time.Time     // when waiting for them ends
	pendingMu    sync.Mutex
	pending      []string // the -open URLs not yet loaded
}

// Options configure a [Server].
type Options struct {
	Policy       bridge.Policy // what a page's results are normalized under
	Timeout      time.Duration // how long a tool call may take (-timeout)
	ReadyTimeout time.Duration // how long the first tools/list waits for the pages (-ready-timeout; 0: not at all)
	Allow        []string      // the only origins whose pages are offered (-allow); none: every origin
	Logger       *slog.Logger  // nil: nothing is logged
	Version      string        // the version in serverInfo
}

// Names of the management tools; a page tool of the same name gets its page's prefix.
const (
	toolOpenPage  = "webmcp_open_page"
	toolListPages = "webmcp_list_pages"
	toolClosePage = "webmcp_close_page"
)

// managementTools are the names of webmcp-mcp's own tools.
var managementTools = []string{toolOpenPage, toolListPages, toolClosePage, toolListTools, toolCallTool}

// Keys of the _meta webmcp-mcp writes: a page tool's page id, and a result's {page, url,
// origin, title, browser?}; tools/list's own, {id: {url, origin, title, browser?}} for the pages
// of the tools it lists.
const (
	metaPage  = "webmcp-bridge/page"
	metaPages = "webmcp-bridge/pages"
)

// New makes a Server with the management tools and the MCP Apps viewer, and no pages until
// [Server.Follow] gives it a source.
func New(o Options) *Server {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{policy: o.Policy, timeout: o.Timeout, log: log, registered: map[string]wantedTool{},
		names: newToolNames(), ready: make(chan struct{}), readyTimeout: o.ReadyTimeout,
		syncReq: make(chan struct{}, 1)}
	for _, origin := range o.Allow {
		s.allow = append(s.allow, strings.ToLower(origin))
	}
	s.server = mcp.NewServer(
		&mcp.Implementation{Name: "webmcp-mcp", Title: "WebMCP pages (webmcp-bridge)", Version: o.Version},
		&mcp.ServerOptions{
			Logger:       log,
			Instructions: instructions,
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		},
	)
	s.server.AddReceivingMiddleware(answerCancelled, mcpsdk.CompleteResults(), s.awaitPages, s.listPagesMeta)
	s.addManagementTools()
	s.addListOnceTools()
	s.addViewer()
	s.addKeptResource()
	go s.syncLoop()
	return s
}

// Follow makes the server offer the tools of src's pages, and follow them as they change, until
// ctx ends. Call it once, before the server serves.
func (s *Server) Follow(ctx context.Context, src Source) {
	s.src = src
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-src.Changes():
				s.requestSync()
			}
		}
	}()
}

// Connect connects the server over t, as [mcp.Server.Connect] does (for instance one end of
// [mcp.NewInMemoryTransports]).
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.server.Connect(ctx, t, nil)
}

// Allowed reports whether the pages of origin may be offered (-allow).
func (s *Server) Allowed(origin string) bool {
	return len(s.allow) == 0 || slices.Contains(s.allow, origin)
}

// OriginOf is the origin of an http(s) URL, as scheme://host[:port] in lower case.
func OriginOf(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", Clip(raw, 200))
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// syncPause is the least time between two updates of the tool list: a page that registers and
// unregisters tools in a loop gives clients one tools/list_changed per pause, not one per change.
// The first change after a quiet second is passed on at once.
const syncPause = time.Second

// requestSync asks for the tool list to follow the pages; requests made while an update waits
// are one update.
func (s *Server) requestSync() {
	select {
	case s.syncReq <- struct{}{}:
	default:
	}
}

func (s *Server) syncLoop() {
	for range s.syncReq {
		if s.src == nil {
			continue
		}
		s.syncTools()
		time.Sleep(syncPause)
	}
}

// syncTools makes the server's page tools those of the open pages: a changed, new or gone tool
// is replaced, added or removed (the SDK sends tools/list_changed once for a burst).
func (s *Server) syncTools() {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	want, omitted := s.wantedTools()
	s.omitted = omitted
	var gone []string
	for name, old := range s.registered {
		if nt, ok := want[name]; !ok || !sameTool(old.tool, nt.tool) {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		s.server.RemoveTools(gone...)
		for _, n := range gone {
			delete(s.registered, n)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if _, ok := s.registered[name]; ok {
			continue
		}
		w := want[name]
		if err := s.addPageTool(w); err != nil {
			s.log.Warn("a page tool cannot be offered", "page", w.info.ID, "tool", w.page.Name, "err", err)
			continue
		}
		s.registered[name] = w
	}
}

func sameTool(a, b *mcp.Tool) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// wantedTool is one page tool as it should be offered.
type wantedTool struct {
	info      Page
	page      PageTool
	tool      *mcp.Tool
	schema    *inputschema.Schema // the compiled input schema (nil: any object)
	schemaErr string              // why its calls are refused, when they are
}

// wantedTools names every tool of every open page (toolNames: a name, once decided, stays while
// its page lives) and maps it to an MCP tool. Tools past maxListBytes (all pages together) are
// left out and counted per page. It remembers the pages as listed in a.pages. a.syncMu is held.
func (s *Server) wantedTools() (map[string]wantedTool, map[string]int) {
	out := map[string]wantedTool{}
	omitted := map[string]int{}
	open := map[string]bool{}
	listed := map[toolKey]bool{}
	s.pages = map[string]Page{}
	size := 0
	for _, p := range s.src.Pages(context.Background()) {
		s.pages[p.ID] = p
		if p.Closed != "" {
			continue
		}
		open[p.ID] = true
		if !s.Allowed(p.Origin) {
			continue
		}
		tools, over := boundTools(p.Tools)
		omitted[p.ID] += over
		for _, pt := range tools {
			key := toolKey{p.ID, p.Origin, pt.Name}
			listed[key] = true
			name := s.names.name(key, p.URL)
			if name == "" {
				omitted[p.ID]++
				continue
			}
			if _, dup := out[name]; dup { // one page registering a name twice: keep the first
				continue
			}
			schema, schemaErr := compileSchema(pt)
			tool := mcpTool(name, p, pt, schemaErr)
			b, _ := json.Marshal(tool)
			if size+len(b) > maxListBytes {
				omitted[p.ID]++
				continue
			}
			size += len(b)
			out[name] = wantedTool{info: p, page: pt, tool: tool, schema: schema, schemaErr: schemaErr}
		}
	}
	s.names.closed(open, listed)
	return out, omitted
}
