//go:build !js

package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// viewShown is what pages/apps-host.html reports of the viewer.
type viewShown struct {
	Seen       []string `json:"seen"`
	Initialize bool     `json:"initialize"`
	Status     string   `json:"status"`
	Page       string   `json:"page"`
	BodyBottom float64  `json:"bodyBottom"`
	Error      bool     `json:"error"`
	Notices    []string `json:"notices"`
	Texts      []string `json:"texts"`
	Cells      []string `json:"cells"`
	Links      []struct {
		Text, Href, Host string
	} `json:"links"`
	Images []struct {
		Src      string `json:"src"`
		Complete bool   `json:"complete"`
		Alt      string `json:"alt"`
	} `json:"images"`
	Frames []struct {
		Sandbox string  `json:"sandbox"`
		HTML    string  `json:"html"`
		Height  float64 `json:"height"`
	} `json:"frames"`
	Height float64 `json:"height"`
}

// TestMCPAppsViewer (issue 18, 11): every page tool links webmcp-mcp's ui:// viewer in its
// _meta, the resource is text/html;profile=mcp-app, and driven as an MCP Apps host drives a view
// (in headless Chromium, under the hosts' default CSP) it shows each result as the person should
// see it: sanitized HTML in a sandboxed frame, the image, the table as a table, the link with
// its real host, webmcp-mcp's notices as notices.
func TestMCPAppsViewer(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	cs, rec, _ := session(t, serverArgs(t, true, 20*time.Second, base+"/demo/", base+"/test/hostile.html"))
	ctx := context.Background()
	tools := waitTools(t, cs, "article", "price_table", "evil_link")
	for _, tl := range tools.Tools {
		ui, _ := tl.Meta["ui"].(map[string]any)
		if strings.HasPrefix(tl.Name, "webmcp_") {
			assert.Nil(t, ui, "%s: a management tool has no view", tl.Name)
			continue
		}
		require.NotNil(t, ui, "%s links the viewer", tl.Name)
		assert.Equal(t, "ui://webmcp-mcp/viewer.html", ui["resourceUri"], tl.Name)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://webmcp-mcp/viewer.html"})
	require.NoError(t, err)
	require.Len(t, res.Contents, 1)
	assert.Equal(t, "text/html;profile=mcp-app", res.Contents[0].MIMEType)
	html := res.Contents[0].Text
	require.Contains(t, html, "WebMCPBridgeRender", "the project's renderer is inlined")

	results := map[string]json.RawMessage{}
	for _, name := range []string{"article", "price_table", "docs_link", "sales_chart", "find_order", "evil_link"} {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"id": 42}})
		require.NoError(t, err)
		results[name] = rec.Last()
	}

	profile := t.TempDir()
	actx, cancel := chromedp.NewExecAllocator(ctx, headless.Options(chromium(t), profile, false)...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate(base+"/test/apps-host.html")))
	show := func(name string) viewShown {
		t.Helper()
		cctx, cancel := context.WithTimeout(bctx, 30*time.Second)
		defer cancel()
		h, _ := json.Marshal(html)
		s, err := chromedp.Run(
			cctx,
			chromedp.Evaluate[string]("show("+string(h)+", "+string(results[name])+")", chromedp.EvalAwaitPromise),
		)
		require.NoError(t, err, name)
		var v viewShown
		require.NoError(t, json.Unmarshal([]byte(s), &v), s)
		require.True(t, v.Initialize, "%s: the view started with ui/initialize: %v", name, v.Seen)
		assert.Empty(t, v.Status, "%s: the result replaced the waiting line", name)
		assert.Greater(t, v.Height, float64(0))
		assert.InDelta(
			t,
			v.BodyBottom,
			v.Height,
			20,
			"%s: the size reported is the content's, no blank space below",
			name,
		)
		assert.Regexp(t, `^From page p[12] at `+base, v.Page, "%s: which page answered, above the result", name)
		return v
	}

	article := show("article")
	require.Len(t, article.Frames, 1, "the sanitized HTML in its own frame")
	assert.Equal(t, "", article.Frames[0].Sandbox, "a frame with every sandbox flag off: no scripts")
	assert.Contains(t, article.Frames[0].HTML, "<b>rich results</b>")
	assert.NotEqual(
		t,
		float64(150),
		article.Frames[0].Height,
		"the frame is fitted to its document, not the default 150 px",
	)
	for _, bad := range []string{"<script", "onerror", "javascript:"} {
		assert.NotContains(t, article.Frames[0].HTML, bad)
	}

	table := show("price_table")
	assert.Subset(t, table.Cells, []string{"Item"}, "the CSV copy drawn as a table")
	assert.Greater(t, len(table.Cells), 4)

	link := show("docs_link")
	require.Len(t, link.Links, 1)
	assert.Equal(t, "https://github.com/webmachinelearning/webmcp", link.Links[0].Href)
	assert.Contains(t, link.Links[0].Host, "github.com", "the host the browser reads stands beside the name")

	chart := show("sales_chart")
	require.Len(t, chart.Images, 1)
	assert.Equal(t, "data:image/png;base64,", chart.Images[0].Src)
	assert.True(t, chart.Images[0].Complete, "the PNG decodes under the hosts' default CSP")

	order := show("find_order")
	assert.True(t, order.Error, "isError is shown as an error")

	evil := show("evil_link")
	assert.Empty(t, evil.Links, "links webmcp-mcp removed are not drawn")
	assert.NotEmpty(t, evil.Notices, "webmcp-mcp's notices (marked) are drawn as notices")
}
