//go:build linux || darwin

package nativehost

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPeerOfAnotherUser connects to a socket as another user (needs root to switch): the
// connection is refused by its peer's user id (SO_PEERCRED), not merely by the folder's mode.
// The other user is this test binary again, copied where that user can run it.
func TestPeerOfAnotherUser(t *testing.T) {
	if path := os.Getenv("WEBMCP_PEER_DIAL"); path != "" {
		c, err := net.Dial("unix", path)
		if err == nil {
			c.Read(make([]byte, 1))
		}
		return
	}
	if os.Getuid() != 0 {
		t.Skip("switching user needs root")
	}
	dir, err := os.MkdirTemp("", "webmcp-peer-")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	require.NoError(t, os.Chmod(dir, 0o777))
	exe, err := os.Executable()
	require.NoError(t, err)
	b, err := os.ReadFile(exe)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dial"), b, 0o755))

	ln, path, err := listenHost(dir)
	require.NoError(t, err)
	defer ln.Close()
	require.NoError(t, os.Chmod(path, 0o777))
	accepted := make(chan error, 1)
	go func() {
		c, err := ln.AcceptUnix()
		if err == nil {
			err = checkPeer(c)
			c.Close()
		}
		accepted <- err
	}()
	cmd := exec.Command(filepath.Join(dir, "dial"), "-test.run=^TestPeerOfAnotherUser$")
	cmd.Env = append(os.Environ(), "WEBMCP_PEER_DIAL="+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	require.NoError(t, cmd.Start())
	defer cmd.Wait()
	defer cmd.Process.Kill()
	select {
	case err := <-accepted:
		require.Error(t, err)
		assert.Contains(t, err.Error(), "a process of user id 65534 connected")
	case <-time.After(10 * time.Second):
		t.Fatal("no connection from the other user")
	}
}
