//go:build !js

package devtools

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/checkedargs"
	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// A Source is the [mcpserver.Source] of a Chromium webmcp-mcp drives over DevTools (launched, or
// attached with -browser): each page is a tab with the bridge injected before the page's scripts,
// read and called from an isolated world; where a page is comes from DevTools. Make one with
// [New].
type Source struct {
	browser  context.Context // chromedp context of the browser
	inject   string          // the script every page gets first
	reader   string          // reader.js, evaluated in webmcp-mcp's isolated world of each page
	timeout  time.Duration   // how long opening a page may take
	log      *slog.Logger
	attached bool                     // the browser is the person's (-browser): its tabs are adopted, not launched
	allowed  func(origin string) bool // which of the person's tabs are adopted (nil: all)

	nextCall atomic.Int64
	changes  chan struct{}
	checker  checkedargs.Checker // the claims calls carry, that their arguments were checked here

	mu       sync.Mutex
	tabs     []*tab
	lastPage int
	gone     []mcpserver.Page // pages that closed, newest last (a few)
}

// Options configure a [Source].
type Options struct {
	Inject   string                   // the script every page gets before its own ([InjectScript])
	Timeout  time.Duration            // how long opening a page may take
	Logger   *slog.Logger             // nil: nothing is logged
	Attached bool                     // the browser is the person's (-browser): its tabs are adopted ([Source.AdoptTargets])
	Allowed  func(origin string) bool // which of the person's tabs are adopted (nil: all)
}

// New makes the Source of the browser that browser (a chromedp context from [Start]) drives.
func New(browser context.Context, o Options) *Source {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Source{
		browser:  browser,
		inject:   o.Inject,
		reader:   readerScript(doorSecret),
		timeout:  o.Timeout,
		log:      log,
		attached: o.Attached,
		allowed:  o.Allowed,
		changes:  make(chan struct{}, 1),
	}
}

// Changes implements [mcpserver.Source].
func (s *Source) Changes() <-chan struct{} { return s.changes }

// notify signals a change, coalesced.
func (s *Source) notify() {
	select {
	case s.changes <- struct{}{}:
	default:
	}
}

// Pages implements [mcpserver.Source]. With an attached browser, tabs the person opened since are
// adopted first.
func (s *Source) Pages(ctx context.Context) []mcpserver.Page {
	if s.attached {
		if err := s.AdoptTargets(); err != nil {
			s.log.Debug("adopting tabs", "err", err)
		}
	}
	var out []mcpserver.Page
	for _, t := range s.allTabs() {
		out = append(out, t.page())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(out, s.gone...)
}

// Open implements [mcpserver.Source].
func (s *Source) Open(ctx context.Context, rawURL string) (mcpserver.Page, error) {
	t, err := s.openTab(ctx, rawURL)
	if t == nil {
		return mcpserver.Page{}, err
	}
	return t.page(), err
}

// Close implements [mcpserver.Source].
func (s *Source) Close(ctx context.Context, id string) error {
	t := s.tab(id)
	if t == nil {
		return mcpserver.ErrPageClosed
	}
	s.closeTab(t)
	return nil
}

// Call implements [mcpserver.Source].
func (s *Source) Call(ctx context.Context, c mcpserver.ToolCall) (mcpserver.ToolAnswer, error) {
	t := s.tab(c.Page)
	if t == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, g := range s.gone {
			if g.ID == c.Page {
				return mcpserver.ToolAnswer{}, fmt.Errorf("%w: %s", mcpserver.ErrPageClosed, g.Closed)
			}
		}
		return mcpserver.ToolAnswer{}, mcpserver.ErrPageClosed
	}
	return t.call(ctx, c.Origin, c.Tool, c.Args)
}

