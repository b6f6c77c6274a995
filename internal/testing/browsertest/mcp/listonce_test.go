//go:build !js

package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestListOnceAndWholeText (issue 36, 5 and 6), with the official TypeScript SDK as the client
// over stdio: a client that lists once and never again reaches a tool a page registered after
// that list, through webmcp_list_tools and webmcp_call_tool; a 300 KB text result keeps its
// first 100,000 characters and the cut's notice, and resources/read of the link the notice
// names gives the whole 307,200.
func TestListOnceAndWholeText(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	args := serverArgs(t, true, 30*time.Second, base+"/test/tools.html", base+"/test/big.html")
	r := probe(t, []probeStep{
		wait("register_more", "big_text"),
		{Op: "list"}, // the client's one list
		callStep("register_more", nil),
		callStep("webmcp_call_tool", map[string]any{"page": "p1", "tool": "later"}),
		callStep("webmcp_list_tools", nil),
		callStep("big_text", nil),
		{Op: "read"},
	}, "stdio", args...)

	var once []struct{ Name string }
	require.NoError(t, json.Unmarshal(r.Steps[1].Tools, &once))
	for _, tl := range once {
		require.NotEqual(t, "later", tl.Name, "registered after the client's list")
	}
	var listed struct {
		Tools []struct {
			Page, Tool  string
			InputSchema map[string]any
		}
	}
	require.NoError(t, json.Unmarshal([]byte(allText(resultOf(t, r.Steps[4]))), &listed))
	var later bool
	for _, tl := range listed.Tools {
		later = later || (tl.Page == "p1" && tl.Tool == "later" && tl.InputSchema["type"] == "object")
	}
	assert.True(t, later, "webmcp_list_tools lists the later tool with its schema")
	called := resultOf(t, r.Steps[3])
	assert.Nil(t, called["isError"])
	assert.Equal(t, "later answers\n", allText(called))

	cut := resultOf(t, r.Steps[5])
	content := cut["content"].([]any)
	require.Len(t, content, 3)
	text := content[0].(map[string]any)["text"].(string)
	assert.Len(t, text, 100_000)
	notice := content[1].(map[string]any)["text"].(string)
	link := content[2].(map[string]any)
	assert.Equal(t, "resource_link", link["type"])
	assert.Contains(t, notice, "307,200 characters exceed the 100,000-character limit")
	assert.Contains(t, notice, link["uri"].(string)+", for resources/read while this session lasts]")
	require.Empty(t, r.Steps[6].Error)
	var read struct {
		Contents []struct{ URI, MimeType, Text string }
	}
	require.NoError(t, json.Unmarshal(r.Steps[6].Result, &read))
	require.Len(t, read.Contents, 1)
	assert.Equal(t, link["uri"], read.Contents[0].URI)
	whole := read.Contents[0].Text
	assert.Len(t, whole, 307_200)
	assert.True(t, strings.HasPrefix(whole, text), "the cut text is the whole's beginning")
	assert.Contains(t, whole, "line 002000 ", "nothing is lost past the cut")
}
