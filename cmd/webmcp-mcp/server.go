//go:build !js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
	"github.com/webmcp-bridge/webmcp-bridge/internal/refusal"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// app is the MCP server over a source of pages.
type app struct {
	server  *mcp.Server
	src     PageSource
	policy  bridge.Policy
	timeout time.Duration
	log     *slog.Logger

	syncReq    chan struct{}
	syncMu     sync.Mutex
	registered map[string]*mcp.Tool // the page tools the server has, by MCP name
	omitted    map[string]int       // per page id: tools left out of the list (maxListBytes)
	names      *toolNames           // the MCP names of page tools
	pages      map[string]Page      // the pages as last listed, by id

	allow []string // the origins whose pages are offered (-allow); empty: every origin

	ready        chan struct{} // closed once every -open page loaded (or failed)
	readyTimeout time.Duration // how long the first tools/list waits for them (-ready-timeout)
	readyBy      time.Time     // when waiting for them ends
	pendingMu    sync.Mutex
	pending      []string // the -open URLs not yet loaded
}

// Names of the management tools; a page tool of the same name gets its page's prefix.
const (
	toolOpenPage  = "webmcp_open_page"
	toolListPages = "webmcp_list_pages"
	toolClosePage = "webmcp_close_page"
)

// Keys of the _meta webmcp-mcp puts on the page tools it lists.
const (
	metaPage        = "webmcp-bridge/page"        // {page, url, origin, title}
	metaAnnotations = "webmcp-bridge/annotations" // the tool's WebMCP annotations, as the page gave them
)

func newApp(policy bridge.Policy, timeout time.Duration, log *slog.Logger, version string) *app {
	a := &app{policy: policy, timeout: timeout, log: log, registered: map[string]*mcp.Tool{}, names: newToolNames(),
		ready: make(chan struct{}), readyTimeout: defaultReadyTimeout, syncReq: make(chan struct{}, 1)}
	a.server = mcp.NewServer(
		&mcp.Implementation{Name: "webmcp-mcp", Title: "WebMCP pages (webmcp-bridge)", Version: version},
		&mcp.ServerOptions{
			Logger: log,
			Instructions: "Tools of the web pages open in a browser. Each page tool's description names its page; " +
				"what a page returns is checked and sanitized, but it is still content from that page. Open pages " +
				"with webmcp_open_page.",
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		},
	)
	a.server.AddReceivingMiddleware(answerCancelled, mcpsdk.CompleteResults(), a.awaitPages)
	a.addManagementTools()
	a.addViewer()
	go a.syncLoop()
	return a
}

// serve makes the server follow src's pages.
func (a *app) serve(ctx context.Context, src PageSource) {
	a.src = src
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-src.Changes():
				a.requestSync()
			}
		}
	}()
}

// openAtStart opens the -open pages one after the other in the background, while the server
// already answers: a page that loads slowly, opens dialogs or cannot be reached never holds up
// initialize. The first tools/list waits for them (awaitPages), at most readyTimeout.
func (a *app) openAtStart(ctx context.Context, urls []string) {
	a.readyBy = time.Now().Add(a.readyTimeout)
	a.pending = slices.Clone(urls)
	go func() {
		defer close(a.ready)
		for _, u := range urls {
			if _, err := a.src.Open(ctx, u); err != nil {
				a.log.Warn("-open", "err", err)
			}
			a.syncTools()
			a.pendingMu.Lock()
			a.pending = a.pending[1:]
			a.pendingMu.Unlock()
		}
	}()
}

// defaultReadyTimeout is the default -ready-timeout.
const defaultReadyTimeout = 10 * time.Second

// awaitPages is the middleware that lets one-shot clients see the -open pages' tools: tools/list,
// and tools/call of a name the server does not have, wait until every -open page loaded (or
// failed), at most until readyBy. A call of a name that belonged to a page that closed is
// answered so; one still unknown when pages are still loading says which.
func (a *app) awaitPages(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			if late := a.waitReady(ctx); late != "" {
				a.log.Warn("tools/list answered while pages are still loading", "pages", late)
			}
		case "tools/call":
			params, ok := req.GetParams().(*mcp.CallToolParamsRaw)
			if !ok || a.offers(params.Name) {
				break
			}
			late := a.waitReady(ctx)
			if a.offers(params.Name) {
				break
			}
			if r := a.unknownTool(ctx, params.Name, late); r != nil {
				return r, nil
			}
		}
		return next(ctx, method, req)
	}
}

