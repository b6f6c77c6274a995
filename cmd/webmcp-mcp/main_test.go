//go:build !js

package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

func TestParseFlags(t *testing.T) {
	o, err := parseFlags(
		[]string{"-open", "https://a.example/", "-open", "https://b.example/", "-http", "127.0.0.1:0",
			"-timeout", "5s", "-webmcp=false"},
		io.Discard,
	)
	require.NoError(t, err)
	assert.Equal(t, listFlag{"https://a.example/", "https://b.example/"}, o.open)
	assert.Equal(t, "127.0.0.1:0", o.httpAddr)
	assert.Equal(t, 5*time.Second, o.timeout)
	assert.False(t, o.webmcp)

	o, err = parseFlags(nil, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, defaultTimeout, o.timeout, "the default timeout")
	assert.Less(t, o.timeout, 60*time.Second, "below the clients' own 60 s")
	assert.True(t, o.webmcp, "native WebMCP by default")

	_, err = parseFlags([]string{"https://a.example/"}, io.Discard)
	assert.ErrorContains(t, err, "URLs go with -open")
	_, err = parseFlags([]string{"-timeout", "0s"}, io.Discard)
	assert.ErrorContains(t, err, "-timeout must be positive")
	o, err = parseFlags(
		[]string{"-browser", "http://127.0.0.1:9222",
			"-allow", "https://shop.example/", "-allow", "http://localhost:8080"},
		io.Discard,
	)
	require.NoError(t, err)
	assert.Equal(t, []string{"https://shop.example", "http://localhost:8080"}, o.ext.origins())
	_, err = parseFlags([]string{"-allow", "https://shop.example/cart"}, io.Discard)
	assert.ErrorContains(t, err, "an origin is scheme://host[:port]")
	assert.Equal(t, defaultReadyTimeout, o.ready)
}

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
	got, err := findAssets(dist)
	require.NoError(t, err)
	assert.Equal(t, dist, got)

	require.NoError(t, os.Remove(filepath.Join(dist, "webmcp-bridge.wasm")))
	_, err = findAssets(dist)
	assert.ErrorContains(t, err, "webmcp-bridge.wasm is missing (run `make build`")

	t.Setenv("WEBMCP_BRIDGE_ASSETS", fakeDist(t))
	_, err = findAssets("")
	assert.NoError(t, err, "$WEBMCP_BRIDGE_ASSETS")

	// From a directory with no web/dist anywhere above, and an executable (the test binary)
	// without one beside it: none, and the embedded loader serves.
	t.Setenv("WEBMCP_BRIDGE_ASSETS", "")
	t.Chdir(t.TempDir())
	got, err = findAssets("")
	require.NoError(t, err)
	assert.Empty(t, got)
	s, err := injectScript("", "http://127.0.0.1:1/", nil)
	require.NoError(t, err)
	assert.Contains(t, s, "webmcp-bridge "+"0.", "the embedded loader is inlined")
}

func TestServerVersion(t *testing.T) {
	assert.Regexp(t, `^[0-9]+\.[0-9]+\.[0-9]+-devel`, serverVersion(), "a test binary: the version of the sources")
}

func TestServeAssets(t *testing.T) {
	dist := fakeDist(t)
	base, stop, err := serveAssets(dist)
	require.NoError(t, err)
	defer stop()
	assert.True(t, strings.HasPrefix(base, "http://127.0.0.1:"))
	resp, err := http.Get(base + "webmcp-bridge.wasm")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"), "pages of any origin fetch the module")
	resp, err = http.Get(base + "../main_test.go")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode, "only the bridge's files are served")
}

func TestInjectScript(t *testing.T) {
	dist := fakeDist(t)
	p := bridge.DefaultPolicy()
	p.Strict = true
	s, err := injectScript(dist, "http://127.0.0.1:1234/", &p)
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
	s, err = injectScript(dist, "http://x/", nil)
	require.NoError(t, err)
	assert.NotContains(t, s, `"policy"`)
}

func TestObjectSchema(t *testing.T) {
	assert.Equal(t, map[string]any{"type": "object"}, objectSchema(nil))
	in := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}
	assert.Equal(t, in, objectSchema(in))
	assert.Equal(
		t,
		"object",
		objectSchema(map[string]any{"properties": map[string]any{}})["type"],
		"a schema without a type is an object schema",
	)
	s := objectSchema(map[string]any{"type": "string"})
	assert.Equal(t, "object", s["type"])
	assert.Contains(t, s["description"], `{"type":"string"}`)
}

// run refuses a bad policy file or missing assets before it starts a browser, naming why.
func TestRunRefuses(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "policy.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"maxImageByte": 1}`), 0o644))
	err := run(
		context.Background(),
		options{policyFile: bad, timeout: time.Second},
		strings.NewReader(""),
		io.Discard,
		io.Discard,
	)
	assert.ErrorContains(t, err, `unknown setting "maxImageByte"`)
	err = run(
		context.Background(),
		options{policyFile: filepath.Join(t.TempDir(), "none.json"), timeout: time.Second},
		strings.NewReader(""),
		io.Discard,
		io.Discard,
	)
	assert.ErrorContains(t, err, "-policy")
	err = run(
		context.Background(),
		options{assets: t.TempDir(), timeout: time.Second},
		strings.NewReader(""),
		io.Discard,
		io.Discard,
	)
	assert.ErrorContains(t, err, "is missing (run `make build`")
}

func TestClip(t *testing.T) {
	assert.Equal(t, "abc", clip("abc", 3))
	assert.Equal(t, "ab…", clip("abc", 2))
	assert.Equal(t, "é…", clip("éé", 1), "cut between characters, not bytes")
}

func TestExtensionFlags(t *testing.T) {
	o, err := parseFlags(
		[]string{
			"-extension",
			"-allow",
			"https://shop.example",
			"-allow",
			"http://localhost:8080/",
			"-confirm",
			"never",
			"-confirm-timeout",
			"30s",
		},
		io.Discard,
	)
	require.NoError(t, err)
	assert.True(t, o.ext.enabled)
	assert.Equal(t, []string{"https://shop.example", "http://localhost:8080"}, o.ext.origins())
	assert.Equal(t, "never", o.ext.confirm)
	assert.Equal(t, 30*time.Second, o.ext.confirmTimeout)

	o, err = parseFlags([]string{"-extension"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "always", o.ext.confirm, "confirmation is on by default")
	assert.Equal(t, 2*time.Minute, o.ext.confirmTimeout)
	assert.Empty(t, o.ext.origins(), "nothing allowed by default")

	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"-extension", "-allow", "shop.example"}, "an origin is scheme://host"},
		{[]string{"-extension", "-allow", "https://shop.example/cart"}, "an origin is scheme://host"},
		{[]string{"-extension", "-allow", "file:///etc"}, "an origin is scheme://host"},
		{[]string{"-extension", "-confirm", "sometimes"}, "-confirm must be always or never"},
		{[]string{"-extension", "-confirm-timeout", "0s"}, "-confirm-timeout must be positive"},
		{[]string{"-confirm", "never"}, "go with -extension"},
		{[]string{"-browser", "http://127.0.0.1:9222", "-confirm-timeout", "1m"}, "go with -extension"},
		{[]string{"-extension", "-open", "https://a.example/"}, "-open, -browser and -headed do not go with it"},
		{[]string{"-host-dir", "/tmp/x"}, "-host-dir goes with -install-host"},
	} {
		_, err := parseFlags(c.args, io.Discard)
		assert.ErrorContains(t, err, c.err, c.args)
	}
}
