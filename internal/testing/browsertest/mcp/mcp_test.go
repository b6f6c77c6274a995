//go:build !js

// Package mcp tests webmcp-mcp (cmd/webmcp-mcp) end to end: the built binary drives headless Chromium against
// the demo page and test pages served on localhost, and two real MCP clients talk to it — the
// go-sdk client in Go, and the official TypeScript SDK (installed from npm into a cache by
// internal/testing/npmcache) in node, over stdio and streamable HTTP. Every result is checked against
// the three MCP schemas and the TypeScript SDK's CallToolResultSchema. `make browser` builds
// web/dist first.
package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpbinary"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcprecord"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpschema"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// tsSDK is the pinned official TypeScript SDK.
const tsSDK = "@modelcontextprotocol/sdk@1.32.2"

var repo = checkout.Path()

// buildBinary is cmd/webmcp-mcp, built once per test process (internal/testing/mcpbinary:
// $WEBMCP_MCP_BINARY runs the tests against another build, $WEBMCP_MCP_RACE under the race
// detector).
func buildBinary(t testing.TB) string { return mcpbinary.Path(t) }

func assetsDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join(repo, "web", "dist"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(d, "webmcp-bridge.wasm")); err != nil {
		t.Fatalf("web/dist is not built: run `make build` (or `make test`, which builds first): %v", err)
	}
	return d
}

func chromium(t testing.TB) string {
	t.Helper()
	p, err := headless.ChromiumPath()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// serveSite serves web/ (the demo in /demo/, the built bridge in /dist/) and this package's
// pages in /test/ on localhost, a secure context as WebMCP requires.
func serveSite(t testing.TB) string {
	t.Helper()
	assetsDir(t)
	mux := http.NewServeMux()
	mux.Handle("/", serve.Handler(filepath.Join(repo, "web")))
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(filepath.Join(repo, "web", "dist"))))
	mux.Handle("/test/", http.StripPrefix("/test/", serve.Handler("pages")))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return fmt.Sprintf("http://localhost:%d", ln.Addr().(*net.TCPAddr).Port)
}

// serverArgs are the flags of a webmcp-mcp that opens the given pages.
func serverArgs(t testing.TB, native bool, timeout time.Duration, urls ...string) []string {
	args := []string{
		"-assets",
		assetsDir(t),
		"-chromium",
		chromium(t),
		"-timeout",
		timeout.String(),
		fmt.Sprintf("-webmcp=%v", native),
	}
	for _, u := range urls {
		args = append(args, "-open", u)
	}
	return args
}

// session starts webmcp-mcp over stdio with the go-sdk client; changed receives a value for
// each tools/list_changed.
func session(t *testing.T, args []string) (*mcp.ClientSession, *mcprecord.Transport, chan struct{}) {
	t.Helper()
	cmd := exec.Command(buildBinary(t), args...)
	cmd.Stderr = newTestWriter(t)
	rec := &mcprecord.Transport{Transport: &mcp.CommandTransport{Command: cmd}}
	client, changed := goClient()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cs, err := client.Connect(ctx, rec, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, rec, changed
}

// goClient is the go-sdk client; changed receives a value for each tools/list_changed.
func goClient() (*mcp.Client, chan struct{}) {
	changed := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "go-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	return client, changed
}

// testWriter logs what a child process prints, until the test ends.
type testWriter struct {
	t    *testing.T
	mu   *sync.Mutex
	done *bool
}

func newTestWriter(t *testing.T) testWriter {
	w := testWriter{t, &sync.Mutex{}, new(bool)}
	t.Cleanup(func() { w.mu.Lock(); *w.done = true; w.mu.Unlock() })
	return w
}

func (w testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !*w.done {
		w.t.Logf("%s", strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// requireValid checks a raw result against the three MCP schemas and returns it decoded.
func requireValid(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	require.NotNil(t, raw)
	require.NoError(t, mcpschema.ValidateCallToolResult(raw), "%s", raw)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// tsDir installs the TypeScript SDK (once; later runs use the cache).
func tsDir(t *testing.T) string {
	t.Helper()
	if _, err := npmcache.Node(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir, err := npmcache.Install(ctx, tsSDK)
	require.NoError(t, err)
	return dir
}

// tsSchemaCheck runs results through the TypeScript SDK's CallToolResultSchema.
func tsSchemaCheck(t *testing.T, results map[string]json.RawMessage) {
	t.Helper()
	if len(results) == 0 {
		return
	}
	in, err := json.Marshal(results)
	require.NoError(t, err)
	cmd := exec.Command("node", filepath.Join("testdata", "tsschema.mjs"), tsDir(t))
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = newTestWriter(t)
	out, err := cmd.Output()
	require.NoError(t, err)
	var got struct {
		Checked int `json:"checked"`
		Errors  []struct {
			Name  string `json:"name"`
			Error string `json:"error"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)
	require.Equal(t, len(results), got.Checked)
	require.Empty(t, got.Errors, "the TypeScript SDK's CallToolResultSchema refuses these results")
}

// httpServer starts webmcp-mcp -http on a free loopback port and returns its /mcp URL.
func httpServer(t *testing.T, args []string) string {
	t.Helper()
	cmd := exec.Command(buildBinary(t), append([]string{"-http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	found := make(chan string, 1)
	w := newTestWriter(t)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`streamable HTTP on (http://\S+/mcp)`)
		for sc.Scan() {
			w.Write([]byte(sc.Text()))
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(90 * time.Second):
		t.Fatal("webmcp-mcp -http did not say where it listens")
	}
	return ""
}
