//go:build !js

package hostinstall

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHostRegistrations: the registry keys -install-host writes on Windows, per browser, and the
// manifest each names (the Chromium family's allowed_origins, Firefox's allowed_extensions).
func TestHostRegistrations(t *testing.T) {
	local := filepath.Join("C:", "Users", "you", "AppData", "Local")
	dir := filepath.Join(local, "webmcp-bridge", "NativeMessagingHosts")
	want := []hostRegistration{
		{"Google Chrome", `Software\Google\Chrome\NativeMessagingHosts\webmcp_bridge`,
			filepath.Join(dir, "webmcp_bridge.json"), false},
		{"Chromium", `Software\Chromium\NativeMessagingHosts\webmcp_bridge`,
			filepath.Join(dir, "webmcp_bridge.json"), false},
		{"Microsoft Edge", `Software\Microsoft\Edge\NativeMessagingHosts\webmcp_bridge`,
			filepath.Join(dir, "webmcp_bridge.json"), false},
		{"Brave", `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\webmcp_bridge`,
			filepath.Join(dir, "webmcp_bridge.json"), false},
		{"Firefox", `Software\Mozilla\NativeMessagingHosts\webmcp_bridge`,
			filepath.Join(dir, "webmcp_bridge.firefox.json"), true},
	}
	assert.Equal(t, want, hostRegistrations(local))
	for _, r := range hostRegistrations(local) {
		m := string(hostManifest(`C:\Users\you\go\bin\webmcp-mcp.exe`, r.firefox))
		assert.Contains(t, m, `"path": "C:\\Users\\you\\go\\bin\\webmcp-mcp.exe"`, r.browser)
		if r.firefox {
			assert.Contains(t, m, `"allowed_extensions"`, r.browser)
		} else {
			assert.Contains(t, m, `"allowed_origins"`, r.browser)
		}
	}
}
