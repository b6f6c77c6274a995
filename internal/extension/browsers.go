//go:build !js

package extension

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

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
	s.gone(b)
}

// gone closes the pages of browser b, whose host went, and answers its calls in flight; its
// pages are remembered to be found again if it comes back (a restart).
func (s *Source) gone(b *extBrowser) {
	s.mu.Lock()
	delete(s.browsers, b.path)
	s.heard(b.path)
	s.rememberForRestart(b)
	s.setPages(b, nil, "the browser disconnected (its native-messaging host stopped)")
	s.forgetTabs(b)
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
		s.identify(b, m.Browser)
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
// with why. A tab keeps its page id while it is listed, and gets it back when it is listed
// again after a while unlisted (reloading, or its origin switched off and on in the panel).
func (s *Source) setPages(b *extBrowser, listed []extPage, why string) {
	var pages []mcpserver.Page
	tabs := map[string]int{}
	for _, p := range listed {
		id := s.pageID(b, p)
		if _, dup := tabs[id]; dup {
			continue // a tab listed twice: the first
		}
		tabs[id] = p.Tab
		pages = append(
			pages,
			mcpserver.Page{
				ID:      id,
				URL:     p.URL,
				Origin:  p.Origin,
				Title:   p.Title,
				Browser: b.label,
				Tools:   p.Tools,
				More:    p.More,
				Loading: p.Loading,
			},
		)
	}
	for _, old := range b.pages {
		if _, still := tabs[old.ID]; !still {
			s.unlist(tabKey(b, b.tabs[old.ID]))
			s.closed = append(
				s.closed,
				mcpserver.Page{ID: old.ID, URL: old.URL, Origin: old.Origin, Title: old.Title,
					Browser: old.Browser, Closed: why},
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

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
