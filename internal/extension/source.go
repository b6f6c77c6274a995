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
	"sync"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/internal/checkedargs"
	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// A Source is the [mcpserver.Source] of `webmcp-mcp -extension`: the tabs of the person's own
// browser, reached through the webmcp-bridge extension and its native-messaging host (a
// webmcp-mcp the browser started, [nativehost.Run]) over the host's Unix socket. The extension
// decides what is seen: only tabs of origins the person allowed (in its panel, or with -allow
// here), never an incognito tab; where a page is comes from chrome.tabs, never from the page;
// a consequential tool runs only once the person confirmed it in the browser.
//
// Messages to the browser: hello {allow, confirm, confirmTimeoutMs}, call {id, tab, origin,
// tool, args, checked?: {schema, args}}, abort {id}. From it: pages {browser: {id, name}, pages: [{tab, window, url,
// origin, title, tools, more, loading}]}, progress {id, message}, result {id, output | error, errorName | tooLarge |
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
	ids      map[string]string      // tabKey → page id, for open tabs and recently unlisted ones
	unlisted []string               // the tabKeys of ids whose tabs are not listed, oldest first
	restart  []restartPage          // pages whose browser went, to be found again when it is back
	lastPage int
	closed   []mcpserver.Page // the last pages that closed, newest last
	calls    map[int64]*extCall
	nextCall int64
	checker  checkedargs.Checker // the claims calls carry, that their arguments were checked here

	// listed is closed once every browser found at the start has sent its first list of pages
	// (or went away), or at once when none was found: the first tools/list waits for it.
	listed   chan struct{}
	awaiting map[string]bool // the sockets whose first list is still awaited; nil once listed closed
}

// extBrowser is one connected browser (one host).
type extBrowser struct {
	path    string
	conn    *net.UnixConn
	wmu     sync.Mutex
	pages   []mcpserver.Page
	tabs    map[string]int // page id → the browser's tab id
	profile string         // the extension's id for the browser's profile, once it said it
	label   string         // which browser, as pages say it ("Chromium", "Chromium 2")

	identified bool // profile and label are set
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
	Type      string       `json:"type"`
	ID        int64        `json:"id"`
	Message   string       `json:"message"`
	Pages     []extPage    `json:"pages"`
	Browser   *extIdentity `json:"browser"` // with pages: which browser and profile
	extResult              // a result's fields; a host's refusal has its reason in Error
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
	schema := toolSchema(b.pages, c.Page, c.Tool)
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
	req := map[string]any{"type": "call", "id": id, "tab": tab, "origin": c.Origin, "tool": c.Tool, "args": c.Args}
	// The arguments checked here against the tool's schema as listed: the page's bridge need not
	// start its module to check them again (internal/checkedargs).
	if claim := s.checker.Claim(schema, c.Args); claim != nil {
		req["checked"] = claim
	}
	msg, err := json.Marshal(req)
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

// toolSchema is the input schema of tool name on page id, as pages list it (nil: none).
func toolSchema(pages []mcpserver.Page, id, name string) map[string]any {
	for _, p := range pages {
		if p.ID != id {
			continue
		}
		for _, t := range p.Tools {
			if t.Name == name {
				return t.InputSchema
			}
		}
	}
	return nil
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

// Changes implements [mcpserver.Source]: a value when a browser listed its tabs anew, or went.
func (s *Source) Changes() <-chan struct{} { return s.changes }
