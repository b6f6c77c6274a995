//go:build !js

// Package mcpbinary builds cmd/webmcp-mcp once per test process, for the tests that run the
// binary itself (the browser's native-messaging host, the end-to-end tests), into a temporary
// folder that is removed: by [Main] when the tests end, or else by the next process that builds
// here once the process that made it is gone.
package mcpbinary

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// folderPrefix begins the name of every folder this package builds into, under os.TempDir().
const folderPrefix = "webmcp-mcp-bin-"

var (
	mu     sync.Mutex
	folder string // where this process built the binary ("" until it did)
	built  string
	err    error
)

// Path is the binary: $WEBMCP_MCP_BINARY when set (to run the tests against another build, for
// instance an earlier commit's), else cmd/webmcp-mcp built once for this process, under the race
// detector when $WEBMCP_MCP_RACE is set.
func Path(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("WEBMCP_MCP_BINARY"); b != "" {
		return b
	}
	mu.Lock()
	defer mu.Unlock()
	if built == "" && err == nil {
		built, err = build()
	}
	require.NoError(t, err)
	return built
}

// build builds cmd/webmcp-mcp into a new folder, after removing the folders of processes that
// are gone.
func build() (string, error) {
	removeOrphans()
	dir, err := os.MkdirTemp("", folderPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	folder = dir
	out := filepath.Join(dir, "webmcp-mcp")
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	args := []string{"build", "-o", out}
	if os.Getenv("WEBMCP_MCP_RACE") != "" {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "./cmd/webmcp-mcp")...)
	cmd.Dir = repoRoot()
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/webmcp-mcp: %v\n%s", err, b)
	}
	return out, nil
}

// repoRoot is the repository's root.
func repoRoot() string { return checkout.Path() }

// Main runs the tests (m.Run) and then removes the binary's folder; a TestMain returns its
// code: os.Exit(mcpbinary.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	Remove()
	return code
}

// Remove removes the folder this process built the binary into, if it did.
func Remove() {
	mu.Lock()
	defer mu.Unlock()
	if folder != "" {
		os.RemoveAll(folder)
		folder, built, err = "", "", nil
	}
}

// removeOrphans removes the folders of processes that ended without [Remove] (a TestMain that
// does not call [Main], a test binary killed).
func removeOrphans() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), folderPrefix+"*"))
	for _, d := range dirs {
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(d), folderPrefix+"%d-", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		if !alive(pid) {
			os.RemoveAll(d)
		}
	}
}

// alive reports whether a process pid runs (on Unix; elsewhere it says yes, and nothing is
// removed).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil || runtime.GOOS == "windows" {
		return runtime.GOOS == "windows"
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
