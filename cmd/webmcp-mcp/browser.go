//go:build !js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// browserConfig says which browser to drive.
type browserConfig struct {
	attach      string // a DevTools endpoint (http:// or ws://); empty: launch Chromium
	chromium    string // the executable to launch
	headed      bool
	webmcp      bool // launch with --enable-features=WebMCP
	userDataDir string
}

// startBrowser launches Chromium (or attaches to a running one) and returns a chromedp context
// of the browser, with no tab of its own.
func startBrowser(parent context.Context, cfg browserConfig) (context.Context, context.CancelFunc, error) {
	var actx context.Context
	var cancelAlloc context.CancelFunc
	if cfg.attach != "" {
		actx, cancelAlloc = remote.NewAllocator(parent, cfg.attach)
	} else {
		extra := []chromedp.ExecAllocatorOption{
			// Pages of any origin load the bridge from webmcp-mcp's loopback server.
			chromedp.Flag("disable-features", "LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights"),
		}
		if cfg.headed {
			extra = append(extra, chromedp.Flag("headless", false))
		}
		actx, cancelAlloc = chromedp.NewExecAllocator(parent, headless.Options(cfg.chromium, cfg.userDataDir, cfg.webmcp, extra...)...)
	}
	bctx, cancelBrowser := chromedp.NewContext(actx)
	cancel := func() { cancelBrowser(); cancelAlloc() }
	// Targets starts the browser (or connects) without opening a tab. The browser lives as long
	// as the context of this first call, so it has no timeout of its own.
	if _, err := chromedp.Targets(bctx); err != nil {
		cancel()
		if cfg.attach != "" {
			return nil, nil, fmt.Errorf("cannot attach to the browser at %s: %w (start Chrome with --remote-debugging-port=9222)", cfg.attach, err)
		}
		return nil, nil, fmt.Errorf("cannot start %s: %w", cfg.chromium, err)
	}
	return bctx, cancel, nil
}

// tab is one page webmcp-mcp drives: a browser tab with the bridge injected.
type tab struct {
	id     string // "p1", "p2", … as MCP clients name it
	target string // the browser's id of the tab
	app    *app
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	info    pageInfo
	gen     int  // increases with each main-frame navigation
	closed  bool // the tab is gone
	refresh chan struct{}
}

// pageInfo is what a page answers to list.
type pageInfo struct {
	Origin string     `json:"origin"`
	URL    string     `json:"url"`
	Title  string     `json:"title"`
	Tools  []pageTool `json:"tools"`
}

// pageTool is a tool as a page describes it (getTools, read without trust).
type pageTool struct {
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	Annotations map[string]any `json:"annotations"`
}

func (t *tab) snapshot() (pageInfo, int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.info, t.gen, t.closed
}

// setup prepares a tab before it loads anything: the notifier, the injected bridge (also into
// the current document when immediate, for tabs that were open before webmcp-mcp came), CSP
// bypassed so that the module may load on any page, and the events that say the tools or the
// document changed.
func (t *tab) setup(immediate bool) error {
	if err := chromedp.Do(t.ctx,
		chromedp.ExposeFunc(notifyName, func(context.Context, []any) (chromedp.Void, error) {
			t.scheduleRefresh()
			return chromedp.Void{}, nil
		})); err != nil {
		return err
	}
	if _, err := chromedp.Call(t.ctx, page.Enable, page.EnableParams{}); err != nil {
		return err
	}
	if _, err := chromedp.Call(t.ctx, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
		return err
	}
	run := immediate
	if _, err := chromedp.Call(t.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: t.app.inject, RunImmediately: &run,
	}); err != nil {
		return err
	}
	if err := chromedp.Listen(t.ctx, t.onEvent); err != nil {
		return err
	}
	// Native WebMCP reports registrations itself; without it the call fails, and the page's
	// toolchange events (through the notifier) are enough.
	if _, err := chromedp.Call(t.ctx, webmcp.Enable, cdp.Empty{}); err != nil {
		t.app.log.Debug("WebMCP domain not available", "page", t.id, "err", err)
	}
	go t.refreshLoop()
	return nil
}

