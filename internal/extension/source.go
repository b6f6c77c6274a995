//go:build !js

// Package extension is the source of pages of `webmcp-mcp -extension`: the person's own browser,
// reached through the webmcp-bridge extension and its native-messaging host (internal/nativehost).
// The extension decides what an agent sees (the tabs of the origins the person allowed) and asks
// the person before a consequential tool runs; this side speaks to every host it finds in the
// rendezvous directory and turns the browsers' messages into pages for [mcpserver.Server].
package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

// A Source is the [mcpserver.Source] of `webmcp-mcp -extension`: the tabs of the person's own
// browser, reached through the webmcp-bridge extension and its native-messaging host (a
// webmcp-mcp the browser started, [nativehost.Run]) over the host's Unix socket. The extension
// decides what is seen: only tabs of origins the person allowed (in its panel, or with -allow
// here), never an incognito tab; where a page is comes from chrome.tabs, never from the page;
// a consequential tool runs only once the person confirmed it in the browser.
//
// Messages to the browser: hello {allow, confirm, confirmTimeoutMs}, call {id, tab, origin,
// tool, args}, abort {id}. From it: pages {pages: [{tab, window, url, origin, title, tools,
// more, loading}]}, progress {id, message}, result {id, output | error, errorName | tooLarge |
// gone: "navigated" | "closed" | "notool" | decision: "declined" | "timeout" | "cancelled"}.
type Source struct {
	log            *slog.Logger
	allow          []string
	confirm        bool
	confirmTimeout time.Duration
	version        string
	changes        chan struct{}

	mu       sync.Mutex
	browsers map[string]*extBrowser // by socket path
	ids      map[string]string      // "socket|tab" → page id
	lastPage int
	closed   []mcpserver.Page // the last pages that closed, newest last
	calls    map[int64]*extCall
	nextCall int64

	// listed is closed once every browser found at the start has sent its first list of pages
	// (or went away), or at once when none was found: the first tools/list waits for it.
	listed   chan struct{}
	awaiting map[string]bool // the sockets whose first list is still awaited; nil once listed closed
}

// extBrowser is one connected browser (one host).
type extBrowser struct {
	path  string
	conn  *net.UnixConn
	wmu   sync.Mutex
	pages []mcpserver.Page
	tabs  map[string]int // page id → the browser's tab id
}

// extCall is a call waiting for the browser's answer.
type extCall struct {
	browser *extBrowser
	notify  func(string)
	done    chan extResult
}

// extResult is the browser's answer to a call.
type extResult struct {
	Output    *string `json:"output"`
	Error     *string `json:"error"`
	ErrorName string  `json:"errorName"`
	TooLarge  int     `json:"tooLarge"`
	Gone      string  `json:"gone"`
	Decision  string  `json:"decision"` // the person's: declined, timeout, cancelled
}

// extMessage is any message from the browser.
type extMessage struct {
	Type      string    `json:"type"`
	ID        int64     `json:"id"`
	Message   string    `json:"message"`
	Pages     []extPage `json:"pages"`
	extResult           // a result's fields; a host's refusal has its reason in Error
}

// extPage is a tab as the extension describes it: where it is from chrome.tabs, its tools from
// the page.
type extPage struct {
	Tab     int                  `json:"tab"`
	Window  int                  `json:"window"`
	URL     string               `json:"url"`
	Origin  string               `json:"origin"`
	Title   string               `json:"title"`
	Tools   []mcpserver.PageTool `json:"tools"`
	More    int                  `json:"more"`
	Loading bool                 `json:"loading"`
}

// noBrowser is what webmcp_list_pages says while no browser is connected.
const noBrowser = "no browser connected: is the extension installed and the host registered? (webmcp-mcp -install-host)"

// maxClosedPages is how many closed pages Pages still names.
const maxClosedPages = 8

