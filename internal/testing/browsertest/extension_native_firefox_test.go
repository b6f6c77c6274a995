//go:build linux

package browsertest

import (
	"context"
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
	s := nativeSetup{bin: webmcpMCP(t), base: serveWeb(t), runtime: t.TempDir()}
	home := t.TempDir()
	t.Setenv("HOME", home) // Firefox reads host manifests from ~/.mozilla and passes HOME to the host
	t.Setenv("XDG_RUNTIME_DIR", s.runtime)
	hostDir := filepath.Join(home, ".mozilla", "native-messaging-hosts")
	out, err := exec.Command(s.bin, "-install-host", "-host-dir", hostDir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "Firefox: wrote")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	ff, err := webdriver.StartFirefox(ctx, webdriver.FirefoxOptions{
		ProfileDir: t.TempDir(),
		Prefs: map[string]any{
			"devtools.console.stdout.content": true,
			"devtools.console.stdout.chrome":  true,
			"browser.dom.window.dump.enabled": true,
		},
		Output: func(line string) { t.Log("firefox: " + line) },
	})
	if err != nil {
		t.Fatalf("starting Firefox: %v\n(`make firefox`, from mk/browsers.mk, installs it as root)", err)
	}
	t.Cleanup(func() { ff.Close() })
	extDir, err := filepath.Abs(filepath.Join("..", "..", "..", "web", "dist", "extension"))
	require.NoError(t, err)
	id, err := ff.InstallExtension(ctx, extDir)
	require.NoError(t, err)
	assert.Equal(t, "webmcp-bridge@webmcp-bridge.github.io", id, "the extension's fixed Firefox id")

	require.NoError(t, ff.Open(ctx, s.base+"/test/agent-tools.html"))
	var ok bool
	require.NoError(t, ff.Eval(ctx, `await window.registered; return true`, &ok))
	s.hostPID(t)
	cs, _, _ := s.client(t, "-allow", s.base)
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
}
