//go:build !js

package browsertest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionNativeSecurity (issue 25): a page cannot reach the native port, the host's
// socket or the service worker (its runtime probes and forged relay messages get nothing, and no
// tool runs); neither the server nor the host opens a TCP port; the rendezvous directory is 0700
// and the socket 0600; the binary refuses to serve as the host of another extension.
func TestExtensionNativeSecurity(t *testing.T) {
	skipWithoutBuild(t)
	s := startNative(t)
	page := s.tab(t, s.base+"/test/agent-tools.html")
	host := s.hostPID(t)
	cs, server, _ := s.client(t, "-allow", s.base)
	pageTools(t, cs, 6)

	var probe struct {
		Runtime   bool     `json:"runtime"`
		Answered  bool     `json:"answered"`
		Errors    []string `json:"errors"`
		WebSocket []string `json:"webSocket"`
	}
	runJS(t, page, "native.js", "probe", &probe)
	assert.False(t, probe.Runtime, "a page has no chrome.runtime messaging into the extension")
	assert.False(t, probe.Answered, "forged relay and agent messages get no answer")
	assert.Equal(t, map[string]float64{"bought": 0, "started": 0, "aborted": 0}, seen(t, page), "and run nothing")

	for name, pid := range map[string]int{"server": server.Process.Pid, "host": host} {
		assert.Empty(t, tcpSockets(t, pid), "%s (pid %d) has a TCP socket", name, pid)
	}
	dir := filepath.Join(s.runtime, "webmcp-bridge")
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), "the rendezvous directory")
	fi, err = os.Stat(filepath.Join(dir, "host-"+strconv.Itoa(host)+".sock"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the host's socket")

	var stderr bytes.Buffer
	cmd := exec.Command(s.bin, "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
	cmd.Stderr = &stderr
	cmd.Stdin = strings.NewReader("")
	err = cmd.Run()
	require.Error(t, err, "another extension cannot start the host")
	assert.Contains(t, stderr.String(), "refused")
	// Run returned: the refused host has exited, so a socket it made would be there now.
	paths, _ := filepath.Glob(filepath.Join(dir, "host-*.sock"))
	assert.Len(t, paths, 1, "and it made no socket")
}

// tcpSockets lists the TCP sockets (IPv4 and IPv6) process pid holds, by inode.
func tcpSockets(t *testing.T, pid int) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	require.NoError(t, err)
	mine := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd.Name())
		if err == nil && strings.HasPrefix(link, "socket:[") {
			mine[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	require.NotEmpty(t, mine, "the process holds sockets (stdio pipes aside: the Unix socket)")
	var tcp []string
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) > 9 && mine[f[9]] {
				tcp = append(tcp, table+": "+line)
			}
		}
	}
	return tcp
}