// New makes a Source that offers the tabs of the allow origins (besides those the person
// allowed in the extension), asks the person to confirm consequential tools when confirm is
// set, waiting at most confirmTimeout, and greets each browser as webmcp-mcp version.
func New(
	allow []string,
	confirm bool,
	confirmTimeout time.Duration,
	version string,
	log *slog.Logger,
) *Source {
	return &Source{log: log, allow: allow, confirm: confirm, confirmTimeout: confirmTimeout, version: version,
		changes: make(chan struct{}, 1), browsers: map[string]*extBrowser{}, ids: map[string]string{},
		calls: map[int64]*extCall{}, listed: make(chan struct{}), awaiting: map[string]bool{}}
}

// Listed is closed once the browsers found at the start have listed their pages.
func (s *Source) Listed() <-chan struct{} { return s.listed }

// heard records that the browser at socket path sent its first list of tabs, or went (s.mu
// held); path "" records that the scan at the start is done, so only the browsers it found are
// awaited. Once none is awaited, listed is closed.
func (s *Source) heard(path string) {
	if s.awaiting == nil {
		return
	}
	delete(s.awaiting, path)
	if len(s.awaiting) == 0 {
		s.awaiting = nil
		close(s.listed)
	}
}

// Run connects to every host in the rendezvous directory dir, now and whenever one comes,
// until ctx ends.
func (s *Source) Run(ctx context.Context, dir string) {
	for {
		for _, path := range nativehost.HostSockets(dir) {
			s.mu.Lock()
			_, have := s.browsers[path]
			s.mu.Unlock()
			if have {
				continue
			}
			c, err := nativehost.DialHost(path)
			if err != nil {
				s.log.Debug("cannot reach a host", "socket", path, "err", err)
				continue
			}
			b := &extBrowser{path: path, conn: c, tabs: map[string]int{}}
			s.mu.Lock()
			s.browsers[path] = b
			if s.awaiting != nil {
				s.awaiting[path] = true
			}
			s.mu.Unlock()
			go s.read(b)
			s.hello(b)
		}
		s.mu.Lock()
		s.heard("") // the start's scan is done: only the browsers it found are awaited
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			s.mu.Lock()
			for _, b := range s.browsers {
				b.conn.Close()
			}
			s.mu.Unlock()
			return
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (s *Source) hello(b *extBrowser) {
	msg, _ := json.Marshal(map[string]any{"type": "hello", "allow": s.allow, "confirm": s.confirm,
		"confirmTimeoutMs": s.confirmTimeout.Milliseconds(), "server": "webmcp-mcp " + s.version})
	if err := s.send(b, msg); err != nil {
		s.log.Warn("cannot greet the browser", "err", err)
	}
}

// send writes msg to b's host; one that would not fit native messaging's 1 MB to the browser
// (with the room the host takes to tag it) is refused with that limit named.
func (s *Source) send(b *extBrowser, msg []byte) error {
	if len(msg) > nativehost.MaxToBrowser-nativehost.ClientTagRoom {
		return &nativehost.FrameLimitError{Size: len(msg), Limit: nativehost.MaxToBrowser, What: "to the browser"}
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	return nativehost.WriteFrame(b.conn, msg, nativehost.MaxToBrowser, "to the browser")
}

// read takes the browser's messages until the host goes; then the browser's pages close and
// its calls in flight answer that the browser went away.
func (s *Source) read(b *extBrowser) {
	for {
		raw, err := nativehost.ReadFrame(b.conn, nativehost.MaxFromBrowser, "from the browser")
		if errors.Is(err, nativehost.ErrFrameTooLarge) {
			s.log.Warn("message from the browser refused", "err", err)
			continue
		}
		if err != nil {
			break
		}
		var m extMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			s.log.Warn("unreadable message from the browser", "err", err)
			continue
		}
		s.take(b, m)
	}
	b.conn.Close()
	s.mu.Lock()
	delete(s.browsers, b.path)
	s.heard(b.path)
	s.setPages(b, nil, "the browser disconnected (its native-messaging host stopped)")
	for id, c := range s.calls {
		if c.browser == b {
			delete(s.calls, id)
			c.done <- extResult{Gone: "browser"}
		}
	}
	s.mu.Unlock()
	s.changed()
}

func (s *Source) take(b *extBrowser, m extMessage) {
	switch m.Type {
	case "pages":
		s.mu.Lock()
		s.setPages(b, m.Pages, "closed")
		s.heard(b.path)
		s.mu.Unlock()
		s.changed()
	case "progress":
		s.mu.Lock()
		c := s.calls[m.ID]
		s.mu.Unlock()
		if c != nil && c.notify != nil {
			c.notify(mcpserver.Clip(m.Message, mcpserver.MaxErrorChars))
		}
	case "result":
		s.mu.Lock()
		c := s.calls[m.ID]
		delete(s.calls, m.ID)
		s.mu.Unlock()
		if c != nil {
			c.done <- m.extResult
		}
	case "refused":
		s.log.Warn("the host did not pass a message on", "err", mcpserver.Clip(deref(m.Error), mcpserver.MaxErrorChars))
	}
}

// setPages makes b's pages those listed (s.mu held); pages that are no longer listed close
// with why.
func (s *Source) setPages(b *extBrowser, listed []extPage, why string) {
	var pages []mcpserver.Page
	tabs := map[string]int{}
	for _, p := range listed {
		key := b.path + "|" + strconv.Itoa(p.Tab)
		id, ok := s.ids[key]
		if !ok {
			s.lastPage++
			id = "p" + strconv.Itoa(s.lastPage)
			s.ids[key] = id
		}
		tabs[id] = p.Tab
		pages = append(
			pages,
			mcpserver.Page{
				ID:      id,
				URL:     p.URL,
				Origin:  p.Origin,
				Title:   p.Title,
				Tools:   p.Tools,
				More:    p.More,
				Loading: p.Loading,
			},
		)
	}
	for _, old := range b.pages {
		if _, still := tabs[old.ID]; !still {
			delete(s.ids, b.path+"|"+strconv.Itoa(b.tabs[old.ID]))
			s.closed = append(
				s.closed,
				mcpserver.Page{ID: old.ID, URL: old.URL, Origin: old.Origin, Title: old.Title, Closed: why},
			)
		}
	}
	if n := len(s.closed); n > maxClosedPages {
		s.closed = s.closed[n-maxClosedPages:]
	}
	b.pages, b.tabs = pages, tabs
}

func (s *Source) changed() {
	select {
	case s.changes <- struct{}{}:
	default:
	}
}

// Pages lists the allowed tabs of every connected browser, then the last closed ones.
func (s *Source) Pages(context.Context) []mcpserver.Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []mcpserver.Page
	for _, path := range slices.Sorted(maps.Keys(s.browsers)) {
		out = append(out, s.browsers[path].pages...)
	}
	return append(out, s.closed...)
}

// EmptyMessage is what webmcp_list_pages says when no page is listed: whether a browser is
// connected, and what to do.
func (s *Source) EmptyMessage() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.browsers) == 0 {
		return noBrowser
	}
	return "No tab of an allowed origin is open: allow an origin in the extension's side panel, or start " +
		"webmcp-mcp -extension with -allow ORIGIN."
}

