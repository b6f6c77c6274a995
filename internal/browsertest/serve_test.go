//go:build !js

package browsertest

import (
	"bufio"
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoServerStarts runs the command `make demo` runs on a free port and fetches the demo
// page and the module from it.
func TestDemoServerStarts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "run", "../../cmd/webmcp-serve", "-dir", "../../web", "-addr", "localhost:0")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, line, "http://localhost:")
	root := strings.TrimSuffix(strings.Fields(line)[len(strings.Fields(line))-1], "/")
	for path, ctype := range map[string]string{"/demo/": "text/html", "/dist/webmcp-bridge.wasm": "application/wasm", "/dist/webmcp-bridge.js": "text/javascript"} {
		resp, err := http.Get(root + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode, path)
		assert.Contains(t, resp.Header.Get("Content-Type"), ctype, path)
	}
}
