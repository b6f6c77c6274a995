//go:build linux

package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/webdriver"
)

// The release as a new user installs it (issue 38, point 3): the packed extensions and the
// downloaded binary, not the checkout's build. $WEBMCP_BRIDGE_RELEASE is a folder of release
// files as `make dist` names them (`make dist-check` passes out/dist; `make installed`, which
// `make test` runs, a folder with this platform's pieces only); without it these tests skip.
const releaseEnv = "WEBMCP_BRIDGE_RELEASE"

// release is the folder of release files, or skips t.
func release(t *testing.T) string {
	t.Helper()
	skipWithoutBuild(t)
	dir := os.Getenv(releaseEnv)
	if dir == "" {
		t.Skip(releaseEnv + " is not set: make dist-check and make installed set it to the release's folder")
	}
	return dir
}

// releaseFile is the one file of the release matching pattern (a filepath.Match pattern).
func releaseFile(t *testing.T, dir, pattern string) string {
	t.Helper()
	found, err := filepath.Glob(filepath.Join(dir, pattern))
	require.NoError(t, err)
	require.Len(t, found, 1, "one %s in %s", pattern, dir)
	return found[0]
}

// unpack extracts the archive (.zip, .xpi or .tar.gz) into a new folder with the tools a person
// would use, and returns the folder.
func unpack(t *testing.T, archive string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("unzip", "-q", archive, "-d", dir)
	if strings.HasSuffix(archive, ".tar.gz") {
		cmd = exec.Command("tar", "-xzf", archive, "-C", dir)
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s: %s", cmd, out)
	return dir
}

// installedHost is a new user's machine: HOME is a new folder where the browser of config (a
// folder under HOME, e.g. .config/chromium) has run once, webmcp-mcp comes from this platform's
// release archive, and `webmcp-mcp -install-host` (no flags, as the README says) registered it.
// It returns the setup for the package's native-messaging helpers, without a browser yet.
func installedHost(t *testing.T, rel, config, wrote string) nativeSetup {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home) // the browser reads host manifests under HOME and passes HOME on
	s := nativeSetup{base: serveWeb(t), runtime: t.TempDir(), profile: filepath.Join(home, config)}
	t.Setenv("XDG_RUNTIME_DIR", s.runtime)
	require.NoError(t, os.MkdirAll(s.profile, 0o700))
	s.bin = filepath.Join(unpack(t, releaseFile(t, rel, "webmcp-mcp_*_linux_"+runtime.GOARCH+".tar.gz")), "webmcp-mcp")
	out, err := exec.Command(s.bin, "-install-host").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), wrote, "-install-host registered the host for the browser")
	return s
}

// usable checks that an MCP client of `webmcp-mcp -extension` lists the tools of the tab at
// s.base's agent-tools page, which the extension brought the bridge to, and calls two: a
// plain one, and one whose HTML comes back sanitized.
func usable(t *testing.T, s nativeSetup) {
	t.Helper()
	s.hostPID(t)
	cs, _, _ := s.client(t, "-allow", s.base)
	tools := pageTools(t, cs, 6)
	ctx := context.Background()
	_, text, isErr := callMCP(t, ctx, cs, nameFor(t, tools, s.base, "echo"), map[string]any{"text": "installed"})
	assert.False(t, isErr)
	assert.Equal(t, "you said installed", text)
	raw, _, isErr := callMCP(t, ctx, cs, nameFor(t, tools, s.base, "rich"), map[string]any{})
	assert.False(t, isErr)
	assert.Contains(t, raw, `"mimeType":"text/html"`)
	assert.NotContains(t, raw, "alert(1)", "sanitized")
}

// TestInstalledChromium (issue 38, point 3): the release's Chromium zip, unzipped and loaded
// (--load-extension, headless) into the profile ~/.config/chromium, runs with its fixed ID,
// and webmcp-mcp from the release archive, registered by -install-host, reaches a tab's tools
// through it.
func TestInstalledChromium(t *testing.T) {
	rel := release(t)
	s := installedHost(t, rel, filepath.Join(".config", "chromium"), "Chromium: wrote")
	ext := unpack(t, releaseFile(t, rel, "webmcp-bridge-chromium_*.zip"))
	s.ctx, s.close = browserIn(t, s.profile, false, // no native WebMCP, as in most people's Chrome
		chromedp.Flag("disable-extensions-except", ext), chromedp.Flag("load-extension", ext))
	assert.Equal(t, nativehost.ExtensionID, extensionID(t, s.ctx), "the zip keeps the fixed ID the host allows")
	s.tab(t, s.base+"/test/agent-tools.html")
	usable(t, s)
}

// TestInstalledFirefox (issue 38, point 3): the release's .xpi installed into a Firefox ESR
// profile as a file in its extensions folder (unsigned, which ESR accepts with
// xpinstall.signatures.required off) runs: its content script gives the bridge to a page and
// its background hands the page's tools to webmcp-mcp from the release archive, registered by
// -install-host.
func TestInstalledFirefox(t *testing.T) {
	rel := release(t)
	s := installedHost(t, rel, ".mozilla", "Firefox: wrote")
	profile := t.TempDir()
	xpi, err := os.ReadFile(releaseFile(t, rel, "webmcp-bridge-firefox_*.xpi"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(profile, "extensions"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(profile, "extensions", nativehost.FirefoxExtensionID+".xpi"), xpi, 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	ff, err := webdriver.StartFirefox(ctx, webdriver.FirefoxOptions{
		ProfileDir: profile,
		Prefs: map[string]any{
			"xpinstall.signatures.required": false,
			// Add-ons put in the profile's folder are enabled without asking.
			"extensions.autoDisableScopes": 0,
		},
		Output: func(line string) { t.Log("firefox: " + line) },
	})
	if err != nil {
		t.Fatalf("starting Firefox: %v\n(`make firefox`, from mk/browsers.mk, installs it as root)", err)
	}
	t.Cleanup(func() { ff.Close() })
	require.NoError(t, ff.Open(ctx, s.base+"/test/agent-tools.html"))
	var bridged bool
	require.NoError(t, ff.Eval(ctx, `await window.registered; return typeof window.WebMCPBridge === "object"`, &bridged))
	require.True(t, bridged, "the extension's content script gave the page the bridge")
	usable(t, s)
}