// allowed reports whether the pages of origin may be offered (-allow).
func (a *app) allowed(origin string) bool {
	return len(a.allow) == 0 || slices.Contains(a.allow, origin)
}

// originOf is the origin of an http(s) URL, as scheme://host[:port] in lower case.
func originOf(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", clip(raw, 200))
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// offers reports whether the server has a page tool or management tool of that name.
func (a *app) offers(name string) bool {
	if name == toolOpenPage || name == toolListPages || name == toolClosePage {
		return true
	}
	a.syncMu.Lock()
	defer a.syncMu.Unlock()
	_, ok := a.registered[name]
	return ok
}

// waitReady waits for the -open pages until readyBy, and returns the URLs still loading then.
func (a *app) waitReady(ctx context.Context) (loading string) {
	timer := time.NewTimer(time.Until(a.readyBy))
	defer timer.Stop()
	select {
	case <-a.ready:
		return ""
	case <-ctx.Done():
	case <-timer.C:
	}
	a.pendingMu.Lock()
	defer a.pendingMu.Unlock()
	return strings.Join(a.pending, ", ")
}

// unknownTool is the answer to a call of a name the server does not have, when webmcp-mcp can say
// more than the SDK's "unknown tool": the page that had it closed or navigated away (its tools
// there have new names), or pages are still loading.
func (a *app) unknownTool(ctx context.Context, name, loading string) *mcp.CallToolResult {
	a.syncMu.Lock()
	o, gone := a.names.goneOwner(name)
	held, known := a.names.owners[name]
	a.syncMu.Unlock()
	if known && !gone && held.key.page != "" {
		if r := a.movedAway(ctx, name, held); r != nil {
			return r
		}
	}
	switch {
	case gone:
		return ownError(
			"gone",
			fmt.Sprintf("the page that had the tool %q is gone (it was %s, page %s); list the tools again",
				name, clip(o.url, maxURLChars), o.key.page),
		)
	case loading != "":
		return ownError(
			"loading",
			fmt.Sprintf("no tool %q yet: still loading after %s (-ready-timeout): %s", name, a.readyTimeout, loading),
		)
	}
	return nil
}

// movedAway is the answer to a call of name, which page o.key.page had at o.key.origin and no
// longer offers: it is at another origin now, or no longer lists the tool. nil when the page is
// not open (unknownTool's other answers apply).
func (a *app) movedAway(ctx context.Context, name string, o nameOwner) *mcp.CallToolResult {
	for _, p := range a.src.Pages(ctx) {
		if p.ID != o.key.page || p.Closed != "" {
			continue
		}
		if p.Origin != o.key.origin {
			return ownError("navigated", fmt.Sprintf(
				"page %s navigated away: the tool %q was of %s, the page is now at %s (its tools there have "+
					"other names); list the tools again",
				p.ID, name, clip(o.url, maxURLChars), clip(p.URL, maxURLChars)))
		}
		return ownError("gone", fmt.Sprintf(
			"page %s (%s) no longer offers the tool %q; list the tools again", p.ID, clip(p.URL, maxURLChars), name))
	}
	return nil
}

// syncPause is the least time between two updates of the tool list: a page that registers and
// unregisters tools in a loop gives clients one tools/list_changed per pause, not one per change.
// The first change after a quiet second is passed on at once.
const syncPause = time.Second

// requestSync asks for the tool list to follow the pages; requests made while an update waits
// are one update.
func (a *app) requestSync() {
	select {
	case a.syncReq <- struct{}{}:
	default:
	}
}

func (a *app) syncLoop() {
	for range a.syncReq {
		if a.src == nil {
			continue
		}
		a.syncTools()
		time.Sleep(syncPause)
	}
}

// syncTools makes the server's page tools those of the open pages: a changed, new or gone tool
// is replaced, added or removed (the SDK sends tools/list_changed once for a burst).
func (a *app) syncTools() {
	a.syncMu.Lock()
	defer a.syncMu.Unlock()
	want, omitted := a.wantedTools()
	a.omitted = omitted
	var gone []string
	for name, old := range a.registered {
		if nt, ok := want[name]; !ok || !sameTool(old, nt.tool) {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		a.server.RemoveTools(gone...)
		for _, n := range gone {
			delete(a.registered, n)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if _, ok := a.registered[name]; ok {
			continue
		}
		w := want[name]
		if err := a.addPageTool(w); err != nil {
			a.log.Warn("a page tool cannot be offered", "page", w.info.ID, "tool", w.page.Name, "err", err)
			continue
		}
		a.registered[name] = w.tool
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
func (a *app) wantedTools() (map[string]wantedTool, map[string]int) {
	out := map[string]wantedTool{}
	omitted := map[string]int{}
	open := map[string]bool{}
	listed := map[toolKey]bool{}
	a.pages = map[string]Page{}
	size := 0
	for _, p := range a.src.Pages(context.Background()) {
		a.pages[p.ID] = p
		if p.Closed != "" {
			continue
		}
		open[p.ID] = true
		if !a.allowed(p.Origin) {
			continue
		}
		for _, pt := range boundTools(p.Tools) {
			key := toolKey{p.ID, p.Origin, pt.Name}
			listed[key] = true
			name := a.names.name(key, p.URL)
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
	a.names.closed(open, listed)
	return out, omitted
}

// addPageTool adds one page tool to the server. The SDK panics on a schema it refuses; that is
// an error here, since the schema comes from a page.
func (a *app) addPageTool(w wantedTool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	call := ToolCall{Page: w.info.ID, Origin: w.info.Origin, Tool: w.page.Name}
	a.server.AddTool(w.tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := call
		c.Args = req.Params.Arguments
		if len(c.Args) == 0 || string(c.Args) == "null" {
			c.Args = json.RawMessage(`{}`)
		}
		var r *mcp.CallToolResult
		if refused := w.check(c.Args); refused != nil {
			r = refused
		} else {
			if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
				defer a.progress(ctx, req.Session, tok, call.Page, call.Tool)()
				c.Notify = func(msg string) {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Message: msg})
				}
			}
			if r, err = a.callPageTool(ctx, c); err != nil {
				return nil, err
			}
			r = boundResult(r)
		}
		if r.Meta == nil {
			r.Meta = mcp.Meta{}
		}
		r.Meta[metaPage] = pageMeta(a.pageAt(c.Page, w.info))
		return r, nil
	})
	return nil
}

// check validates a call's arguments against the tool's input schema, natively, before the page
// is asked: nil when they pass, else the isError result that says why (the same sentence as the
// page's bridge gives), or that the tool's calls are refused.
func (w wantedTool) check(args json.RawMessage) *mcp.CallToolResult {
	if w.schemaErr != "" {
		return ownError(
			"inputSchema",
			fmt.Sprintf("%q on page %s cannot be called: %s", w.page.Name, w.info.ID, w.schemaErr),
		)
	}
	err := w.schema.ValidateJSON(args)
	if err == nil {
		return nil
	}
	var ie *inputschema.InputError
	if errors.As(err, &ie) {
		return ownError("arguments", ie.Sentence())
	}
	return ownError("arguments", "invalid arguments: "+clip(err.Error(), 300))
}

// pageAt is page id as last listed, or fallback when it is no longer listed.
func (a *app) pageAt(id string, fallback Page) Page {
	a.syncMu.Lock()
	defer a.syncMu.Unlock()
	if p, ok := a.pages[id]; ok {
		return p
	}
	return fallback
}

// callPageTool runs a page tool and normalizes what the page returned, natively and without
// trusting it. It returns an error only when the client cancelled the call.
func (a *app) callPageTool(ctx context.Context, c ToolCall) (*mcp.CallToolResult, error) {
	timeout := a.timeout
	if cf, ok := a.src.(confirmer); ok {
		timeout += cf.ConfirmTime(c)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ans, err := a.src.Call(cctx, c)
	info := a.pageAt(c.Page, Page{ID: c.Page})
	id, name := c.Page, c.Tool
	switch {
	case err == nil:
	case errors.Is(err, ErrNavigated):
		return ownError(
			"navigated",
			fmt.Sprintf(
				"page %s navigated during the call (it is now at %s), so the result of %q was lost; list the tools again",
				id,
				clip(info.URL, maxURLChars),
				name,
			),
		), nil
	case errors.Is(err, ErrPageClosed) && err != ErrPageClosed:
		return ownError(
			"closed",
			fmt.Sprintf(
				"page %s was closed during the call to %q: %s",
				id,
				name,
				strings.TrimPrefix(err.Error(), ErrPageClosed.Error()+": "),
			),
		), nil
	case errors.Is(err, ErrPageClosed):
		return ownError("closed", fmt.Sprintf("page %s was closed, so %q cannot answer", id, name)), nil
	case errors.Is(err, ErrNoSuchTool):
		return ownError(
			"missing",
			fmt.Sprintf("page %s no longer has a tool named %q; list the tools again", id, name),
		), nil
	case ctx.Err() != nil:
		return nil, ctx.Err() // the client cancelled: the page's call was aborted, no one reads a result
	case cctx.Err() != nil:
		return ownError(
			"timeout",
			fmt.Sprintf("%q on page %s did not answer within %s (the call was aborted)", name, id, timeout),
		), nil
	default:
		return ownError(
			"call",
			fmt.Sprintf("calling %q on page %s failed: %s", name, id, strconv.Quote(clip(err.Error(), 500))),
		), nil
	}
	switch {
	case ans.TooLarge > 0:
		r, _ := refusal.Result(refusal.Reason{Limit: "maxResultBytes", Text: fmt.Sprintf(
			"the tool returned %d characters, over webmcp-mcp's limit of %s",
			ans.TooLarge,
			sanitize.FormatBytes(maxOutputBytes),
		)})
		return mcpsdk.ToSDK(r), nil
	case ans.Error != nil:
		return pageError(id, name, ans), nil
	case ans.Output == nil:
		return ownError("call", fmt.Sprintf("%q on page %s returned nothing", name, id)), nil
	}
	p := outputPolicy(a.policy)
	p.PageURL = info.URL // relative links resolve as on the page
	r, vs := bridge.ParseToolOutput(*ans.Output, p)
	if len(vs) > 0 {
		a.log.Info("policy notices", "page", id, "tool", name, "count", len(vs), "first", vs[0].Notice)
	}
	if r.IsError {
		quotePageText(r, id, name)
	}
	return mcpsdk.ToSDK(r), nil
}

// progress sends notifications/progress for a call every progressEvery until the returned stop
// is called, so that clients which reset their timeout on progress wait for a slow page.
func (a *app) progress(ctx context.Context, ss *mcp.ServerSession, token any, page, tool string) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	every := min(5*time.Second, a.timeout/4)
	start := time.Now()
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				waited := time.Since(start).Round(time.Second)
				_ = ss.NotifyProgress(
					ctx,
					&mcp.ProgressNotificationParams{
						ProgressToken: token,
						Progress:      waited.Seconds(),
						Total:         a.timeout.Seconds(),
						Message: fmt.Sprintf(
							"waiting for %q on page %s (%s of at most %s)",
							tool,
							page,
							waited,
							a.timeout,
						),
					},
				)
			}
		}
	}()
	return cancel
}

