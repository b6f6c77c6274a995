//go:build !js

package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// Nothing a limit cuts is lost for good: when maxTextChars cuts a text block (or the text of a
// resource) of a page tool's result, the result keeps the cut text and the bridge's notice, the
// notice names a resource that holds the whole text, and a resource_link to it follows the
// notice. The client reads it with resources/read while its session lasts. What is kept is
// bounded per session (keptPerSession results, keptBytesPerSession bytes; the oldest go first)
// and forgotten when the session ends. Stateless HTTP (2026-07-28) has no session to keep it
// in: there the notice says the whole was not kept.
const (
	keptPerSession      = 16
	keptBytesPerSession = 32 << 20
	keptURIPrefix       = "webmcp-mcp://result/"
)

// keptText is the whole text of one block a limit cut.
type keptText struct {
	uri, mime, text string
}

// keptTexts holds the whole texts of cut blocks per session, newest last.
type keptTexts struct {
	mu        sync.Mutex
	bySession map[*mcp.ServerSession][]keptText
}

// statelessKey marks the context of a request served statelessly (see [Server.Handler]).
type statelessKey struct{}

// addKeptResource offers the kept texts as resources (resources/read), each only to the session
// it was kept for.
func (s *Server) addKeptResource() {
	s.kept.bySession = map[*mcp.ServerSession][]keptText{}
	s.server.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: keptURIPrefix + "{id}", Name: "cut-text",
		Title:       "The whole of a cut text",
		Description: "The whole text of a page tool's result block that a limit cut; named by the cut's notice.",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		s.kept.mu.Lock()
		defer s.kept.mu.Unlock()
		for _, k := range s.kept.bySession[req.Session] {
			if k.uri == uri {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
					{URI: uri, MIMEType: k.mime, Text: k.text}}}, nil
			}
		}
		return nil, mcp.ResourceNotFoundError(uri)
	})
}

// keep stores text for session ss and returns its URI, dropping the session's oldest texts past
// the bounds; it forgets the session's texts when the session ends.
func (s *Server) keep(ss *mcp.ServerSession, mime, text string) string {
	var id [16]byte
	rand.Read(id[:])
	k := keptText{uri: keptURIPrefix + hex.EncodeToString(id[:]), mime: mime, text: text}
	s.kept.mu.Lock()
	defer s.kept.mu.Unlock()
	list, had := s.kept.bySession[ss]
	list = append(list, k)
	size := 0
	for _, k := range list {
		size += len(k.text)
	}
	for len(list) > keptPerSession || (size > keptBytesPerSession && len(list) > 1) {
		size -= len(list[0].text)
		list = list[1:]
	}
	s.kept.bySession[ss] = list
	if !had {
		go func() {
			ss.Wait()
			s.kept.mu.Lock()
			delete(s.kept.bySession, ss)
			s.kept.mu.Unlock()
		}()
	}
	return k.uri
}

// keepWhole finds the blocks of r that maxTextChars cut, keeps their whole text for ss and names
// it in each cut's notice, followed by a resource_link. The whole text is output normalized again
// under p without the text limit, so it is sanitized as the cut text was.
func (s *Server) keepWhole(ctx context.Context, ss *mcp.ServerSession, r *bridge.CallToolResult, output string,
	p bridge.Policy) {
	if !hasCut(r) {
		return
	}
	whole := p
	whole.MaxTextChars = MaxOutputBytes
	full, _ := bridge.ParseToolOutput(output, whole)
	blocks := ownBlocks(full)
	var out []bridge.Content
	item := 0 // the blocks of r that are not notices, so far
	var last bridge.Content
	for _, c := range r.Content {
		out = append(out, c)
		if !isNotice(c) {
			item++
			last = c
			continue
		}
		t := c.(*bridge.TextContent)
		if noticeLimit(t) != "maxTextChars" || item == 0 || item > len(blocks) {
			continue
		}
		mime, text := blockText(blocks[item-1])
		if _, cut := blockText(last); text == "" || !strings.HasPrefix(text, cut) {
			continue // not the same block: normalizing again did not give the same blocks
		}
		q := *t
		out[len(out)-1] = &q
		if stateless, _ := ctx.Value(statelessKey{}).(bool); stateless || ss == nil {
			q.Text = strings.TrimSuffix(q.Text, "]") +
				"; the whole was not kept: stateless HTTP (2026-07-28) has no session to keep it in]"
			continue
		}
		uri := s.keep(ss, mime, text)
		q.Text = strings.TrimSuffix(q.Text, "]") + fmt.Sprintf("; the whole (%s) is %s, for resources/read "+
			"while this session lasts]", sanitize.FormatBytes(int64(len(text))), uri)
		size := int64(len(text))
		out = append(out, &bridge.ResourceLink{URI: uri, Name: "whole-text", Title: "The whole text, uncut",
			MIMEType: mime, Size: &size,
			Meta: map[string]any{bridge.NoticeMetaKey: map[string]any{"limit": "maxTextChars"}}})
	}
	r.Content = out
}

func hasCut(r *bridge.CallToolResult) bool {
	for _, c := range r.Content {
		if t, ok := c.(*bridge.TextContent); ok && noticeLimit(t) == "maxTextChars" {
			return true
		}
	}
	return false
}

// noticeLimit is the limit a notice block names ("" for any other block).
func noticeLimit(t *bridge.TextContent) string {
	m, _ := t.Meta[bridge.NoticeMetaKey].(map[string]any)
	limit, _ := m["limit"].(string)
	return limit
}

func isNotice(c bridge.Content) bool {
	t, ok := c.(*bridge.TextContent)
	if !ok {
		return false
	}
	_, notice := t.Meta[bridge.NoticeMetaKey]
	return notice
}

// ownBlocks is r's blocks less the bridge's notices: the blocks made of what the page returned.
func ownBlocks(r *bridge.CallToolResult) []bridge.Content {
	var out []bridge.Content
	for _, c := range r.Content {
		if !isNotice(c) {
			out = append(out, c)
		}
	}
	return out
}

// blockText is the type and text of a text block or a text resource.
func blockText(c bridge.Content) (mime, text string) {
	switch c := c.(type) {
	case *bridge.TextContent:
		return "text/plain", c.Text
	case *bridge.EmbeddedResource:
		return c.Resource.MIMEType, c.Resource.Text
	}
	return "text/plain", ""
}