// openTab opens url in a new tab with the bridge injected and lists its tools. A page that did
// not load stays listed with the reason (the error is returned too); opening its URL again
// retries in the same tab.
func (s *Source) openTab(ctx context.Context, rawURL string) (*tab, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && rawURL != "about:blank") {
		return nil, fmt.Errorf("%q is not an http(s) URL", mcpserver.Clip(rawURL, 200))
	}
	t := s.failedTab(rawURL)
	if t == nil {
		tctx, cancel := chromedp.NewContext(s.browser)
		t = s.newTab(tctx, cancel, "")
		t.wanted = rawURL
		if err := t.setup(false); err != nil {
			s.closeTab(t)
			return nil, fmt.Errorf("preparing a tab: %w", err)
		}
		if c := chromedp.FromContext(tctx); c != nil && c.Target != nil {
			s.mu.Lock()
			t.target = string(c.Target.TargetID)
			s.mu.Unlock()
		}
	}
	t.mu.Lock()
	t.info.Loading = true
	t.mu.Unlock()
	nctx, ncancel := context.WithTimeout(t.ctx, s.timeout)
	defer ncancel()
	stop := context.AfterFunc(ctx, ncancel)
	defer stop()
	err = chromedp.Do(nctx, chromedp.Navigate(rawURL))
	t.mu.Lock()
	t.info.LoadError = ""
	if err != nil {
		t.info.LoadError = mcpserver.Clip(err.Error(), 300)
	}
	t.mu.Unlock()
	if err == nil {
		t.read()
	}
	t.mu.Lock()
	t.info.Loading = false
	t.mu.Unlock()
	s.notify()
	if err != nil {
		return t, fmt.Errorf("opening %s: %w", mcpserver.Clip(rawURL, 200), err)
	}
	return t, nil
}

// failedTab is the open tab that was opened with rawURL and did not load, if any.
func (s *Source) failedTab(rawURL string) *tab {
	for _, t := range s.allTabs() {
		t.mu.Lock()
		failed := t.info.LoadError != "" && t.wanted == rawURL && !t.closed
		t.mu.Unlock()
		if failed {
			return t
		}
	}
	return nil
}

// crashed closes a tab whose renderer is gone, remembering why for its calls and the page list.
func (s *Source) crashed(t *tab, why string) {
	t.mu.Lock()
	t.crashed = why
	t.mu.Unlock()
	s.log.Warn("closing a page", "page", t.id, "why", why)
	s.closeTab(t)
}

// AdoptTargets takes in the page tabs of an attached browser that webmcp-mcp does not drive yet:
// the bridge goes into their current document and every later one.
func (s *Source) AdoptTargets() error {
	infos, err := chromedp.Targets(s.browser)
	if err != nil {
		return err
	}
	for _, info := range infos {
		if info.Type != "page" || strings.HasPrefix(info.URL, "devtools://") || strings.HasPrefix(info.URL, "chrome") {
			continue
		}
		if s.drives(string(info.TargetID)) {
			continue
		}
		if o, err := mcpserver.OriginOf(info.URL); s.allowed != nil && (err != nil || !s.allowed(o)) {
			continue // a tab of an origin the person did not allow: not touched at all
		}
		tctx, cancel := chromedp.NewContext(
			s.browser,
			chromedp.WithTargetID(info.TargetID),
			chromedp.WithDetachOnCancel(),
		)
		t := s.newTab(tctx, cancel, string(info.TargetID))
		if err := t.setup(true); err != nil {
			s.log.Warn("cannot drive a tab", "url", info.URL, "err", err)
			s.closeTab(t)
			continue
		}
		t.list()
	}
	return nil
}

func (s *Source) newTab(ctx context.Context, cancel context.CancelFunc, targetID string) *tab {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastPage++
	t := &tab{
		id:      fmt.Sprintf("p%d", s.lastPage),
		target:  targetID,
		src:     s,
		ctx:     ctx,
		cancel:  cancel,
		refresh: make(chan struct{}, 1),
	}
	s.tabs = append(s.tabs, t)
	return t
}

// closeTab closes the tab (an attached tab is closed too: that is what was asked) and forgets it.
func (s *Source) closeTab(t *tab) {
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	_, _ = chromedp.Call(ctx, page.Close, cdp.Empty{})
	cancel()
	t.cancel()
	s.forget(t)
}

// forget drops a tab that is gone and its tools.
func (s *Source) forget(t *tab) {
	t.mu.Lock()
	already := t.closed
	t.closed = true
	t.mu.Unlock()
	if already {
		return
	}
	p := t.page()
	p.Tools, p.More, p.Loading = nil, 0, false
	if p.Closed = t.crashReason(); p.Closed == "" {
		p.Closed = "closed"
	}
	s.mu.Lock()
	s.tabs = slices.DeleteFunc(s.tabs, func(x *tab) bool { return x == t })
	s.gone = append(s.gone, p)
	if len(s.gone) > maxGonePages {
		s.gone = s.gone[len(s.gone)-maxGonePages:]
	}
	s.mu.Unlock()
	s.notify()
}

func (s *Source) tab(id string) *tab {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tabs {
		if t.id == id {
			return t
		}
	}
	return nil
}

// drives reports whether a tab of the browser's target id is one of webmcp-mcp's.
func (s *Source) drives(targetID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.tabs, func(t *tab) bool { return t.target == targetID })
}

func (s *Source) allTabs() []*tab {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tabs)
}