// Open is not offered: the pages are the person's own tabs.
func (s *Source) Open(context.Context, string) (mcpserver.Page, error) {
	return mcpserver.Page{}, fmt.Errorf(
		"%w: with -extension the pages are the tabs of your browser; open the page there (and allow its origin)",
		errors.ErrUnsupported,
	)
}

// Close is not offered either: an agent does not close the person's tabs.
func (s *Source) Close(context.Context, string) error {
	return fmt.Errorf("%w: with -extension an agent does not close your tabs", errors.ErrUnsupported)
}

// ConfirmTime is how much longer than its timeout a call may take, for the person to confirm it.
func (s *Source) ConfirmTime(c mcpserver.ToolCall) time.Duration {
	if !s.confirm {
		return 0
	}
	for _, p := range s.Pages(context.Background()) {
		if p.ID != c.Page {
			continue
		}
		for _, t := range p.Tools {
			if t.Name == c.Tool && needsConfirm(t.Annotations) {
				return s.confirmTimeout
			}
		}
	}
	return 0
}

// needsConfirm: a tool that says it has consequences, and not that it only reads.
func needsConfirm(ann map[string]any) bool {
	return ann["consequentialHint"] == true && ann["readOnlyHint"] != true
}

// Call sends the call to the browser of the page and waits for its answer; when ctx ends the
// browser is told to abort the page's execute.
func (s *Source) Call(ctx context.Context, c mcpserver.ToolCall) (mcpserver.ToolAnswer, error) {
	s.mu.Lock()
	var b *extBrowser
	tab := 0
	for _, br := range s.browsers {
		if t, ok := br.tabs[c.Page]; ok {
			b, tab = br, t
		}
	}
	if b == nil {
		s.mu.Unlock()
		return mcpserver.ToolAnswer{}, mcpserver.ErrPageClosed
	}
	s.nextCall++
	id := s.nextCall
	call := &extCall{browser: b, notify: c.Notify, done: make(chan extResult, 1)}
	s.calls[id] = call
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		delete(s.calls, id)
		s.mu.Unlock()
	}
	msg, err := json.Marshal(
		map[string]any{"type": "call", "id": id, "tab": tab, "origin": c.Origin, "tool": c.Tool, "args": c.Args},
	)
	if err == nil {
		err = s.send(b, msg)
	}
	if err != nil {
		forget()
		return mcpserver.ToolAnswer{}, fmt.Errorf("the call cannot be sent to the browser: %w", err)
	}
	select {
	case r := <-call.done:
		return r.answer()
	case <-ctx.Done():
		forget()
		abort, _ := json.Marshal(map[string]any{"type": "abort", "id": id})
		if err := s.send(b, abort); err != nil {
			s.log.Debug("cannot abort a call", "err", err)
		}
		return mcpserver.ToolAnswer{}, ctx.Err()
	}
}

