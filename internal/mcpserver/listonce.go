//go:build !js

package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// For clients that list tools once and ignore notifications/tools/list_changed (Claude Code and
// Claude Desktop are reported to), webmcp_list_tools lists every offered page tool with its
// schema, and webmcp_call_tool calls one by page and name: through [Server.runTool], the same
// checks, confirmation and normalization as the tool's own name.
const (
	toolListTools = "webmcp_list_tools"
	toolCallTool  = "webmcp_call_tool"
)

// listedTool is one page tool as webmcp_list_tools gives it.
type listedTool struct {
	Page        string         `json:"page"`
	Tool        string         `json:"tool"`    // its WebMCP name: webmcp_call_tool's "tool"
	MCPName     string         `json:"mcpName"` // its name in tools/list
	Description string         `json:"description"`
	InputSchema any            `json:"inputSchema"`
	Annotations map[string]any `json:"annotations,omitempty"` // the page's claims
}

// callToolSchema is webmcp_call_tool's input schema.
var callToolSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"page":      map[string]any{"type": "string"},
		"tool":      map[string]any{"type": "string"},
		"arguments": map[string]any{"type": "object"},
	},
	"required": []any{"page", "tool"},
}

func (s *Server) addListOnceTools() {
	s.server.AddTool(&mcp.Tool{Name: toolListTools, Title: "List page tools",
		Description: "Lists every page's tools with their schemas; " + toolCallTool + " calls them.",
		InputSchema: map[string]any{"type": "object"},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.waitReady(ctx)
			s.syncTools()
			tools := s.listedTools()
			b, _ := json.Marshal(map[string]any{"tools": tools})
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
				StructuredContent: json.RawMessage(b),
			}, nil
		})
	s.server.AddTool(&mcp.Tool{Name: toolCallTool, Title: "Call a page tool",
		Description: "Calls a page's tool by page and tool, as " + toolListTools + " lists them.",
		InputSchema: callToolSchema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Page      string          `json:"page"`
				Tool      string          `json:"tool"`
				Arguments json.RawMessage `json:"arguments"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return ownError("arguments", "invalid arguments: "+Clip(err.Error(), 300)), nil
			}
			w, ok := s.lookup(in.Page, in.Tool)
			if !ok {
				s.waitReady(ctx)
				if w, ok = s.awaitTool(ctx, in.Page, in.Tool); !ok {
					return s.notOffered(ctx, in.Page, in.Tool), nil
				}
			}
			return s.runTool(ctx, req, w, in.Arguments)
		})
}

// listedTools is every page tool the server offers, by page then name.
func (s *Server) listedTools() []listedTool {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	out := []listedTool{}
	for name, w := range s.registered {
		out = append(out, listedTool{Page: w.info.ID, Tool: w.page.Name, MCPName: name,
			Description: w.tool.Description, InputSchema: w.tool.InputSchema, Annotations: w.page.Annotations})
	}
	slices.SortFunc(out, func(a, b listedTool) int {
		return cmp.Or(cmp.Compare(len(a.Page), len(b.Page)), strings.Compare(a.Page, b.Page),
			strings.Compare(a.Tool, b.Tool))
	})
	return out
}

// lookup is the offered tool named tool (its WebMCP name, or its MCP name) of page.
func (s *Server) lookup(page, tool string) (wantedTool, bool) {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if w, ok := s.registered[tool]; ok && w.info.ID == page {
		return w, true
	}
	for _, w := range s.registered {
		if w.info.ID == page && w.page.Name == tool {
			return w, true
		}
	}
	return wantedTool{}, false
}

// awaitToolTime is how long webmcp_call_tool waits for a tool its open page does not list yet: a
// tool the page registered a moment ago is listed once the source read the page again.
const awaitToolTime = 2 * time.Second

// awaitTool is lookup after the server followed the source, waiting up to awaitToolTime while
// page is open but has no such tool yet.
func (s *Server) awaitTool(ctx context.Context, page, tool string) (wantedTool, bool) {
	deadline := time.Now().Add(awaitToolTime)
	for {
		s.syncTools()
		if w, ok := s.lookup(page, tool); ok {
			return w, true
		}
		open := slices.ContainsFunc(s.src.Pages(ctx), func(p Page) bool {
			return p.ID == page && p.Closed == "" && s.Allowed(p.Origin)
		})
		if !open || time.Now().After(deadline) {
			return wantedTool{}, false
		}
		select {
		case <-ctx.Done():
			return wantedTool{}, false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// notOffered is webmcp_call_tool's answer when page offers no tool of that name: the page is
// not open (or not allowed), or has no such tool now.
func (s *Server) notOffered(ctx context.Context, page, tool string) *mcp.CallToolResult {
	for _, p := range s.src.Pages(ctx) {
		if p.ID != page || p.Closed != "" || !s.Allowed(p.Origin) {
			continue
		}
		return ownError("missing", fmt.Sprintf("page %s (%s) has no tool %q now; %s lists them",
			page, Clip(p.URL, maxURLChars), Clip(tool, 200), toolListTools))
	}
	return ownError("closed", fmt.Sprintf("no page %q is open; %s lists the pages' tools",
		Clip(page, 50), toolListTools))
}
