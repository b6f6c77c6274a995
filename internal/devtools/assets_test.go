//go:build !js

package devtools

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// fakeDist makes a directory with the three files of web/dist.
func fakeDist(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range assetFiles {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("/* "+f+" */"), 0o644))
	}
	return dir
}

func TestFindAssets(t *testing.T) {
	t.Setenv("WEBMCP_BRIDGE_ASSETS", "")
	dist := fakeDist(t)
	got, err := FindAssets(dist)
	require.NoError(t, err)
	assert.Equal(t, dist, got)

	require.NoError(t, os.Remove(filepath.Join(dist, "webmcp-bridge.wasm")))
	_, err = FindAssets(dist)
	assert.ErrorContains(t, err, "webmcp-bridge.wasm is missing (run `make build`")

	t.Setenv("WEBMCP_BRIDGE_ASSETS", fakeDist(t))
	_, err = FindAssets("")
	assert.NoError(t, err, "$WEBMCP_BRIDGE_ASSETS")

	// From a directory with no web/dist anywhere above, and an executable (the test binary)
	// without one beside it: none, and the embedded loader serves.
	t.Setenv("WEBMCP_BRIDGE_ASSETS", "")
	t.Chdir(t.TempDir())
	got, err = FindAssets("")
	require.NoError(t, err)
	assert.Empty(t, got)
	s, err := InjectScript("", "http://127.0.0.1:1/", nil)
	require.NoError(t, err)
	assert.Contains(t, s, "webmcp-bridge "+"0.", "the embedded loader is inlined")
}

func TestServeAssets(t *testing.T) {
	dist := fakeDist(t)
	base, stop, err := ServeAssets(dist)
	require.NoError(t, err)
	defer stop()
	assert.True(t, strings.HasPrefix(base, "http://127.0.0.1:"))
	resp, err := http.Get(base + "webmcp-bridge.wasm")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"), "pages of any origin fetch the module")
	resp, err = http.Get(base + "../assets_test.go")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode, "only the bridge's files are served")
}

func TestInjectScript(t *testing.T) {
	dist := fakeDist(t)
	p := bridge.DefaultPolicy()
	p.Strict = true
	s, err := InjectScript(dist, "http://127.0.0.1:1234/", &p)
	require.NoError(t, err)
	assert.Contains(t, s, "(the loader of webmcp-bridge", "the embedded loader is inlined, whatever -assets holds")
	assert.NotContains(
		t,
		s,
		"/* webmcp-bridge.js */",
		"pages never get -assets' loader, which normalizes (webmcp-mcp does that itself, once)",
	)
	assert.Contains(t, s, `"base":"http://127.0.0.1:1234/"`)
	assert.Contains(t, s, `"strict":true`, "the policy goes to the page's bridge")
	assert.NotContains(t, s, "__CONFIG__")
	assert.NotContains(t, s, "__LOADER__")
	assert.NotContains(t, s, "__READER__")
	assert.Contains(t, s, "__webmcpMcp", "the reader is inlined")
	s, err = InjectScript(dist, "http://x/", nil)
	require.NoError(t, err)
	assert.NotContains(t, s, `"policy"`)
}
