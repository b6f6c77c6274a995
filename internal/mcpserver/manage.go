//go:build !js

package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
)

type openPageIn struct {
	URL string `json:"url"`
}

type closePageIn struct {
	Page string `json:"page"`
}

// stringArgSchema is the input schema of a management tool that takes one string, name.
func stringArgSchema(name, description string) map[string]any {
	return map[string]any{
		"type":       "object",
		"properties": map[string]any{name: map[string]any{"type": "string", "description": description}},
		"required":   []any{name},
	}
}

// pageSummary is how the management tools describe a page.
type pageSummary struct {
	Page      string   `json:"page"`
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Browser   string   `json:"browser,omitempty"`   // which browser, when there are several
	Tools     []string `json:"tools"`               // the MCP names of its tools
	Omitted   int      `json:"omitted,omitempty"`   // tools left out (toolListLimits)
	LoadError string   `json:"loadError,omitempty"` // why it did not load
	Dialogs   []string `json:"dialogs,omitempty"`   // dialogs it opened, dismissed
	Errors    []string `json:"errors,omitempty"`    // its last uncaught errors and failed loads (page text)
}

// summary is how the management tools describe page p.
func (s *Server) summary(p Page) pageSummary {
	sum := pageSummary{
		Page:      p.ID,
		URL:       Clip(p.URL, maxURLChars),
		Title:     Clip(p.Title, MaxTitleChars),
		Browser:   Clip(p.Browser, maxBrowserChars),
		Tools:     []string{},
		Omitted:   p.More,
		LoadError: p.LoadError,
		Dialogs:   p.Dialogs,
		Errors:    p.Errors,
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	sum.Omitted += s.omitted[p.ID]
	for name, w := range s.registered {
		if w.info.ID == p.ID {
			sum.Tools = append(sum.Tools, name)
		}
	}
	slices.Sort(sum.Tools)
	return sum
}

// line is the summary as one line of text.
func (sum pageSummary) line() string {
	tools := "no tools"
	if len(sum.Tools) > 0 {
		tools = "tools: " + strings.Join(sum.Tools, ", ")
	}
	line := fmt.Sprintf("%s: %q %s (%s)", sum.Page, sum.Title, sum.URL, tools)
	if sum.Browser != "" {
		line = fmt.Sprintf("%s: %q %s in %s (%s)", sum.Page, sum.Title, sum.URL, sum.Browser, tools)
	}
	if sum.Omitted > 0 {
		line += fmt.Sprintf("; %d more tools left out (%s)", sum.Omitted, toolListLimits)
	}
	if sum.LoadError != "" {
		line += "; it did not load: " + sum.LoadError + " (open the same URL again to retry)"
	}
	for _, d := range sum.Dialogs {
		line += "; dialog " + d
	}
	for _, e := range sum.Errors {
		line += "; page error (page text): " + strconv.Quote(e)
	}
	return line
}

func (s *Server) addManagementTools() {
	opts := &mcpsdk.Options{Policy: s.policy}
	mcpsdk.AddTool(s.server, &mcp.Tool{Name: toolOpenPage, Title: "Open a page",
		Description: "Opens a URL in the browser; its WebMCP tools become tools.",
		InputSchema: stringArgSchema("url", "an http(s) URL")},
		func(ctx context.Context, _ *mcp.CallToolRequest, in openPageIn) (any, error) {
			if o, err := OriginOf(in.URL); err == nil && !s.Allowed(o) {
				return mcpsdk.Error(
					fmt.Sprintf(
						"%s is not an origin webmcp-mcp may open (-allow %s)",
						o,
						strings.Join(s.allow, " -allow "),
					),
					"",
				), nil
			}
			p, err := s.src.Open(ctx, in.URL)
			if p.ID == "" {
				return nil, err
			}
			s.syncTools()
			sum := s.summary(p)
			if err != nil {
				return map[string]any{
					"content":           []any{mcpsdk.Text("Could not load " + sum.line())},
					"structuredContent": sum,
					"isError":           true,
				}, nil
			}
			return map[string]any{"content": []any{mcpsdk.Text("Opened " + sum.line())}, "structuredContent": sum}, nil
		}, opts)
	mcpsdk.AddTool(s.server, &mcp.Tool{Name: toolListPages, Title: "List pages",
		Description: "Lists the open pages: id, URL, title, tool names.",
		InputSchema: map[string]any{"type": "object"},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (any, error) {
			var lines, closed []string
			pages := []pageSummary{}
			for _, p := range s.src.Pages(ctx) {
				if p.Closed != "" {
					if p.Closed != "closed" {
						closed = append(
							closed,
							fmt.Sprintf("Closed: %s (%s) was closed: %s", p.ID, Clip(p.URL, maxURLChars), p.Closed),
						)
					}
					continue
				}
				sum := s.summary(p)
				pages = append(pages, sum)
				lines = append(lines, sum.line())
			}
			if len(lines) == 0 {
				lines = []string{"No pages are open: open one with webmcp_open_page."}
				if em, ok := s.src.(EmptyMessager); ok {
					lines = []string{em.EmptyMessage()}
				}
			}
			lines = append(lines, closed...)
			return map[string]any{
				"content":           []any{mcpsdk.Text(strings.Join(lines, "\n"))},
				"structuredContent": map[string]any{"pages": pages},
			}, nil
		}, opts)
	mcpsdk.AddTool(s.server, &mcp.Tool{Name: toolClosePage, Title: "Close a page",
		Description: "Closes a page; its tools go away.",
		InputSchema: stringArgSchema("page", "a page id (p1, …)")},
		func(ctx context.Context, _ *mcp.CallToolRequest, in closePageIn) (any, error) {
			if err := s.src.Close(ctx, in.Page); err != nil {
				return mcpsdk.Error(fmt.Sprintf("no page %q is open", in.Page), ""), nil
			}
			s.syncTools()
			return "Closed " + in.Page, nil
		}, opts)
}