// onEvent runs on chromedp's reading goroutine: it only records and signals.
func (t *tab) onEvent(ev any) {
	switch ev := ev.(type) {
	case *page.EventFrameNavigated:
		if ev.Frame == nil || ev.Frame.ParentID != "" {
			return
		}
		t.mu.Lock()
		t.gen++
		t.info = pageInfo{URL: ev.Frame.URL, Origin: ev.Frame.SecurityOrigin}
		t.mu.Unlock()
		t.scheduleRefresh()
	case *page.EventLoadEventFired, *page.EventDomContentEventFired, *webmcp.EventToolsAdded, *webmcp.EventToolsRemoved:
		t.scheduleRefresh()
	}
}

func (t *tab) scheduleRefresh() {
	select {
	case t.refresh <- struct{}{}:
	default:
	}
}

// refreshLoop lists the page's tools again after each signal (a short pause lets a burst of
// registrations settle), until the tab goes away.
func (t *tab) refreshLoop() {
	detached, _ := chromedp.Detached(t.ctx)
	for {
		select {
		case <-t.ctx.Done():
			t.app.forget(t)
			return
		case <-detached:
			t.app.forget(t)
			return
		case <-t.refresh:
		}
		select {
		case <-time.After(30 * time.Millisecond):
		case <-t.ctx.Done():
			continue
		}
		if err := t.list(); err != nil && t.ctx.Err() == nil {
			t.app.log.Debug("listing tools", "page", t.id, "err", err)
		}
	}
}

// list asks the page for its tools and updates the MCP tool set when they changed.
func (t *tab) list() error {
	_, gen, _ := t.snapshot()
	ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`typeof window.__webmcpMcp === "object" ? window.__webmcpMcp.list() : JSON.stringify({origin: location.origin, url: location.href, title: document.title, tools: []})`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		return err
	}
	var info pageInfo
	if err := json.Unmarshal([]byte(s), &info); err != nil {
		return fmt.Errorf("the page's tool list is not readable: %w", err)
	}
	info.Tools = slices.DeleteFunc(info.Tools, func(pt pageTool) bool { return !validToolName(pt.Name) })
	if len(info.Tools) > maxPageTools {
		info.Tools = info.Tools[:maxPageTools]
	}
	for i := range info.Tools {
		pt := &info.Tools[i]
		pt.Title, pt.Description = clip(pt.Title, 200), clip(pt.Description, 4000)
	}
	info.Title = clip(info.Title, 200)
	t.mu.Lock()
	if gen != t.gen {
		t.mu.Unlock()
		t.scheduleRefresh() // the page navigated meanwhile: list the new one
		return nil
	}
	t.info = info
	t.mu.Unlock()
	t.app.syncTools()
	return nil
}

// What a page may put in the tool list: a page is not trusted to keep it small.
const maxPageTools = 256

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// validToolName is the WebMCP rule (and within the MCP one): 1-128 of A-Z a-z 0-9 _ . -
func validToolName(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

// errNavigated and errClosed end calls whose page went away under them.
var (
	errNavigated = errors.New("navigated")
	errClosed    = errors.New("closed")
)

// callAnswer is what window.__webmcpMcp.call answers.
type callAnswer struct {
	Raw       *string `json:"raw"`
	Error     *string `json:"error"`
	Name      string  `json:"name"`
	Missing   bool    `json:"missing"`
	Navigated string  `json:"navigated"`
}

// call runs one tool call in the page: executeTool with an AbortSignal that ctx's end (the MCP
// client's cancellation) aborts. It returns the page's answer, errNavigated when the document
// changed under the call, errClosed when the tab went away, or ctx's error.
func (t *tab) call(ctx context.Context, origin, name string, args json.RawMessage) (callAnswer, error) {
	_, gen, closed := t.snapshot()
	if closed {
		return callAnswer{}, errClosed
	}
	id := fmt.Sprintf("c%d", t.app.nextCall.Add(1))
	js := fmt.Sprintf(`window.__webmcpMcp.call(%s, %s, %s, %s)`, jsString(id), jsString(origin), jsString(name), jsString(string(args)))
	cctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	s, err := chromedp.Run(cctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		_, genNow, closedNow := t.snapshot()
		switch {
		case ctx.Err() != nil:
			t.abort(id)
			return callAnswer{}, ctx.Err()
		case closedNow || t.ctx.Err() != nil:
			return callAnswer{}, errClosed
		case genNow != gen || isContextGone(err):
			return callAnswer{}, errNavigated
		}
		return callAnswer{}, err
	}
	var a callAnswer
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		msg := "the page answered something that is not the answer of a tool call"
		return callAnswer{Error: &msg}, nil
	}
	if a.Navigated != "" {
		return a, errNavigated
	}
	return a, nil
}

