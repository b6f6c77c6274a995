package mcpsdk_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
)

// A go-sdk server whose tool returns WebMCP-style values: an HTML snippet with an attack in it
// and a link. The client gets a sanitized text/html resource, its plain text for the model, a
// notice of what was removed, and a checked resource_link.
func ExampleAddTool() {
	server := mcp.NewServer(&mcp.Implementation{Name: "news", Version: "1.0.0"}, nil)
	server.AddReceivingMiddleware(mcpsdk.CompleteResults())
	type input struct {
		Topic string `json:"topic" jsonschema:"what the article is about"`
	}
	mcpsdk.AddTool(server, &mcp.Tool{Name: "article", Description: "The latest article on a topic"},
		func(ctx context.Context, req *mcp.CallToolRequest, in input) (any, error) {
			return []any{
				mcpsdk.HTML("<h2>" + in.Topic + `</h2><p onclick="steal()">Up <b>12%</b></p>`),
				mcpsdk.Link("https://example.com/"+in.Topic, "Read more"),
			}, nil
		}, &mcpsdk.Options{Policy: bridge.DefaultPolicy()})

	// A client, in memory here; over stdio it is server.Run(ctx, &mcp.StdioTransport{}).
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "article", Arguments: map[string]any{"topic": "sales"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.EmbeddedResource:
			fmt.Printf("resource %s: %s\n", c.Resource.MIMEType, c.Resource.Text)
		case *mcp.TextContent:
			fmt.Printf("text: %q\n", c.Text)
		case *mcp.ResourceLink:
			fmt.Printf("link %q: %s\n", c.Name, c.URI)
		}
	}
	// Output:
	// resource text/html: <h2>sales</h2><p>Up <b>12%</b></p>
	// text: "## sales\n\nUp 12%"
	// text: "[html sanitized: removed onclick=]"
	// link "Read more": https://example.com/sales
}