// answer is the browser's answer as the MCP side takes it.
func (r extResult) answer() (mcpserver.ToolAnswer, error) {
	switch r.Gone {
	case "":
	case "navigated":
		return mcpserver.ToolAnswer{}, mcpserver.ErrNavigated
	case "notool":
		return mcpserver.ToolAnswer{}, mcpserver.ErrNoSuchTool
	case "browser":
		return mcpserver.ToolAnswer{}, fmt.Errorf(
			"%w: the browser disconnected (its native-messaging host stopped)",
			mcpserver.ErrPageClosed,
		)
	default:
		return mcpserver.ToolAnswer{}, fmt.Errorf("%w: %s", mcpserver.ErrPageClosed, mcpserver.Clip(r.Gone, mcpserver.MaxErrorChars))
	}
	switch d := mcpserver.Decision(r.Decision); {
	case d == mcpserver.Declined || d == mcpserver.Unconfirmed:
		return mcpserver.ToolAnswer{Decision: d}, nil
	case d != "":
		return mcpserver.ToolAnswer{Decision: mcpserver.Withdrawn}, nil
	case r.TooLarge > 0:
		return mcpserver.ToolAnswer{TooLarge: r.TooLarge}, nil
	case r.Error != nil:
		return mcpserver.ToolAnswer{Error: r.Error, ErrorName: r.ErrorName}, nil
	case r.Output != nil && len(*r.Output) > mcpserver.MaxOutputBytes:
		return mcpserver.ToolAnswer{TooLarge: len(*r.Output)}, nil
	}
	return mcpserver.ToolAnswer{Output: r.Output}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Changes implements [mcpserver.Source]: a value when a browser listed its tabs anew, or went.
func (s *Source) Changes() <-chan struct{} { return s.changes }
