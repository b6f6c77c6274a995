package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// packageVersion is web/package.json's version: the one version of a release.
func packageVersion(t *testing.T) string {
	t.Helper()
	var pkg struct{ Version string }
	readJSON(t, checkout.Path("web", "package.json"), &pkg)
	if pkg.Version == "" {
		t.Fatal("web/package.json has no version")
	}
	return pkg.Version
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(text, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// generated is the manifest generate writes for target from the checkout's template.
func generated(t *testing.T, target, template, version string) map[string]any {
	t.Helper()
	tmpl, err := os.ReadFile(checkout.Path(template))
	if err != nil {
		t.Fatal(err)
	}
	text, err := generate(tmpl, target, version)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	var m map[string]any
	if err := json.Unmarshal(text, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestManifestsCarryPackageVersion: the Chromium and Firefox manifests and the MCP Bundle's
// carry web/package.json's version, and each browser's has only the keys that browser knows
// (web-ext lint warns about Chromium's; the Chrome Web Store keeps the ID only with key).
func TestManifestsCarryPackageVersion(t *testing.T) {
	v := packageVersion(t)
	ext := "web/extension/manifest.json"
	chromium := generated(t, "chromium", ext, v)
	firefox := generated(t, "firefox", ext, v)
	bundle := generated(t, "mcpb", "tools/release/mcpb-manifest.json", v)
	for name, m := range map[string]map[string]any{"chromium": chromium, "firefox": firefox, "mcpb": bundle} {
		if m["version"] != v {
			t.Errorf("the %s manifest's version is %v, web/package.json's %s", name, m["version"], v)
		}
	}
	if chromium["key"] == nil || chromium["browser_specific_settings"] != nil || chromium["sidebar_action"] != nil {
		t.Error("the Chromium manifest keeps key (the fixed ID) and drops Firefox's keys")
	}
	if firefox["key"] != nil || firefox["side_panel"] != nil || strings.Contains(toJSON(t, firefox), "sidePanel") ||
		strings.Contains(toJSON(t, firefox), "service_worker") {
		t.Error("the Firefox manifest drops Chromium's side panel, key and service worker")
	}
	if !strings.Contains(toJSON(t, firefox), `"data_collection_permissions":{"required":["none"]}`) {
		t.Error("the Firefox manifest declares that no data is collected, as addons.mozilla.org asks")
	}
	win := toJSON(t, bundle["server"].(map[string]any)["mcp_config"].(map[string]any)["platform_overrides"])
	if strings.Contains(win, "-extension") {
		t.Error("the bundle's Windows entry point asks for -extension, which Windows cannot serve")
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBinaryReportsPackageVersion: webmcp-mcp built as .goreleaser.yaml builds it (the version
// stamped from WEBMCP_BRIDGE_VERSION, which mk/dist.mk sets from web/package.json) prints that
// version for -version and reports it as serverInfo.version.
func TestBinaryReportsPackageVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds webmcp-mcp")
	}
	v := packageVersion(t)
	cfg, err := os.ReadFile(checkout.Path(".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	stamp := regexp.MustCompile(`-X main\.version=\{\{ *\.Env\.WEBMCP_BRIDGE_VERSION *\}\}`)
	if !stamp.Match(cfg) {
		t.Fatal(".goreleaser.yaml does not stamp main.version from WEBMCP_BRIDGE_VERSION")
	}
	dist, err := os.ReadFile(checkout.Path("mk", "dist.mk"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dist), "WEBMCP_BRIDGE_VERSION=$(VERSION)") {
		t.Fatal("mk/dist.mk does not pass web/package.json's version as WEBMCP_BRIDGE_VERSION")
	}
	bin := filepath.Join(t.TempDir(), "webmcp-mcp")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.version="+v, "-o", bin, "./cmd/webmcp-mcp")
	build.Dir = checkout.Path()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		t.Fatalf("webmcp-mcp -version: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "webmcp-mcp "+v {
		t.Errorf("webmcp-mcp -version printed %q, want %q", got, "webmcp-mcp "+v)
	}
	if runtime.GOOS == "windows" {
		return // -extension, which needs no browser to answer initialize, is not served there
	}
	if got := serverInfoVersion(t, bin); got != v {
		t.Errorf("serverInfo.version is %q, want %q", got, v)
	}
}

// serverInfoVersion starts bin with -extension (no browser needed to answer), sends
// initialize over stdio and returns the serverInfo's version.
func serverInfoVersion(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "-extension")
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Wait() }()
	_, err = stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
		`"capabilities":{},"clientInfo":{"name":"version-test","version":"1"}}}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		t.Fatalf("no answer to initialize: %v", err)
	}
	var resp struct {
		Result struct {
			ServerInfo struct{ Version string } `json:"serverInfo"`
		}
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		t.Fatalf("initialize's answer %s: %v", line, err)
	}
	return resp.Result.ServerInfo.Version
}
