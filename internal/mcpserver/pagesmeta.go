//go:build !js

package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listPagesMeta is the middleware that says once per page, in each tools/list result, where the
// pages of the listed tools are: _meta[metaPages] maps the page id each page tool names
// (_meta[metaPage]) to its URL, origin, title and browser as last listed (pageWhere). A page
// tool's _meta holds only its page's id, so a page of many tools says where it is once.
func (s *Server) listPagesMeta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || list == nil {
			return res, err
		}
		pages := map[string]any{}
		s.syncMu.Lock()
		for _, tl := range list.Tools {
			id, _ := tl.Meta[metaPage].(string)
			if id == "" || pages[id] != nil {
				continue
			}
			info, listed := s.pages[id]
			if !listed {
				w, ok := s.registered[tl.Name]
				if !ok {
					continue
				}
				info = w.info
			}
			pages[id] = pageWhere(info)
		}
		s.syncMu.Unlock()
		if len(pages) > 0 {
			if list.Meta == nil {
				list.Meta = mcp.Meta{}
			}
			list.Meta[metaPages] = pages
		}
		return list, nil
	}
}
