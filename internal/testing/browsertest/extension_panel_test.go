//go:build !js

package browsertest

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// TestExtensionPanelCalls (issue 24, point 9): in the side panel, a required field left empty is
// missing (the bridge refuses the call), not ""; a running call shows its elapsed time and a
// Cancel button that aborts the page's execute; the notice of the page's own bridge (it
// sanitized the HTML before the panel saw it) is in the panel's notices list.
func TestExtensionPanelCalls(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx := extensionBrowser(t, true)
	pageURL := base + "/test/agent-tools.html"
	open(t, ctx, pageURL)
	var ok bool
	eval(t, ctx, `await window.registered; return true`, &ok)
	panel := openPanel(t, ctx, pageURL)

	type shown struct {
		Title, From, Text string
		Notices           []string
	}
	var empty, filled, rich shown
	runJSInline(t, panel, "panel.js", "callWith", &empty, "echo", map[string]string{"text": ""})
	assert.NotContains(t, empty.Text, "you said", "an empty required field is not sent as \"\"")
	assert.Contains(t, empty.Text, "text", "the refusal names the missing field")
	runJSInline(t, panel, "panel.js", "callWith", &filled, "echo", map[string]string{"text": "hi"})
	assert.Contains(t, filled.Text, "you said hi")

	var cancelled struct {
		Running      bool   `json:"running"`
		Elapsed      string `json:"elapsed"`
		CancelHidden bool   `json:"cancelHidden"`
		Text         string `json:"text"`
	}
	runJSInline(t, panel, "panel.js", "cancelRunning", &cancelled, "slow")
	assert.True(t, cancelled.Running, "the elapsed time and Cancel show while the call runs")
	assert.Regexp(t, `^[0-9]+\.[0-9] s$`, cancelled.Elapsed)
	assert.True(t, cancelled.CancelHidden, "Cancel goes with the answer")
	assert.Equal(
		t,
		map[string]float64{"bought": 0, "started": 1, "aborted": 1},
		seen(t, ctx),
		"the page's execute saw the abort",
	)
	assert.Contains(t, cancelled.Text, "Abort")

	runJSInline(t, panel, "panel.js", "callWith", &rich, "rich", map[string]string{})
	// The relay hands on the tool's value prepared: the sanitize notice is the panel's own.
	require.Len(t, rich.Notices, 1, "the sanitize notice is listed once")
	assert.True(t, strings.HasPrefix(rich.Notices[0], "[html sanitized: removed"), rich.Notices[0])
}

// TestExtensionPanelMetaKeys: the panel's notice keys are the bridge's (written once, in Go).
func TestExtensionPanelMetaKeys(t *testing.T) {
	skipWithoutBuild(t)
	src, err := os.ReadFile(fromRoot("web", "extension", "panel.ts"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "const NOTICE_KEY = "+strconv.Quote(bridge.NoticeMetaKey)+";\n")
	assert.Contains(t, string(src), "const EXTRA_KEY = "+strconv.Quote(bridge.ExtraMetaKey)+";\n")
}
