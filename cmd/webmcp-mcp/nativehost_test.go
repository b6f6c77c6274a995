//go:build !js

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, writeFrame(&buf, []byte(`{"a":"é"}`), maxToBrowser, "to the browser"))
	raw := buf.Bytes()
	assert.Equal(
		t,
		uint32(len(`{"a":"é"}`)),
		binary.NativeEndian.Uint32(raw[:4]),
		"the length in the machine's byte order",
	)
	msg, err := readFrame(&buf, maxFromBrowser, "from the browser")
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":"é"}`, string(msg))
	_, err = readFrame(&buf, maxFromBrowser, "from the browser")
	assert.ErrorIs(t, err, io.EOF, "the end between messages is EOF")

	buf.Write([]byte{9, 0})
	_, err = readFrame(&buf, maxFromBrowser, "x")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "a cut length")
	assert.Error(t, writeFrame(&buf, []byte("not json"), maxToBrowser, "x"))
}

func TestFrameLimits(t *testing.T) {
	big := append(append([]byte(`"`), bytes.Repeat([]byte("x"), maxToBrowser)...), '"')
	err := writeFrame(io.Discard, big, maxToBrowser, "to the browser")
	require.ErrorIs(t, err, errFrameTooLarge)
	assert.Contains(t, err.Error(), "1 MB (1048576 bytes) from the host to the browser")
	assert.Contains(t, err.Error(), "1048578 bytes", "the size refused is named")
	fits := append(append([]byte(`"`), bytes.Repeat([]byte("x"), maxToBrowser-2)...), '"')
	require.NoError(t, writeFrame(io.Discard, fits, maxToBrowser, "to the browser"), "1 MB passes")

	// A message over the limit to the host is read past: the next one is still read.
	var buf bytes.Buffer
	head := make([]byte, 4)
	binary.NativeEndian.PutUint32(head, maxFromBrowser+1)
	buf.Write(head)
	buf.Write(make([]byte, maxFromBrowser+1))
	require.NoError(t, writeFrame(&buf, []byte(`{"next":1}`), maxFromBrowser, "x"))
	_, err = readFrame(&buf, maxFromBrowser, "from the browser")
	require.ErrorIs(t, err, errFrameTooLarge)
	assert.Contains(t, err.Error(), "64 MiB (67108864 bytes) from the browser to the host")
	msg, err := readFrame(&buf, maxFromBrowser, "from the browser")
	require.NoError(t, err)
	assert.Equal(t, `{"next":1}`, string(msg))
}

func TestHostInvocation(t *testing.T) {
	const firefoxManifest = "/home/u/.mozilla/native-messaging-hosts/webmcp_bridge.json"
	for _, c := range []struct {
		args    []string
		browser string
		err     string
	}{
		{args: nil},
		{args: []string{"-extension"}},
		{args: []string{"-open", "https://a.example/"}},
		{args: []string{extensionOrigin}, browser: "chromium"},
		{args: []string{extensionOrigin, "--parent-window=0"}, browser: "chromium"},
		{args: []string{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"}, err: "only " + extensionOrigin},
		{args: []string{firefoxManifest, firefoxExtensionID}, browser: "firefox"},
		{args: []string{firefoxManifest, "evil@example.com"}, err: "only " + firefoxExtensionID},
		{args: []string{"-policy", "p.json"}},
	} {
		browser, ok, err := hostInvocation(c.args)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, c.args)
			assert.False(t, ok)
			continue
		}
		require.NoError(t, err, c.args)
		assert.Equal(t, c.browser != "", ok, c.args)
		assert.Equal(t, c.browser, browser, c.args)
	}
}

