//go:build !js

package devtools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// tab is one page webmcp-mcp drives: a browser tab with the bridge injected.
type tab struct {
	id     string // "p1", "p2", … as MCP clients name it
	target string // the browser's id of the tab
	src    *Source
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	info    mcpserver.Page
	gen     int  // increases with each main-frame navigation
	closed  bool // the tab is gone
	native  bool // the page has the browser's own ModelContext: it is read from the isolated world
	world   runtime.ExecutionContextID
	worldOf int      // the gen the isolated world belongs to
	dialogs []string // the dialogs dismissed, newest last (a few)
	wanted  string   // the URL it was opened with
	crashed string   // why the tab was closed under its calls, when it was
	refresh chan struct{}
}

// page is the tab as an [mcpserver.Page] of the source.
func (t *tab) page() mcpserver.Page {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.info
	p.ID = t.id
	p.Tools = slices.Clone(p.Tools)
	p.Dialogs = slices.Clone(t.dialogs)
	p.Errors = slices.Clone(p.Errors)
	if p.LoadError != "" {
		p.URL = t.wanted
	}
	return p
}

func (t *tab) snapshot() (mcpserver.Page, int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.info, t.gen, t.closed
}

// setup prepares a tab before it loads anything: the notifier, the injected bridge (also into
// the current document when immediate, for tabs that were open before webmcp-mcp came), CSP
// bypassed so that the module may load on any page, and the events that say the tools or the
// document changed, that a dialog opened or that the renderer died.
func (t *tab) setup(immediate bool) error {
	if _, err := chromedp.Call(t.ctx, inspector.Enable, cdp.Empty{}); err != nil {
		t.src.log.Debug("Inspector domain not available", "page", t.id, "err", err)
	}
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
	// The page's uncaught errors (Runtime) and failed loads (Log), for webmcp_list_pages.
	if _, err := chromedp.Call(t.ctx, runtime.Enable, cdp.Empty{}); err != nil {
		return err
	}
	if _, err := chromedp.Call(t.ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.src.log.Debug("Log domain not available", "page", t.id, "err", err)
	}
	if _, err := chromedp.Call(t.ctx, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
		return err
	}
	run := immediate
	if _, err := chromedp.Call(t.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: t.src.inject, RunImmediately: &run,
	}); err != nil {
		return err
	}
	// reader.js in webmcp-mcp's isolated world from each document's start, so that it hands its
	// door to the bridge before any page script runs (a document already open gets it later,
	// from evalIsolated, without a door).
	if _, err := chromedp.Call(t.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: t.src.reader, WorldName: worldName,
	}); err != nil {
		return err
	}
	if err := chromedp.Listen(t.ctx, t.onEvent); err != nil {
		return err
	}
	if immediate { // a tab open before webmcp-mcp came: where it is, as the browser says
		if tree, err := chromedp.Call(t.ctx, page.GetFrameTree, cdp.Empty{}); err == nil && tree.FrameTree != nil &&
			tree.FrameTree.Frame != nil {
			t.mu.Lock()
			if t.info.URL == "" {
				t.info.URL, t.info.Origin = tree.FrameTree.Frame.URL, tree.FrameTree.Frame.SecurityOrigin
			}
			t.mu.Unlock()
		}
	}
	// Native WebMCP reports registrations itself; without it the call fails, and the page's
	// toolchange events (through the notifier) are enough.
	if _, err := chromedp.Call(t.ctx, webmcp.Enable, cdp.Empty{}); err != nil {
		t.src.log.Debug("WebMCP domain not available", "page", t.id, "err", err)
	}
	go t.refreshLoop()
	return nil
}

// onEvent runs on chromedp's reading goroutine: it only records, signals and starts goroutines.
func (t *tab) onEvent(ev any) {
	switch ev := ev.(type) {
	case *page.EventFrameNavigated:
		if ev.Frame == nil || ev.Frame.ParentID != "" {
			return
		}
		t.mu.Lock()
		t.gen++
		// A new document: its tools and errors are read anew; whether webmcp-mcp is still loading
		// the page, and why it did not load (Chromium then shows its error page), stay.
		t.info = mcpserver.Page{URL: ev.Frame.URL, Origin: ev.Frame.SecurityOrigin,
			Loading: t.info.Loading, LoadError: t.info.LoadError}
		t.mu.Unlock()
		t.scheduleRefresh()
	case *page.EventNavigatedWithinDocument:
		t.mu.Lock()
		t.info.URL = ev.URL
		t.mu.Unlock()
		t.scheduleRefresh()
	case *page.EventJavascriptDialogOpening:
		go t.dismissDialog(ev)
	case *runtime.EventExceptionThrown:
		if d := ev.ExceptionDetails; d != nil && d.ExecutionContextID == t.mainWorld(d) {
			t.pageError(exceptionText(d))
		}
	case *cdplog.EventEntryAdded:
		// The browser's own favicon request is not the page's failure.
		if e := ev.Entry; e != nil && e.Level == cdplog.EntryLevelError && e.Source == cdplog.EntrySourceNetwork &&
			!strings.HasSuffix(e.URL, "/favicon.ico") {
			t.pageError(e.Text + " " + e.URL)
		}
	case *inspector.EventTargetCrashed:
		go t.src.crashed(t, "its renderer crashed or ran out of memory")
	case *page.EventLoadEventFired, *page.EventDomContentEventFired, *webmcp.EventToolsAdded, *webmcp.EventToolsRemoved:
		t.scheduleRefresh()
	}
}

