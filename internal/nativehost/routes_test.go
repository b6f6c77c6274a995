//go:build !js

package nativehost_test

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost/hosttest"
)

// TestHostRoutes: the host tags each server's messages with its number on their way to the
// browser, and passes each of the browser's answers to the server it names only.
func TestHostRoutes(t *testing.T) {
	b, dir, done := hosttest.Start(t)
	sock := nativehost.HostSockets(dir)[0]
	fi, err := os.Stat(sock)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	c1, err := nativehost.DialHost(sock)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"type": "client", "event": "open", "client": 1.0}, b.Read(t))
	c2, err := nativehost.DialHost(sock)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"type": "client", "event": "open", "client": 2.0}, b.Read(t))

	require.NoError(t, nativehost.WriteFrame(c2, []byte(`{"type":"call","id":7}`), nativehost.MaxToBrowser, "x"))
	assert.Equal(t, map[string]any{"client": 2.0, "type": "call", "id": 7.0}, b.Read(t), "tagged with its client")
	require.NoError(t, nativehost.WriteFrame(c1, []byte(`{}`), nativehost.MaxToBrowser, "x"))
	assert.Equal(t, map[string]any{"client": 1.0}, b.Read(t))

	b.Write(t, `{"client":2,"type":"result","id":7}`)
	b.Write(t, `{"client":1,"type":"pages"}`)
	got, err := nativehost.ReadFrame(c2, nativehost.MaxFromBrowser, "x")
	require.NoError(t, err)
	assert.JSONEq(t, `{"client":2,"type":"result","id":7}`, string(got), "each answer to its own client")
	got, err = nativehost.ReadFrame(c1, nativehost.MaxFromBrowser, "x")
	require.NoError(t, err)
	assert.JSONEq(t, `{"client":1,"type":"pages"}`, string(got))

	// A message over 1 MB for the browser is refused to its sender, with the limit named.
	big := `{"args":"` + strings.Repeat("x", nativehost.MaxToBrowser) + `"}`
	require.NoError(t, nativehost.WriteFrame(c1, []byte(big), nativehost.MaxFromBrowser, "x"))
	got, err = nativehost.ReadFrame(c1, nativehost.MaxFromBrowser, "x")
	require.NoError(t, err)
	assert.Contains(t, string(got), `"type":"refused"`)
	assert.Contains(t, string(got), "1 MB (1048576 bytes) from the host to the browser")

	c1.Close()
	assert.Equal(t, map[string]any{"type": "client", "event": "close", "client": 1.0}, b.Read(t))

	// The browser closes the port: the host ends, its socket goes, its servers are disconnected.
	b.ToHost.Close()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the host did not end with its stdin")
	}
	assert.Empty(t, nativehost.HostSockets(dir), "the socket is removed")
	_, err = nativehost.ReadFrame(c2, nativehost.MaxFromBrowser, "x")
	assert.ErrorIs(t, err, io.EOF)
}

// TestHostRefusesClientTag (issue 35, 6): a server cannot speak for another one: a message that
// names a client itself, however it spells the key, is refused to its sender and never reaches
// the browser; the host's own tag is the only one.
func TestHostRefusesClientTag(t *testing.T) {
	b, dir, _ := hosttest.Start(t)
	sock := nativehost.HostSockets(dir)[0]
	c1, err := nativehost.DialHost(sock)
	require.NoError(t, err)
	assert.Equal(t, 1.0, b.Read(t)["client"])
	c2, err := nativehost.DialHost(sock)
	require.NoError(t, err)
	assert.Equal(t, 2.0, b.Read(t)["client"])

	for _, forged := range []string{
		`{"type":"hello","client":1,"confirm":false,"allow":["https://bank.example"]}`,
		`{"type":"hello","\u0063lient":1,"confirm":false}`,
		`{"client":1}`,
	} {
		require.NoError(t, nativehost.WriteFrame(c2, []byte(forged), nativehost.MaxToBrowser, "x"))
		require.NoError(t, c2.SetReadDeadline(time.Now().Add(5*time.Second)))
		got, err := nativehost.ReadFrame(c2, nativehost.MaxFromBrowser, "x")
		require.NoError(t, err)
		assert.Contains(t, string(got), `"type":"refused"`, forged)
		assert.Contains(t, string(got), "names a client", forged)
	}
	require.NoError(t, nativehost.WriteFrame(c2, []byte(`{"type":"hello","confirm":true}`), nativehost.MaxToBrowser, "x"))
	assert.Equal(t, map[string]any{"client": 2.0, "type": "hello", "confirm": true}, b.Read(t),
		"the next message the browser hears is client 2's own, tagged 2: none of the forged ones came through")
	c1.Close()
}