// abort asks the page to abort call id (its AbortSignal), without waiting long.
func (t *tab) abort(id string) {
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__webmcpMcp.abort(`+jsString(id)+`)`)); err != nil {
		t.app.log.Debug("aborting a call", "page", t.id, "err", err)
	}
}

func isContextGone(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Execution context was destroyed") || strings.Contains(s, "Inspected target navigated") ||
		strings.Contains(s, "Cannot find context")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// openTab opens url in a new tab with the bridge injected and lists its tools.
func (a *app) openTab(ctx context.Context, rawURL string) (*tab, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && rawURL != "about:blank") {
		return nil, fmt.Errorf("%q is not an http(s) URL", rawURL)
	}
	tctx, cancel := chromedp.NewContext(a.browser)
	t := a.newTab(tctx, cancel, "")
	if err := t.setup(false); err != nil {
		a.closeTab(t)
		return nil, fmt.Errorf("preparing a tab: %w", err)
	}
	if c := chromedp.FromContext(tctx); c != nil && c.Target != nil {
		a.mu.Lock()
		t.target = string(c.Target.TargetID)
		a.mu.Unlock()
	}
	nctx, ncancel := context.WithTimeout(tctx, a.timeout)
	defer ncancel()
	stop := context.AfterFunc(ctx, ncancel)
	defer stop()
	if err := chromedp.Do(nctx, chromedp.Navigate(rawURL)); err != nil {
		a.closeTab(t)
		return nil, fmt.Errorf("opening %s: %w", rawURL, err)
	}
	if err := t.list(); err != nil {
		a.log.Warn("listing tools", "page", t.id, "err", err)
	}
	return t, nil
}

// adoptTargets takes in the page tabs of an attached browser that webmcp-mcp does not drive yet:
// the bridge goes into their current document and every later one.
func (a *app) adoptTargets() error {
	infos, err := chromedp.Targets(a.browser)
	if err != nil {
		return err
	}
	for _, info := range infos {
		if info.Type != "page" || strings.HasPrefix(info.URL, "devtools://") || strings.HasPrefix(info.URL, "chrome") {
			continue
		}
		if a.drives(string(info.TargetID)) {
			continue
		}
		tctx, cancel := chromedp.NewContext(a.browser, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
		t := a.newTab(tctx, cancel, string(info.TargetID))
		if err := t.setup(true); err != nil {
			a.log.Warn("cannot drive a tab", "url", info.URL, "err", err)
			a.closeTab(t)
			continue
		}
		if err := t.list(); err != nil {
			a.log.Debug("listing tools", "page", t.id, "err", err)
		}
	}
	return nil
}

func (a *app) newTab(ctx context.Context, cancel context.CancelFunc, targetID string) *tab {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lastPage++
	t := &tab{id: fmt.Sprintf("p%d", a.lastPage), target: targetID, app: a, ctx: ctx, cancel: cancel, refresh: make(chan struct{}, 1)}
	a.tabs = append(a.tabs, t)
	return t
}

// closeTab closes the tab (an attached tab is closed too: that is what was asked) and forgets it.
func (a *app) closeTab(t *tab) {
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	_, _ = chromedp.Call(ctx, page.Close, cdp.Empty{})
	cancel()
	t.cancel()
	a.forget(t)
}

// forget drops a tab that is gone and its tools.
func (a *app) forget(t *tab) {
	t.mu.Lock()
	already := t.closed
	t.closed = true
	t.mu.Unlock()
	if already {
		return
	}
	a.mu.Lock()
	a.tabs = slices.DeleteFunc(a.tabs, func(x *tab) bool { return x == t })
	a.mu.Unlock()
	a.syncTools()
}

func (a *app) tab(id string) *tab {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, t := range a.tabs {
		if t.id == id {
			return t
		}
	}
	return nil
}

// drives reports whether a tab of the browser's target id is one of webmcp-mcp's.
func (a *app) drives(targetID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.ContainsFunc(a.tabs, func(t *tab) bool { return t.target == targetID })
}

func (a *app) allTabs() []*tab {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.tabs)
}
