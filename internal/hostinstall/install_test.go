//go:build !js

package hostinstall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

func TestInstallHost(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	var out strings.Builder
	err := Install("/opt/bin/webmcp-mcp", "", &out)
	require.ErrorContains(t, err, "no browser found", "nothing installed: nothing written")

	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "chromium"), 0o700))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".mozilla"), 0o700))
	require.NoError(t, Install("/opt/bin/webmcp-mcp", "", &out))
	var chrome, firefox map[string]any
	readJSON(t, filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", "webmcp_bridge.json"), &chrome)
	readJSON(t, filepath.Join(home, ".mozilla", "native-messaging-hosts", "webmcp_bridge.json"), &firefox)
	assert.Equal(t, map[string]any{"name": "webmcp_bridge", "type": "stdio", "path": "/opt/bin/webmcp-mcp",
		"description": chrome["description"], "allowed_origins": []any{nativehost.ExtensionOrigin}}, chrome)
	assert.Equal(t, []any{nativehost.FirefoxExtensionID}, firefox["allowed_extensions"])
	assert.Nil(t, firefox["allowed_origins"])
	assert.NoDirExists(t, filepath.Join(home, ".config", "google-chrome"), "a browser not installed gets nothing")

	dir := filepath.Join(t.TempDir(), "profile", "NativeMessagingHosts")
	require.NoError(t, Install("/opt/bin/webmcp-mcp", dir, &out))
	var only map[string]any
	readJSON(t, filepath.Join(dir, "webmcp_bridge.json"), &only)
	assert.Equal(t, []any{nativehost.ExtensionOrigin}, only["allowed_origins"])
	assert.ErrorContains(t, Install("webmcp-mcp", dir, &out), "must be absolute")

	require.NoError(t, Uninstall("", &out))
	assert.NoFileExists(t, filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", "webmcp_bridge.json"))
	assert.NoFileExists(t, filepath.Join(home, ".mozilla", "native-messaging-hosts", "webmcp_bridge.json"))
	require.NoError(t, Uninstall(dir, &out))
	assert.NoFileExists(t, filepath.Join(dir, "webmcp_bridge.json"))
	assert.True(t, firefoxFolder("/tmp/h/.mozilla/native-messaging-hosts"))
	assert.False(t, firefoxFolder("/tmp/profile/NativeMessagingHosts"))
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}
