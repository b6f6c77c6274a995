//go:build !js

// Package hostinstall registers webmcp-mcp as the extension's native-messaging host for the
// browsers of this user (webmcp-mcp -install-host) and removes it again: a host manifest in each
// installed browser's folder on Linux and macOS, keys under HKEY_CURRENT_USER naming a manifest on
// Windows. The manifest lets only the webmcp-bridge extension start the host
// ([nativehost.ExtensionOrigin], [nativehost.FirefoxExtensionID]).
package hostinstall

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

// hostFolder is one browser's per-user folder of native-messaging host manifests.
type hostFolder struct {
	browser string
	config  string // the browser's per-user folder: the browser is taken as installed when it exists
	dir     string // where its host manifests go
	firefox bool   // the manifest names allowed_extensions, not allowed_origins
}

// hostFolders lists where each browser reads host manifests for this user (Linux, macOS).
// Windows reads them from the registry instead (hostRegistrations).
func hostFolders(home, goos string) []hostFolder {
	chromium := [][2]string{ // browser, its folder under ~/.config (Linux) or ~/Library/Application Support (macOS)
		{"Google Chrome", "google-chrome|Google/Chrome"},
		{"Chromium", "chromium|Chromium"},
		{"Microsoft Edge", "microsoft-edge|Microsoft Edge"},
		{"Brave", "BraveSoftware/Brave-Browser|BraveSoftware/Brave-Browser"},
		{"Vivaldi", "vivaldi|Vivaldi"},
	}
	var out []hostFolder
	base, part := filepath.Join(home, ".config"), 0
	if goos == "darwin" {
		base, part = filepath.Join(home, "Library", "Application Support"), 1
	}
	for _, c := range chromium {
		cfg := filepath.Join(base, filepath.FromSlash(strings.Split(c[1], "|")[part]))
		out = append(out, hostFolder{browser: c[0], config: cfg, dir: filepath.Join(cfg, "NativeMessagingHosts")})
	}
	if goos == "darwin" {
		moz := filepath.Join(base, "Mozilla")
		return append(
			out,
			hostFolder{
				browser: "Firefox",
				config:  filepath.Join(base, "Firefox"),
				dir:     filepath.Join(moz, "NativeMessagingHosts"),
				firefox: true,
			},
		)
	}
	return append(
		out,
		hostFolder{
			browser: "Firefox",
			config:  filepath.Join(home, ".mozilla"),
			dir:     filepath.Join(home, ".mozilla", "native-messaging-hosts"),
			firefox: true,
		},
	)
}

// hostManifest is the host manifest for one browser family, pointing at exe.
func hostManifest(exe string, firefox bool) []byte {
	m := map[string]any{
		"name":        nativehost.HostName,
		"description": "webmcp-bridge: joins the webmcp-bridge extension to webmcp-mcp -extension (MCP clients)",
		"path":        exe,
		"type":        "stdio",
	}
	if firefox {
		m["allowed_extensions"] = []string{nativehost.FirefoxExtensionID}
	} else {
		m["allowed_origins"] = []string{nativehost.ExtensionOrigin}
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	return append(b, '\n')
}

// firefoxFolder tells whether a folder given with -host-dir is Firefox's (native-messaging-hosts,
// or under a Mozilla folder) rather than a Chromium-family browser's (NativeMessagingHosts).
func firefoxFolder(dir string) bool {
	if filepath.Base(dir) == "native-messaging-hosts" {
		return true
	}
	return slices.ContainsFunc(strings.Split(filepath.ToSlash(dir), "/"), func(p string) bool {
		return p == ".mozilla" || p == "Mozilla"
	})
}

// Install writes the host manifest for exe (this binary) into the folder of every browser
// installed for this user, or into dir only when it is given, and says where on w. On Windows,
// without dir, it writes the registry keys instead ([hostRegistrations]).
func Install(exe, dir string, w io.Writer) error {
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("the host's path must be absolute, not %q", exe)
	}
	if dir == "" && runtime.GOOS == "windows" {
		if err := registerHost(exe, w); err != nil {
			return err
		}
		fmt.Fprintf(w, "the extension (ID %s, Firefox %s) can now start %s\n", nativehost.ExtensionID, nativehost.FirefoxExtensionID, exe)
		fmt.Fprintln(w, "webmcp-mcp does not serve the extension on Windows yet: see docs/agents-and-mcp-clients.md")
		return nil
	}
	folders, err := chosenFolders(dir)
	if err != nil {
		return err
	}
	for _, f := range folders {
		if err := os.MkdirAll(f.dir, 0o755); err != nil {
			return err
		}
		path := filepath.Join(f.dir, nativehost.HostName+".json")
		if err := os.WriteFile(path, hostManifest(exe, f.firefox), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: wrote %s\n", f.browser, path)
	}
	fmt.Fprintf(w, "the extension (ID %s, Firefox %s) can now start %s\n", nativehost.ExtensionID, nativehost.FirefoxExtensionID, exe)
	return nil
}

// Uninstall removes what [Install] wrote (the same folders, or dir only).
func Uninstall(dir string, w io.Writer) error {
	if dir == "" && runtime.GOOS == "windows" {
		return unregisterHost(w)
	}
	folders, err := chosenFolders(dir)
	if err != nil && dir != "" {
		return err
	}
	if dir == "" {
		folders = hostFolders(homeDir(), runtime.GOOS)
	}
	for _, f := range folders {
		path := filepath.Join(f.dir, nativehost.HostName+".json")
		if err := os.Remove(path); err == nil {
			fmt.Fprintf(w, "%s: removed %s\n", f.browser, path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// chosenFolders is dir alone when given, else the folders of the browsers installed for this
// user.
func chosenFolders(dir string) ([]hostFolder, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		name := "Chromium family"
		if firefoxFolder(abs) {
			name = "Firefox"
		}
		return []hostFolder{{browser: name, dir: abs, firefox: firefoxFolder(abs)}}, nil
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		return nil, fmt.Errorf(
			"-install-host knows the browsers' folders on Linux and macOS (the registry on Windows); on %s "+
				"name the folder with -host-dir",
			runtime.GOOS,
		)
	}
	all := hostFolders(homeDir(), runtime.GOOS)
	var found []hostFolder
	var looked []string
	for _, f := range all {
		if _, err := os.Stat(f.config); err == nil {
			found = append(found, f)
		}
		looked = append(looked, f.config)
	}
	if len(found) == 0 {
		return nil, fmt.Errorf(
			"no browser found for this user (looked for %s); start the browser once, or name the folder with -host-dir",
			strings.Join(looked, ", "),
		)
	}
	return found, nil
}

func homeDir() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return "."
	}
	return h
}
