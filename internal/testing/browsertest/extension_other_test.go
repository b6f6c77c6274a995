//go:build !js

package browsertest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ourExtensionID is the extension's id, fixed by its manifest's key.
const ourExtensionID = "befiilimdaegkehmfcghiflgmpdehcdc"

// TestSecondExtensionCannotReachOursOrTheHost (issue 35, point 11): a second installed
// extension, with nativeMessaging, next to ours and with webmcp-mcp registered as the host: its
// messages and ports to our extension find no receiver, and the browser refuses it the host,
// whose manifest lists only ours.
func TestSecondExtensionCannotReachOursOrTheHost(t *testing.T) {
	skipWithoutBuild(t)
	s := installedSetup(t)
	ours := fromRoot("web", "dist", "extension")
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "manifest.json"), []byte(`{"manifest_version": 3,
		"name": "another extension", "version": "1", "permissions": ["nativeMessaging"],
		"background": {"service_worker": "other.js"}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(other, "other.js"), []byte("// another extension\n"), 0o644))
	both := ours + "," + other
	ctx, _ := browserIn(t, s.profile, true,
		chromedp.Flag("disable-extensions-except", both), chromedp.Flag("load-extension", both))

	worker := workerOf(t, ctx, "/other.js")
	var got struct{ Message, Connect, Native, NativeMessage string }
	runJSInline(t, worker, "otherext.js", "reachBridge", &got, ourExtensionID)
	t.Logf("%+v", got)
	assert.Contains(t, got.Message, "refused: ", "no receiver for another extension's message")
	assert.Contains(t, got.Connect, "refused: ", "nor for its port")
	assert.Contains(t, got.Native, "refused: ", "the browser refuses it the host")
	assert.Contains(t, got.NativeMessage, "refused: ")
	assert.Contains(t, got.Native, "forbidden", "because the host's manifest lists only our extension")
}
