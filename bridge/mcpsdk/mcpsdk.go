// Package mcpsdk connects package bridge to the official Go MCP SDK
// (github.com/modelcontextprotocol/go-sdk/mcp): it converts a bridge.CallToolResult to the SDK's
// *mcp.CallToolResult and back, and wraps SDK tool handlers so that they may return any
// WebMCP-style value and the client still gets a checked, normalized result.
//
// Quick start — a tool that returns an image and an HTML snippet; the client gets an image block
// whose type is sniffed from its bytes, and sanitized HTML with its plain text:
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "shop"}, nil)
//	chart := func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (any, error) {
//		return []any{mcpsdk.Image(png, "Sales by month"), mcpsdk.HTML("<p>Sales are <b>up</b></p>")}, nil
//	}
//	mcpsdk.AddTool(server, &mcp.Tool{Name: "chart"}, chart, nil)
//
// The package lives apart from bridge so that the SDK never reaches the WebAssembly module.
package mcpsdk

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// ToSDK converts r to the SDK's type. The blocks keep their annotations and _meta, with one loss
// the SDK imposes: its Annotations.Priority is a float64 with omitempty, so a priority of 0
// ("least important") is written as no priority. A nil r gives nil.
func ToSDK(r *bridge.CallToolResult) *mcp.CallToolResult {
	if r == nil {
		return nil
	}
	out := &mcp.CallToolResult{Content: make([]mcp.Content, 0, len(r.Content)), IsError: r.IsError}
	if r.StructuredContent != nil {
		out.StructuredContent = r.StructuredContent
	}
	if r.Meta != nil {
		out.Meta = mcp.Meta(r.Meta)
	}
	for _, c := range r.Content {
		if b := blockToSDK(c); b != nil {
			out.Content = append(out.Content, b)
		}
	}
	return out
}

func blockToSDK(c bridge.Content) mcp.Content {
	switch c := c.(type) {
	case *bridge.TextContent:
		return &mcp.TextContent{Text: c.Text, Annotations: annotationsToSDK(c.Annotations), Meta: c.Meta}
	case *bridge.ImageContent:
		return &mcp.ImageContent{
			Data: c.Data, MIMEType: c.MIMEType, Annotations: annotationsToSDK(c.Annotations), Meta: c.Meta,
		}
	case *bridge.AudioContent:
		return &mcp.AudioContent{
			Data: c.Data, MIMEType: c.MIMEType, Annotations: annotationsToSDK(c.Annotations), Meta: c.Meta,
		}
	case *bridge.ResourceLink:
		return &mcp.ResourceLink{URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description,
			MIMEType: c.MIMEType, Size: c.Size, Annotations: annotationsToSDK(c.Annotations), Meta: c.Meta}
	case *bridge.EmbeddedResource:
		rc := &mcp.ResourceContents{URI: c.Resource.URI, MIMEType: c.Resource.MIMEType, Text: c.Resource.Text,
			Blob: c.Resource.Blob, Meta: c.Resource.Meta}
		return &mcp.EmbeddedResource{Resource: rc, Annotations: annotationsToSDK(c.Annotations), Meta: c.Meta}
	}
	return nil // the set of bridge blocks is closed; nothing else reaches here
}

func annotationsToSDK(a *bridge.Annotations) *mcp.Annotations {
	if a == nil {
		return nil
	}
	out := &mcp.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, mcp.Role(r))
	}
	if a.Priority != nil {
		out.Priority = *a.Priority
	}
	return out
}

// FromSDK converts an SDK result to bridge's type and checks it against the MCP rules
// ((*bridge.CallToolResult).Check). It refuses what a tool result cannot hold: sampling blocks
// (tool_use, tool_result), an embedded resource without contents, structuredContent that is
// not a JSON object. It trusts the values as they are; for output you do not trust, marshal it
// and use bridge.ParseToolOutput, which normalizes it under a policy.
func FromSDK(r *mcp.CallToolResult) (*bridge.CallToolResult, error) {
	if r == nil {
		return nil, errors.New("mcpsdk: nil result")
	}
	out := &bridge.CallToolResult{Content: make([]bridge.Content, 0, len(r.Content)), IsError: r.IsError}
	if r.Meta != nil {
		out.Meta = map[string]any(r.Meta)
	}
	if r.StructuredContent != nil {
		sc, err := structuredObject(r.StructuredContent)
		if err != nil {
			return nil, err
		}
		out.StructuredContent = sc
	}
	for i, c := range r.Content {
		b, err := blockFromSDK(c)
		if err != nil {
			return nil, fmt.Errorf("mcpsdk: content[%d]: %w", i, err)
		}
		out.Content = append(out.Content, b)
	}
	if err := out.Check(); err != nil {
		return nil, fmt.Errorf("mcpsdk: %w", err)
	}
	return out, nil
}

func blockFromSDK(c mcp.Content) (bridge.Content, error) {
	switch c := c.(type) {
	case *mcp.TextContent:
		return &bridge.TextContent{Text: c.Text, Annotations: annotationsFromSDK(c.Annotations), Meta: c.Meta}, nil
	case *mcp.ImageContent:
		return &bridge.ImageContent{
			Data: c.Data, MIMEType: c.MIMEType, Annotations: annotationsFromSDK(c.Annotations), Meta: c.Meta,
		}, nil
	case *mcp.AudioContent:
		return &bridge.AudioContent{
			Data: c.Data, MIMEType: c.MIMEType, Annotations: annotationsFromSDK(c.Annotations), Meta: c.Meta,
		}, nil
	case *mcp.ResourceLink:
		return &bridge.ResourceLink{URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description,
			MIMEType: c.MIMEType, Size: c.Size, Annotations: annotationsFromSDK(c.Annotations), Meta: c.Meta}, nil
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return nil, errors.New("an embedded resource without contents")
		}
		rc := bridge.ResourceContents{URI: c.Resource.URI, MIMEType: c.Resource.MIMEType, Text: c.Resource.Text,
			Blob: c.Resource.Blob, Meta: c.Resource.Meta}
		return &bridge.EmbeddedResource{Resource: rc, Annotations: annotationsFromSDK(c.Annotations), Meta: c.Meta}, nil
	case nil:
		return nil, errors.New("a nil block")
	}
	return nil, fmt.Errorf("%T is not a tool-result block", c)
}

func annotationsFromSDK(a *mcp.Annotations) *bridge.Annotations {
	if a == nil {
		return nil
	}
	out := &bridge.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, bridge.Role(r))
	}
	if a.Priority != 0 {
		p := a.Priority
		out.Priority = &p
	}
	return out
}
