//go:build !js

package nativehost

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// The native-messaging host (started by the browser) and the `webmcp-mcp -extension` servers
// (started by MCP clients) meet over Unix sockets in a per-user directory that only that user
// can open. Each host listens on host-<pid>.sock there; a server connects to every one it
// finds, so one browser serves every MCP client, and two browsers (say Chrome and Firefox) can
// both serve. Both ends check that the other runs as the same user (peerUID).

// RendezvousDir returns the directory, made when missing: $XDG_RUNTIME_DIR/webmcp-bridge
// (Linux; the runtime dir is the user's own and 0700), else webmcp-bridge-run under the user's
// cache (macOS: the per-user temp dir). The directory must be the user's and 0700; one that is
// open to others is refused.
func RendezvousDir() (string, error) {
	if !peerChecked {
		return "", fmt.Errorf(
			"the extension is not served on %s: who connects to its socket cannot be checked here "+
				"(no SO_PEERCRED), and an unchecked socket is refused (docs/agents-and-mcp-clients.md)",
			runtime.GOOS,
		)
	}
	var dir string
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		dir = filepath.Join(d, "webmcp-bridge")
	} else if runtime.GOOS == "darwin" {
		dir = filepath.Join(os.TempDir(), "webmcp-bridge")
	} else {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no place for the extension's socket: %w", err)
		}
		dir = filepath.Join(cache, "webmcp-bridge-run")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return dir, checkPrivateDir(dir)
}

// checkPrivateDir refuses a directory that is not the user's own or that others can open.
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if uid, ok := fileOwner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to user id %d, not to you (%d): refused", dir, uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s is open to others (mode %#o, must be 0700): refused", dir, perm)
	}
	return nil
}

// listenHost makes this host's socket in dir, open to its owner only from the moment a server
// can find it: it is bound under a name no server looks for, made 0600, then renamed into place.
// The caller removes it (removeSocket) when the listener closes.
func listenHost(dir string) (*net.UnixListener, string, error) {
	path := filepath.Join(dir, "host-"+strconv.Itoa(os.Getpid())+".sock")
	bound := path + ".new"
	os.Remove(path) // a socket left by a process of the same id that died
	os.Remove(bound)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: bound, Net: "unix"})
	if err != nil {
		return nil, "", err
	}
	ln.SetUnlinkOnClose(false)
	if err = os.Chmod(bound, 0o600); err == nil {
		err = os.Rename(bound, path)
	}
	if err != nil {
		ln.Close()
		os.Remove(bound)
		return nil, "", err
	}
	return ln, path, nil
}

// HostSockets lists the hosts' sockets in dir, oldest process first.
func HostSockets(dir string) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "host-*.sock"))
	sort.Slice(paths, func(i, j int) bool { return socketPID(paths[i]) < socketPID(paths[j]) })
	return paths
}

func socketPID(path string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "host-"), ".sock"))
	return n
}

// DialHost connects to a host's socket and checks that the host runs as this user. A socket
// whose host is gone (connection refused) is removed.
func DialHost(path string) (*net.UnixConn, error) {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			os.Remove(path)
		}
		return nil, err
	}
	if err := checkPeer(c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// checkPeer refuses a connection whose other end runs as another user.
func checkPeer(c *net.UnixConn) error {
	uid, err := peerUID(c)
	if err != nil {
		return fmt.Errorf("cannot tell who is at the other end of the socket: %w", err)
	}
	if uid != os.Getuid() {
		return fmt.Errorf("a process of user id %d connected, not of you (%d): refused", uid, os.Getuid())
	}
	return nil
}
