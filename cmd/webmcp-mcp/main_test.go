//go:build !js

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
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
	assert.Equal(t, mcpserver.DefaultReadyTimeout, o.ready)
}

func TestServerVersion(t *testing.T) {
	assert.Regexp(t, `^[0-9]+\.[0-9]+\.[0-9]+-devel`, serverVersion(), "a test binary: the version of the sources")
	// go install …@v1.2.3 says what a release build of 1.2.3 says (make dist: -X main.version=1.2.3).
	for in, want := range map[string]string{"v1.2.3": "1.2.3", "v0.4.0-rc.1": "0.4.0-rc.1", "(devel)": "", "": ""} {
		assert.Equal(t, want, installedVersion(in), in)
	}
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
	assert.Equal(t, 45*time.Second, o.ext.confirmTimeout)
	assert.Less(t, o.ext.confirmTimeout, 60*time.Second,
		"a question nobody answers ends before the 60 s after which common clients give up (issue 35, 10)")
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