// maxDialogs is how many dismissed dialogs a page keeps to report, maxPageErrors how many
// uncaught errors and failed loads, and maxGonePages how many closed pages the source still lists.
const (
	maxDialogs    = 5
	maxPageErrors = 5
	maxGonePages  = 5
)

// pageError records one of the page's uncaught errors or failed loads (page text, bounded) and
// logs it (-v).
func (t *tab) pageError(text string) {
	text = mcpserver.Clip(strings.TrimSpace(text), 300)
	t.src.log.Debug("page error", "page", t.id, "error", text)
	t.mu.Lock()
	t.info.Errors = append(t.info.Errors, text)
	if len(t.info.Errors) > maxPageErrors {
		t.info.Errors = t.info.Errors[len(t.info.Errors)-maxPageErrors:]
	}
	t.mu.Unlock()
	t.src.notify()
}

// mainWorld is the execution context an exception must come from to be the page's own: any but
// webmcp-mcp's isolated world.
func (t *tab) mainWorld(d *runtime.ExceptionDetails) runtime.ExecutionContextID {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.world != 0 && d.ExecutionContextID == t.world {
		return -1
	}
	return d.ExecutionContextID
}

// exceptionText is an uncaught exception as DevTools reports it: its text, the exception's first
// line, and where.
func exceptionText(d *runtime.ExceptionDetails) string {
	s := d.Text
	if e := d.Exception; e != nil && e.Description != "" {
		first, _, _ := strings.Cut(e.Description, "\n")
		s += " " + first
	}
	if d.URL != "" {
		s += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
	}
	return s
}

// dismissDialog dismisses a dialog the page opened (alert, confirm, prompt; a beforeunload
// dialog is accepted, so the page goes where it was asked to) and records it, so that no dialog
// holds up the page, its load or a call, and the client learns of it.
func (t *tab) dismissDialog(ev *page.EventJavascriptDialogOpening) {
	accept := ev.Type == page.DialogTypeBeforeunload
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
	if err != nil {
		t.src.log.Debug("dismissing a dialog", "page", t.id, "err", err)
	}
	what := "dismissed"
	if accept {
		what = "accepted"
	}
	note := fmt.Sprintf("%s %q %s", ev.Type, mcpserver.Clip(ev.Message, 200), what)
	t.mu.Lock()
	t.dialogs = append(t.dialogs, note)
	if len(t.dialogs) > maxDialogs {
		t.dialogs = t.dialogs[len(t.dialogs)-maxDialogs:]
	}
	t.mu.Unlock()
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
			t.src.forget(t)
			return
		case <-detached:
			t.src.forget(t)
			return
		case <-t.refresh:
		}
		select {
		case <-time.After(30 * time.Millisecond):
		case <-t.ctx.Done():
			continue
		}
		t.list()
	}
}

// list asks the page for its tools and signals a change when it read them: where the browser has
// native WebMCP, from the isolated world; else from the bridge's ModelContext in the page's
// world. Where the page is and its title come from the browser.
func (t *tab) list() {
	if t.read() {
		t.src.notify()
	}
}

// read lists the page's tools into t.info and reports whether it did.
func (t *tab) read() bool {
	_, gen, _ := t.snapshot()
	ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
	defer cancel()
	tools, more, native, err := t.readTools(ctx)
	if err != nil {
		if t.ctx.Err() == nil {
			t.src.log.Debug("listing tools", "page", t.id, "err", err)
		}
		return false
	}
	title := ""
	if ti, err := chromedp.Call(ctx, target.GetTargetInfo, target.GetTargetInfoParams{}); err == nil &&
		ti.TargetInfo != nil {
		title = ti.TargetInfo.Title
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if gen != t.gen {
		t.scheduleRefresh() // the page navigated meanwhile: list the new one
		return false
	}
	t.native = native
	t.info.Title, t.info.Tools, t.info.More = mcpserver.Clip(title, mcpserver.MaxTitleChars), tools, more
	return true
}

// readTools reads the page's tools.
func (t *tab) readTools(ctx context.Context) (tools []mcpserver.PageTool, more int, native bool, err error) {
	s, err := t.evalIsolated(ctx, "__webmcpMcp.list()")
	if err != nil {
		return nil, 0, false, err
	}
	var got struct {
		Native bool                 `json:"native"`
		Tools  []mcpserver.PageTool `json:"tools"`
		More   int                  `json:"more"`
	}
	if err := json.Unmarshal([]byte(s), &got); err != nil {
		return nil, 0, false, fmt.Errorf("the isolated world's tool list is not readable: %w", err)
	}
	if got.Native {
		return got.Tools, got.More, true, nil
	}
	// No native WebMCP: the bridge's own ModelContext is a JS object of the page's world.
	s, err = evalMain(ctx, `typeof window.__webmcpMcp === "object" ? window.__webmcpMcp.list() : '{"tools":[]}'`)
	if err != nil {
		return nil, 0, false, err
	}
	got.Tools = nil
	if err := json.Unmarshal([]byte(s), &got); err != nil {
		return nil, 0, false, fmt.Errorf("the page's tool list is not readable: %w", err)
	}
	return got.Tools, 0, false, nil
}

func (t *tab) crashReason() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.crashed
}
