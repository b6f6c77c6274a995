//go:build !js

package hostinstall

import (
	"path/filepath"

	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

// hostRegistration is where one browser on Windows finds the host: a key under
// HKEY_CURRENT_USER whose default value is the path of a manifest file (Windows browsers read no
// folder of manifests).
type hostRegistration struct {
	browser  string
	key      string // under HKEY_CURRENT_USER
	manifest string // the manifest file the key names
	firefox  bool   // the manifest names allowed_extensions, not allowed_origins
}

// hostRegistrations lists the keys -install-host writes on Windows and the manifests they name,
// kept in webmcp-bridge\NativeMessagingHosts under localAppData (%LOCALAPPDATA%): one manifest
// for the Chromium family, one for Firefox. Vivaldi reads Google Chrome's key.
func hostRegistrations(localAppData string) []hostRegistration {
	dir := filepath.Join(localAppData, "webmcp-bridge", "NativeMessagingHosts")
	chromium := filepath.Join(dir, nativehost.HostName+".json")
	out := []hostRegistration{}
	for _, b := range [][2]string{
		{"Google Chrome", `Software\Google\Chrome`},
		{"Chromium", `Software\Chromium`},
		{"Microsoft Edge", `Software\Microsoft\Edge`},
		{"Brave", `Software\BraveSoftware\Brave-Browser`},
	} {
		out = append(out, hostRegistration{
			browser: b[0], key: b[1] + `\NativeMessagingHosts\` + nativehost.HostName, manifest: chromium,
		})
	}
	return append(out, hostRegistration{
		browser:  "Firefox",
		key:      `Software\Mozilla\NativeMessagingHosts\` + nativehost.HostName,
		manifest: filepath.Join(dir, nativehost.HostName+".firefox.json"),
		firefox:  true,
	})
}
