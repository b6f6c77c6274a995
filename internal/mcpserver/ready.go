//go:build !js

package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OpenAtStart opens urls (the -open pages) one after the other in the background, while the
// server already answers: a page that loads slowly, opens dialogs or cannot be reached never
// holds up initialize. The first tools/list waits for them (awaitPages), at most the ready
// timeout ([Options].ReadyTimeout).
func (s *Server) OpenAtStart(ctx context.Context, urls []string) {
	s.readyBy = time.Now().Add(s.readyTimeout)
	s.pending = slices.Clone(urls)
	go func() {
		defer close(s.ready)
		for _, u := range urls {
			if _, err := s.src.Open(ctx, u); err != nil {
				s.log.Warn("-open", "err", err)
			}
			s.syncTools()
			s.pendingMu.Lock()
			s.pending = s.pending[1:]
			s.pendingMu.Unlock()
		}
	}()
}

// DefaultReadyTimeout is the default -ready-timeout.
const DefaultReadyTimeout = 10 * time.Second

// awaitPages is the middleware that lets one-shot clients see the -open pages' tools: tools/list,
// and tools/call of a name the server does not have, wait until every -open page loaded (or
// failed), at most until readyBy. A call of a name that belonged to a page that closed is
// answered so; one still unknown when pages are still loading says which.
func (s *Server) awaitPages(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			if late := s.waitReady(ctx); late != "" {
				s.log.Warn("tools/list answered while pages are still loading", "pages", late)
			}
		case "tools/call":
			params, ok := req.GetParams().(*mcp.CallToolParamsRaw)
			if !ok || s.offers(params.Name) {
				break
			}
			late := s.waitReady(ctx)
			if s.offers(params.Name) {
				break
			}
			if r := s.unknownTool(ctx, params.Name, late); r != nil {
				return r, nil
			}
		}
		return next(ctx, method, req)
	}
}

// offers reports whether the server has a page tool or management tool of that name.
func (s *Server) offers(name string) bool {
	if slices.Contains(managementTools, name) {
		return true
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	_, ok := s.registered[name]
	return ok
}

// waitReady waits for the -open pages until readyBy, and returns the URLs still loading then.
func (s *Server) waitReady(ctx context.Context) (loading string) {
	timer := time.NewTimer(time.Until(s.readyBy))
	defer timer.Stop()
	select {
	case <-s.ready:
		return ""
	case <-ctx.Done():
	case <-timer.C:
	}
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	return strings.Join(s.pending, ", ")
}

// unknownTool is the answer to a call of a name the server does not have, when webmcp-mcp can say
// more than the SDK's "unknown tool": the page that had it closed or navigated away (its tools
// there have new names), or pages are still loading.
func (s *Server) unknownTool(ctx context.Context, name, loading string) *mcp.CallToolResult {
	s.syncMu.Lock()
	o, gone := s.names.goneOwner(name)
	held, known := s.names.owners[name]
	s.syncMu.Unlock()
	if gone && s.comesBack(ctx, name, o) {
		return nil // the page is back with the tool: the call goes to it
	}
	if known && held.key.page != "" { // the page may be open again (a tab the extension lists again)
		if r := s.movedAway(ctx, name, held); r != nil {
			return r
		}
	}
	switch {
	case gone:
		return ownError(
			"gone",
			fmt.Sprintf("the page that had the tool %q is gone (it was %s, page %s); list the tools again",
				name, Clip(o.url, maxURLChars), o.key.page),
		)
	case loading != "":
		return ownError(
			"loading",
			fmt.Sprintf("no tool %q yet: still loading after %s (-ready-timeout): %s", name, s.readyTimeout, loading),
		)
	}
	return nil
}

// comebackWait is how long a call of a name whose page went a moment ago waits for the page to
// come back: a tab the extension stops listing while it reloads, or while its origin is switched
// off and on, is back with its names within it.
const comebackWait = 3 * time.Second

// comesBack waits, until comebackWait after its page went, for name to be offered again, and
// reports whether it is; only for a page the source says may come back ([Returner]).
func (s *Server) comesBack(ctx context.Context, name string, o nameOwner) bool {
	if r, ok := s.src.(Returner); !ok || !r.MayReturn(o.key.page) {
		return false
	}
	until := time.NewTimer(time.Until(o.goneAt.Add(comebackWait)))
	defer until.Stop()
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	for !s.offers(name) {
		select {
		case <-ctx.Done():
			return false
		case <-until.C:
			return false
		case <-poll.C:
		}
	}
	return true
}

// movedAway is the answer to a call of name, which page o.key.page had at o.key.origin and no
// longer offers: it is at another origin now, or no longer lists the tool. nil when the page is
// not open (unknownTool's other answers apply).
func (s *Server) movedAway(ctx context.Context, name string, o nameOwner) *mcp.CallToolResult {
	for _, p := range s.src.Pages(ctx) {
		if p.ID != o.key.page || p.Closed != "" {
			continue
		}
		if p.Origin != o.key.origin {
			return ownError("navigated", fmt.Sprintf(
				"page %s navigated away: the tool %q was of %s, the page is now at %s (its tools there have "+
					"other names); list the tools again",
				p.ID, name, Clip(o.url, maxURLChars), Clip(p.URL, maxURLChars)))
		}
		return ownError("gone", fmt.Sprintf(
			"page %s (%s) no longer offers the tool %q; list the tools again", p.ID, Clip(p.URL, maxURLChars), name))
	}
	return nil
}

// AwaitListed makes the first tools/list (and a call of a name not known yet) wait, at most
// the ready timeout, until listed is closed — until the source listed its pages, as it waits for
// the pages of [Server.OpenAtStart]. what names what is awaited in the answer of a call that
// waited in vain.
func (s *Server) AwaitListed(ctx context.Context, listed <-chan struct{}, what string) {
	s.readyBy = time.Now().Add(s.readyTimeout)
	s.pending = []string{what}
	go func() {
		select {
		case <-listed:
		case <-ctx.Done():
		}
		s.syncTools()
		s.pendingMu.Lock()
		s.pending = nil
		s.pendingMu.Unlock()
		close(s.ready)
	}()
}
