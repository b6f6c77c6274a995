//go:build linux

package browsertest

import (
	"context"
	"net/url"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/webdriver"
)

// TestExtensionNativeFirefox (issue 25): Firefox ESR with the same extension (installed over
// WebDriver BiDi) and webmcp-mcp registered as its host in a test HOME
// (~/.mozilla/native-messaging-hosts): an MCP client lists and calls a tab's tool.
// Firefox may run the extension's MAIN-world script a task after the relay: the relay hands its
// port over only once the bridge took the hand-off (before, 4 runs in 10 never listed the tools).
// Firefox's console (the extension's too) goes to the test's log, for a failure's story.
func TestExtensionNativeFirefox(t *testing.T) {
	skipWithoutBuild(t)
	s := nativeSetup{bin: webmcpMCP(t), base: serveWeb(t), runtime: t.TempDir()}
	home := t.TempDir()
	t.Setenv("HOME", home) // Firefox reads host manifests from ~/.mozilla and passes HOME to the host
	t.Setenv("XDG_RUNTIME_DIR", s.runtime)
	hostDir := filepath.Join(home, ".mozilla", "native-messaging-hosts")
	out, err := exec.Command(s.bin, "-install-host", "-host-dir", hostDir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "Firefox: wrote")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	ff, err := webdriver.StartFirefox(ctx, webdriver.FirefoxOptions{
		ProfileDir:   t.TempDir(),
		SystemAccess: true, // to open the extension's panel in a tab
		Prefs: map[string]any{
			"devtools.console.stdout.content": true,
			"devtools.console.stdout.chrome":  true,
			"browser.dom.window.dump.enabled": true,
			// The extension's moz-extension:// host, fixed so the test can open its panel.
			"extensions.webextensions.uuids": `{"` + firefoxExtensionID + `":"` + firefoxExtensionUUID + `"}`,
		},
		Output: func(line string) { t.Log("firefox: " + line) },
	})
	if err != nil {
		t.Fatalf("starting Firefox: %v\n(`make firefox`, from mk/browsers.mk, installs it as root)", err)
	}
	t.Cleanup(func() { ff.Close() })
	extDir, err := filepath.Abs(fromRoot("web", "dist", "extension"))
	require.NoError(t, err)
	id, err := ff.InstallExtension(ctx, extDir)
	require.NoError(t, err)
	assert.Equal(t, firefoxExtensionID, id, "the extension's fixed Firefox id")

	require.NoError(t, ff.Open(ctx, s.base+"/test/agent-tools.html"))
	var ok bool
	require.NoError(t, ff.Eval(ctx, `await window.registered; return true`, &ok))
	s.hostPID(t)
	cs, _, progress := s.client(t, "-allow", s.base)
	tools := pageTools(t, cs, 6)
	_, text, isErr := callMCP(
		t,
		context.Background(),
		cs,
		nameFor(t, tools, s.base, "echo"),
		map[string]any{"text": "from Firefox"},
	)
	assert.False(t, isErr)
	assert.Equal(t, "you said from Firefox", text)

	// A consequential tool's question reaches the panel, open before the call (Firefox's
	// background is an event page, not background.js): declined, it does not run; confirmed, it does.
	pageURL := s.base + "/test/agent-tools.html"
	panelURL := "moz-extension://" + firefoxExtensionUUID + "/panel.html?tabUrl=" + url.QueryEscape(pageURL)
	panel, err := ff.OpenPrivileged(ctx, panelURL)
	require.NoError(t, err)
	t.Cleanup(func() { panel.Close() })
	var listed struct{ Ready bool }
	require.NoError(t, panel.Eval(ctx, inlineJS(t, "panel.js", "listing", map[string]any{"tool": "buy"}), &listed))
	require.True(t, listed.Ready, "the panel lists the page's tools")
	buy := nameFor(t, tools, s.base, "buy")
	confirm := func(yes bool) (string, bool) {
		drainProgress(progress)
		type answer struct {
			text  string
			isErr bool
		}
		done := make(chan answer, 1)
		go func() {
			_, text, isErr := callMCP(t, context.Background(), cs, buy, map[string]any{})
			done <- answer{text, isErr}
		}()
		assert.Equal(t, "waiting for you to confirm in the browser", <-progress)
		var q map[string]string
		require.NoError(t, panel.Eval(ctx, inlineJS(t, "panel.js", "answerConfirm", yes), &q))
		require.Equal(t, "buy", q["tool"], "the question reached Firefox's panel, with the tool")
		assert.Contains(t, q["where"], s.base, "and the page")
		a := <-done
		return a.text, a.isErr
	}
	bought := func() float64 {
		var seen map[string]float64
		require.NoError(t, ff.Eval(ctx, `return window.seen`, &seen))
		return seen["bought"]
	}
	text, isErr = confirm(false)
	assert.True(t, isErr)
	assert.Contains(t, text, "you declined")
	assert.Zero(t, bought(), "not run when declined")
	text, isErr = confirm(true)
	assert.False(t, isErr, text)
	assert.Equal(t, "bought", text)
	assert.Equal(t, 1.0, bought())
}

// The extension's id in Firefox (its manifest's browser_specific_settings.gecko.id), and the
// moz-extension:// host the test gives it (pref extensions.webextensions.uuids).
const (
	firefoxExtensionID   = "webmcp-bridge@webmcp-bridge.github.io"
	firefoxExtensionUUID = "6c1f3b2e-5d0a-4c8e-9a7b-2f4e6d8c0a1b"
)