// ---- management tools -------------------------------------------------------------------------

type openPageIn struct {
	URL string `json:"url" jsonschema:"the http(s) URL of the page to open"`
}

type closePageIn struct {
	Page string `json:"page" jsonschema:"the page id, as webmcp_list_pages gives it (p1, p2, …)"`
}

// pageSummary is how the management tools describe a page.
type pageSummary struct {
	Page      string   `json:"page"`
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Tools     []string `json:"tools"`               // the MCP names of its tools
	Omitted   int      `json:"omitted,omitempty"`   // tools left out (limits of the tool list)
	LoadError string   `json:"loadError,omitempty"` // why it did not load
	Dialogs   []string `json:"dialogs,omitempty"`   // dialogs it opened, dismissed
	Errors    []string `json:"errors,omitempty"`    // its last uncaught errors and failed loads (page text)
}

func (a *app) summary(p Page) pageSummary {
	s := pageSummary{
		Page:      p.ID,
		URL:       clip(p.URL, maxURLChars),
		Title:     clip(p.Title, maxTitleChars),
		Tools:     []string{},
		Omitted:   p.More,
		LoadError: p.LoadError,
		Dialogs:   p.Dialogs,
		Errors:    p.Errors,
	}
	a.syncMu.Lock()
	defer a.syncMu.Unlock()
	s.Omitted += a.omitted[p.ID]
	for name, tool := range a.registered {
		if m, ok := tool.Meta[metaPage].(map[string]any); ok && m["page"] == p.ID {
			s.Tools = append(s.Tools, name)
		}
	}
	slices.Sort(s.Tools)
	return s
}

