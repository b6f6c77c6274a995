//go:build !js

// Package hosttest runs a native-messaging host ([nativehost.Run]) inside a test's process, with
// a private rendezvous directory, and plays the browser at the other end of its stdin and stdout.
package hosttest

import (
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

// A Browser is the browser's end of a host's stdin and stdout.
type Browser struct {
	ToHost   *io.PipeWriter // the host's stdin: closing it ends the host, as closing the port does
	FromHost *io.PipeReader // the host's stdout
}

// readWait is how long Read waits for the host's next message: a test that waits for one that
// never comes fails saying so, rather than hanging until go test's own timeout.
const readWait = 30 * time.Second

// Read reads the host's next message to the browser.
func (b Browser) Read(t testing.TB) map[string]any {
	t.Helper()
	type frame struct {
		msg []byte
		err error
	}
	got := make(chan frame, 1)
	go func() {
		msg, err := nativehost.ReadFrame(b.FromHost, nativehost.MaxToBrowser, "to the browser")
		got <- frame{msg, err}
	}()
	var f frame
	select {
	case f = <-got:
	case <-time.After(readWait):
		t.Fatalf("no message from the host to the browser in %v", readWait)
	}
	msg, err := f.msg, f.err
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(msg, &m))
	return m
}

// Write sends the host a message from the browser (JSON).
func (b Browser) Write(t testing.TB, s string) {
	t.Helper()
	require.NoError(t, nativehost.WriteFrame(b.ToHost, []byte(s), nativehost.MaxFromBrowser, "from the browser"))
}

// Start runs a host with $XDG_RUNTIME_DIR set to a temporary directory and waits for its
// socket. It returns the browser's end, the rendezvous directory, and what [nativehost.Run]
// returned once it ends.
func Start(t *testing.T) (Browser, string, chan error) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- nativehost.Run(inR, outW, slog.New(slog.DiscardHandler)); outW.Close() }()
	dir, err := nativehost.RendezvousDir()
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(nativehost.HostSockets(dir)) == 1 }, 5*time.Second, 10*time.Millisecond)
	return Browser{inW, outR}, dir, done
}
