//go:build !js

package browsertest

import (
	"bufio"
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoServerStarts runs the command `make demo` runs on a free port and fetches the demo
// page and the module from it; the folder it tells people to load unpacked is the built
// extension. The command is built first and run itself, so that killing it ends the server (a
// killed `go run` leaves its child serving).
func TestDemoServerStarts(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "webmcp-serve")
	run(t, ctx, ".", "go", "build", "-o", bin, "../../../cmd/webmcp-serve")
	cmd := exec.CommandContext(ctx, bin, "-dir", "../../../web", "-addr", "localhost:0")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	printed := bufio.NewReader(out)
	line, err := printed.ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, line, "http://localhost:")
	root := strings.TrimSuffix(strings.Fields(line)[len(strings.Fields(line))-1], "/")
	for path, ctype := range map[string]string{
		"/demo/": "text/html", "/dist/webmcp-bridge.wasm": "application/wasm", "/dist/webmcp-bridge.js": "text/javascript",
	} {
		resp, err := http.Get(root + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode, path)
		assert.Contains(t, resp.Header.Get("Content-Type"), ctype, path)
	}
	var ext string
	for ext == "" {
		line, err := printed.ReadString('\n')
		require.NoError(t, err, "make demo names the extension's folder")
		if _, after, ok := strings.Cut(line, "Load unpacked → "); ok {
			ext = strings.TrimSpace(after)
		}
	}
	want, err := filepath.Abs(fromRoot("web", "dist", "extension"))
	require.NoError(t, err)
	assert.Equal(t, want, ext, "the built extension, as an absolute path for the file dialog")
	assert.FileExists(t, filepath.Join(ext, "manifest.json"), "a folder that loads unpacked")
	assert.FileExists(t, filepath.Join(ext, "dist", "webmcp-bridge.wasm"), "with its own copy of the bridge")
}
