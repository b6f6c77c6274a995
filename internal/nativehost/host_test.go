//go:build !js

package nativehost

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteFrame(&buf, []byte(`{"a":"é"}`), MaxToBrowser, "to the browser"))
	raw := buf.Bytes()
	assert.Equal(
		t,
		uint32(len(`{"a":"é"}`)),
		binary.NativeEndian.Uint32(raw[:4]),
		"the length in the machine's byte order",
	)
	msg, err := ReadFrame(&buf, MaxFromBrowser, "from the browser")
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":"é"}`, string(msg))
	_, err = ReadFrame(&buf, MaxFromBrowser, "from the browser")
	assert.ErrorIs(t, err, io.EOF, "the end between messages is EOF")

	buf.Write([]byte{9, 0})
	_, err = ReadFrame(&buf, MaxFromBrowser, "x")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "a cut length")
	assert.Error(t, WriteFrame(&buf, []byte("not json"), MaxToBrowser, "x"))
}

func TestFrameLimits(t *testing.T) {
	big := append(append([]byte(`"`), bytes.Repeat([]byte("x"), MaxToBrowser)...), '"')
	err := WriteFrame(io.Discard, big, MaxToBrowser, "to the browser")
	require.ErrorIs(t, err, ErrFrameTooLarge)
	assert.Contains(t, err.Error(), "1 MB (1048576 bytes) from the host to the browser")
	assert.Contains(t, err.Error(), "1048578 bytes", "the size refused is named")
	fits := append(append([]byte(`"`), bytes.Repeat([]byte("x"), MaxToBrowser-2)...), '"')
	require.NoError(t, WriteFrame(io.Discard, fits, MaxToBrowser, "to the browser"), "1 MB passes")

	// A message over the limit to the host is read past: the next one is still read.
	var buf bytes.Buffer
	head := make([]byte, 4)
	binary.NativeEndian.PutUint32(head, MaxFromBrowser+1)
	buf.Write(head)
	buf.Write(make([]byte, MaxFromBrowser+1))
	require.NoError(t, WriteFrame(&buf, []byte(`{"next":1}`), MaxFromBrowser, "x"))
	_, err = ReadFrame(&buf, MaxFromBrowser, "from the browser")
	require.ErrorIs(t, err, ErrFrameTooLarge)
	assert.Contains(t, err.Error(), "64 MiB (67108864 bytes) from the browser to the host")
	msg, err := ReadFrame(&buf, MaxFromBrowser, "from the browser")
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
		{args: []string{ExtensionOrigin}, browser: "chromium"},
		{args: []string{ExtensionOrigin, "--parent-window=0"}, browser: "chromium"},
		{args: []string{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"}, err: "only " + ExtensionOrigin},
		{args: []string{firefoxManifest, FirefoxExtensionID}, browser: "firefox"},
		{args: []string{firefoxManifest, "evil@example.com"}, err: "only " + FirefoxExtensionID},
		{args: []string{"-policy", "p.json"}},
	} {
		browser, ok, err := Invocation(c.args)
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
	assert.Equal(t, ExtensionID, id.String())
	assert.Equal(t, FirefoxExtensionID, m.Browser.Gecko.ID)
	assert.Contains(t, m.Permissions, "nativeMessaging")
}

func TestRendezvousDir(t *testing.T) {
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	dir, err := RendezvousDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(run, "webmcp-bridge"), dir)
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())

	require.NoError(t, os.Chmod(dir, 0o755))
	_, err = RendezvousDir()
	assert.ErrorContains(t, err, "open to others", "a directory others can open is refused")

	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_CACHE_HOME", filepath.Join(run, "cache"))
	dir, err = RendezvousDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(run, "cache", "webmcp-bridge-run"), dir)
}

// TestExtensionAgrees: what the extension's service worker must share with the host is the
// host's: its name and the limit of a message to the host.
func TestExtensionAgrees(t *testing.T) {
	src, err := os.ReadFile("../../web/extension/nativelink.ts")
	require.NoError(t, err)
	assert.Contains(t, string(src), `const HOST_NAME = "`+HostName+`";`)
	assert.Contains(t, string(src), "NATIVE_TO_HOST_BYTES as MAX_TO_HOST", "the limit comes from the generated pagelist.ts")
	assert.Equal(t, 64*1024*1024, MaxFromBrowser)
}