func (s pageSummary) line() string {
	tools := "no tools"
	if len(s.Tools) > 0 {
		tools = "tools: " + strings.Join(s.Tools, ", ")
	}
	line := fmt.Sprintf("%s: %q %s (%s)", s.Page, s.Title, s.URL, tools)
	if s.Omitted > 0 {
		line += fmt.Sprintf("; %d more tools left out (limits of the tool list)", s.Omitted)
	}
	if s.LoadError != "" {
		line += "; it did not load: " + s.LoadError + " (open the same URL again to retry)"
	}
	for _, d := range s.Dialogs {
		line += "; dialog " + d
	}
	for _, e := range s.Errors {
		line += "; page error (page text): " + strconv.Quote(e)
	}
	return line
}

func (a *app) addManagementTools() {
	opts := &mcpsdk.Options{Policy: a.policy}
	mcpsdk.AddTool(a.server, &mcp.Tool{Name: toolOpenPage, Title: "Open a page",
		Description: "Opens a web page in the browser, with the WebMCP bridge, and offers its WebMCP tools as MCP " +
			"tools (tools/list_changed follows)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in openPageIn) (any, error) {
			if o, err := originOf(in.URL); err == nil && !a.allowed(o) {
				return mcpsdk.Error(
					fmt.Sprintf(
						"%s is not an origin webmcp-mcp may open (-allow %s)",
						o,
						strings.Join(a.allow, " -allow "),
					),
					"",
				), nil
			}
			p, err := a.src.Open(ctx, in.URL)
			if p.ID == "" {
				return nil, err
			}
			a.syncTools()
			s := a.summary(p)
			if err != nil {
				return map[string]any{
					"content":           []any{mcpsdk.Text("Could not load " + s.line())},
					"structuredContent": s,
					"isError":           true,
				}, nil
			}
			return map[string]any{"content": []any{mcpsdk.Text("Opened " + s.line())}, "structuredContent": s}, nil
		}, opts)
	mcpsdk.AddTool(a.server, &mcp.Tool{Name: toolListPages, Title: "List pages",
		Description: "Lists the open pages: id, URL, title and the MCP names of their tools.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (any, error) {
			var lines, closed []string
			pages := []pageSummary{}
			for _, p := range a.src.Pages(ctx) {
				if p.Closed != "" {
					if p.Closed != "closed" {
						closed = append(
							closed,
							fmt.Sprintf("Closed: %s (%s) was closed: %s", p.ID, clip(p.URL, maxURLChars), p.Closed),
						)
					}
					continue
				}
				s := a.summary(p)
				pages = append(pages, s)
				lines = append(lines, s.line())
			}
			if len(lines) == 0 {
				lines = []string{"No pages are open: open one with webmcp_open_page."}
				if em, ok := a.src.(emptyMessager); ok {
					lines = []string{em.EmptyMessage()}
				}
			}
			lines = append(lines, closed...)
			return map[string]any{
				"content":           []any{mcpsdk.Text(strings.Join(lines, "\n"))},
				"structuredContent": map[string]any{"pages": pages},
			}, nil
		}, opts)
	mcpsdk.AddTool(a.server, &mcp.Tool{Name: toolClosePage, Title: "Close a page",
		Description: "Closes an open page; its tools go away (tools/list_changed follows).",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in closePageIn) (any, error) {
			if err := a.src.Close(ctx, in.Page); err != nil {
				return mcpsdk.Error(fmt.Sprintf("no page %q is open", in.Page), ""), nil
			}
			a.syncTools()
			return "Closed " + in.Page, nil
		}, opts)
}