// TestExtensionIdentity checks the fixed IDs against the extension's manifest: Chromium's ID is
// the first 128 bits of the SHA-256 of the manifest's public key, written with the letters a–p.
func TestExtensionIdentity(t *testing.T) {
	b, err := os.ReadFile("../../web/extension/manifest.json")
	require.NoError(t, err)
	var m struct {
		Key         string   `json:"key"`
		Permissions []string `json:"permissions"`
		Browser     struct {
			Gecko struct {
				ID string `json:"id"`
			} `json:"gecko"`
		} `json:"browser_specific_settings"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	der, err := base64.StdEncoding.DecodeString(m.Key)
	require.NoError(t, err)
	sum := sha256.Sum256(der)
	var id strings.Builder
	for _, c := range sum[:16] {
		id.WriteByte('a' + c>>4)
		id.WriteByte('a' + c&15)
	}
	assert.Equal(t, extensionID, id.String())
	assert.Equal(t, firefoxExtensionID, m.Browser.Gecko.ID)
	assert.Contains(t, m.Permissions, "nativeMessaging")
}

func TestInstallHost(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	var out strings.Builder
	err := installHost("/opt/bin/webmcp-mcp", "", &out)
	require.ErrorContains(t, err, "no browser found", "nothing installed: nothing written")

	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "chromium"), 0o700))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".mozilla"), 0o700))
	require.NoError(t, installHost("/opt/bin/webmcp-mcp", "", &out))
	var chrome, firefox map[string]any
	readJSON(t, filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", "webmcp_bridge.json"), &chrome)
	readJSON(t, filepath.Join(home, ".mozilla", "native-messaging-hosts", "webmcp_bridge.json"), &firefox)
	assert.Equal(t, map[string]any{"name": "webmcp_bridge", "type": "stdio", "path": "/opt/bin/webmcp-mcp",
		"description": chrome["description"], "allowed_origins": []any{extensionOrigin}}, chrome)
	assert.Equal(t, []any{firefoxExtensionID}, firefox["allowed_extensions"])
	assert.Nil(t, firefox["allowed_origins"])
	assert.NoDirExists(t, filepath.Join(home, ".config", "google-chrome"), "a browser not installed gets nothing")

	dir := filepath.Join(t.TempDir(), "profile", "NativeMessagingHosts")
	require.NoError(t, installHost("/opt/bin/webmcp-mcp", dir, &out))
	var only map[string]any
	readJSON(t, filepath.Join(dir, "webmcp_bridge.json"), &only)
	assert.Equal(t, []any{extensionOrigin}, only["allowed_origins"])
	assert.ErrorContains(t, installHost("webmcp-mcp", dir, &out), "must be absolute")

	require.NoError(t, uninstallHost("", &out))
	assert.NoFileExists(t, filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", "webmcp_bridge.json"))
	assert.NoFileExists(t, filepath.Join(home, ".mozilla", "native-messaging-hosts", "webmcp_bridge.json"))
	require.NoError(t, uninstallHost(dir, &out))
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

func TestRendezvousDir(t *testing.T) {
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	dir, err := rendezvousDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(run, "webmcp-bridge"), dir)
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())

	require.NoError(t, os.Chmod(dir, 0o755))
	_, err = rendezvousDir()
	assert.ErrorContains(t, err, "open to others", "a directory others can open is refused")

	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_CACHE_HOME", filepath.Join(run, "cache"))
	dir, err = rendezvousDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(run, "cache", "webmcp-bridge-run"), dir)
}

// browserEnd is the browser's side of a host's stdin and stdout.
type browserEnd struct {
	toHost   *io.PipeWriter
	fromHost *io.PipeReader
}

func (b browserEnd) read(t *testing.T) map[string]any {
	t.Helper()
	msg, err := readFrame(b.fromHost, maxToBrowser, "to the browser")
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(msg, &m))
	return m
}

func (b browserEnd) write(t *testing.T, s string) {
	t.Helper()
	require.NoError(t, writeFrame(b.toHost, []byte(s), maxFromBrowser, "from the browser"))
}

// startHost runs a host in this process with a private rendezvous directory.
func startHost(t *testing.T) (browserEnd, string, chan error) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- runHost(inR, outW, slog.New(slog.DiscardHandler)); outW.Close() }()
	dir, err := rendezvousDir()
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(hostSockets(dir)) == 1 }, 5*time.Second, 10*time.Millisecond)
	return browserEnd{inW, outR}, dir, done
}

func TestHostRoutes(t *testing.T) {
	b, dir, done := startHost(t)
	sock := hostSockets(dir)[0]
	fi, err := os.Stat(sock)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	c1, err := dialHost(sock)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"type": "client", "event": "open", "client": 1.0}, b.read(t))
	c2, err := dialHost(sock)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"type": "client", "event": "open", "client": 2.0}, b.read(t))

	require.NoError(t, writeFrame(c2, []byte(`{"type":"call","id":7}`), maxToBrowser, "x"))
	assert.Equal(t, map[string]any{"client": 2.0, "type": "call", "id": 7.0}, b.read(t), "tagged with its client")
	require.NoError(t, writeFrame(c1, []byte(`{}`), maxToBrowser, "x"))
	assert.Equal(t, map[string]any{"client": 1.0}, b.read(t))

	b.write(t, `{"client":2,"type":"result","id":7}`)
	b.write(t, `{"client":1,"type":"pages"}`)
	got, err := readFrame(c2, maxFromBrowser, "x")
	require.NoError(t, err)
	assert.JSONEq(t, `{"client":2,"type":"result","id":7}`, string(got), "each answer to its own client")
	got, err = readFrame(c1, maxFromBrowser, "x")
	require.NoError(t, err)
	assert.JSONEq(t, `{"client":1,"type":"pages"}`, string(got))

	// A message over 1 MB for the browser is refused to its sender, with the limit named.
	big := `{"args":"` + strings.Repeat("x", maxToBrowser) + `"}`
	require.NoError(t, writeFrame(c1, []byte(big), maxFromBrowser, "x"))
	got, err = readFrame(c1, maxFromBrowser, "x")
	require.NoError(t, err)
	assert.Contains(t, string(got), `"type":"refused"`)
	assert.Contains(t, string(got), "1 MB (1048576 bytes) from the host to the browser")

	c1.Close()
	assert.Equal(t, map[string]any{"type": "client", "event": "close", "client": 1.0}, b.read(t))

	// The browser closes the port: the host ends, its socket goes, its servers are disconnected.
	b.toHost.Close()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the host did not end with its stdin")
	}
	assert.Empty(t, hostSockets(dir), "the socket is removed")
	_, err = readFrame(c2, maxFromBrowser, "x")
	assert.ErrorIs(t, err, io.EOF)
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

// TestExtensionAgrees: what the extension's service worker must share with the host is the
// host's: its name and the limit of a message to the host.
func TestExtensionAgrees(t *testing.T) {
	src, err := os.ReadFile("../../web/extension/nativelink.ts")
	require.NoError(t, err)
	assert.Contains(t, string(src), `const HOST_NAME = "`+nativeHostName+`";`)
	assert.Contains(t, string(src), "const MAX_TO_HOST = 64 * 1024 * 1024;")
	assert.Equal(t, 64*1024*1024, maxFromBrowser)
}
