//go:build !js

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/procgroup"
	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcprecord"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// playwrightMCP is the pinned Playwright MCP the comparison installs with npm.
const playwrightMCP = "@playwright/mcp@0.0.83"

// compareTools are the demo tools the comparison calls.
var compareTools = []string{"sales_chart", "article", "price_table"}

// runCompare is -compare N: the demo page served on loopback, and two MCP servers on the same
// Chromium executable — webmcp-mcp (built here from ./cmd/webmcp-mcp, over stdio) and Playwright
// MCP (over stdio, attached to a Chromium started here with WebMCP on) — each asked N times for
// the demo's chart, article and table. It prints what a client receives (block types and bytes
// of the result's JSON) and the median time per call. It is a measurement, not a test. dist is
// the built bridge (web/dist), beside the demo (web/demo).
func runCompare(ctx context.Context, n int, dist string, w io.Writer) error {
	if n < 1 {
		return fmt.Errorf("-compare takes the number of calls per tool, not %d", n)
	}
	dist, chromium, self, cleanup, err := mcpSetup(dist)
	if err != nil {
		return err
	}
	defer cleanup()
	demo, stopSite, err := serveDemo(filepath.Dir(dist))
	if err != nil {
		return err
	}
	defer stopSite()
	fmt.Fprintf(w, "Comparing on %s: %d calls per tool, %s\n\n", demo, n, chromiumVersion(chromium))

	var rows []compareRow
	ours, err := measure(
		ctx,
		"webmcp-mcp",
		exec.Command(self, "-assets", dist, "-chromium", chromium, "-open", demo),
		waitListed,
		n,
		func(string) string { return "" },
	)
	if err != nil {
		return fmt.Errorf("webmcp-mcp: %w", err)
	}
	rows = append(rows, ours...)

	theirs, err := measurePlaywright(ctx, chromium, demo, n)
	if err != nil {
		fmt.Fprintf(w, "Playwright MCP could not be measured: %v\n\n", err)
	} else {
		rows = append(rows, theirs...)
	}
	printRows(w, rows)
	return nil
}

// serveDemo serves web/ (the demo at /demo/, the built bridge at /dist/) on localhost.
func serveDemo(web string) (string, func(), error) {
	if _, err := os.Stat(filepath.Join(web, "demo", "index.html")); err != nil {
		return "", nil, fmt.Errorf(
			"the demo page is not at %s: -compare runs from the repository (-assets web/dist)",
			filepath.Join(web, "demo"),
		)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: serve.Handler(web)}
	go srv.Serve(ln)
	return fmt.Sprintf("http://localhost:%d/demo/", ln.Addr().(*net.TCPAddr).Port), func() { srv.Close() }, nil
}

func chromiumVersion(path string) string {
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return path
	}
	return strings.TrimSpace(string(out))
}

// measurePlaywright starts Chromium with WebMCP on and a DevTools port, then Playwright MCP
// attached to it; its tools appear as webmcp_<name> once it has navigated to the page.
func measurePlaywright(ctx context.Context, chromium, demo string, n int) ([]compareRow, error) {
	if _, err := npmcache.Node(); err != nil {
		return nil, err
	}
	ictx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	dir, err := npmcache.Install(ictx, playwrightMCP)
	if err != nil {
		return nil, err
	}
	endpoint, stopBrowser, err := startDebugChromium(ctx, chromium)
	if err != nil {
		return nil, err
	}
	defer stopBrowser()
	cli := filepath.Join(dir, "node_modules", "@playwright", "mcp", "cli.js")
	out, err := os.MkdirTemp("", "playwright-mcp-out-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(out)
	cmd := exec.Command("node", cli, "--cdp-endpoint", endpoint, "--output-dir", out)
	navigate := func(cs *mcp.ClientSession) error {
		_, err := cs.CallTool(
			ctx,
			&mcp.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": demo}},
		)
		return err
	}
	return measure(ctx, "Playwright MCP", cmd, navigate, n, func(tool string) string { return "webmcp_" + tool })
}

// startDebugChromium starts headless Chromium with WebMCP on and a DevTools port; it answers the
// endpoint's ws:// URL.
func startDebugChromium(ctx context.Context, chromium string) (string, func(), error) {
	profile, err := os.MkdirTemp("", "compare-profile-")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--enable-features=WebMCP", "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	procgroup.Own(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		procgroup.Kill(cmd) // the browser and its helper processes
		cmd.Wait()
		time.Sleep(200 * time.Millisecond)
		os.RemoveAll(profile)
	}
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case ws := <-found:
		return ws, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, errors.New("chromium did not open its DevTools port")
	}
}

// compareRow is one tool of one server.
type compareRow struct {
	server, tool string
	blocks       []string // "type (bytes)"
	bytes        int      // the result's JSON as received
	perCall      time.Duration
	err          string
}

// waitListed waits until webmcp-mcp lists the compare tools (it opens -open pages while it
// already answers).
func waitListed(cs *mcp.ClientSession) error {
	for range 600 {
		tools, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			return err
		}
		listed := 0
		for _, tl := range tools.Tools {
			if slices.Contains(compareTools, tl.Name) {
				listed++
			}
		}
		if listed == len(compareTools) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the demo's tools %v were not listed within a minute", compareTools)
}

// measure connects a go-sdk client to cmd over stdio, runs prepare, then calls each compare tool
// n times (after one warm-up call).
func measure(
	ctx context.Context,
	server string,
	cmd *exec.Cmd,
	prepare func(*mcp.ClientSession) error,
	n int,
	name func(string) string,
) ([]compareRow, error) {
	rec := &mcprecord.Transport{Transport: &mcp.CommandTransport{Command: cmd}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "webmcp-compare", Version: "1"}, nil).Connect(ctx, rec, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	if prepare != nil {
		if err := prepare(cs); err != nil {
			return nil, err
		}
	}
	var rows []compareRow
	for _, tool := range compareTools {
		toolName := tool
		if n := name(tool); n != "" {
			toolName = n
		}
		row := compareRow{server: server, tool: tool}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolName, Arguments: map[string]any{}}); err != nil {
			row.err = err.Error()
			rows = append(rows, row)
			continue
		}
		var times []time.Duration
		for range n {
			start := time.Now()
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolName, Arguments: map[string]any{}})
			times = append(times, time.Since(start))
			if err != nil {
				row.err = err.Error()
				break
			}
		}
		slices.Sort(times)
		row.perCall = times[len(times)/2]
		raw := rec.Last()
		row.bytes = len(raw)
		var res struct {
			Content []map[string]any `json:"content"`
		}
		_ = json.Unmarshal(raw, &res)
		if os.Getenv("WEBMCP_COMPARE_DUMP") != "" {
			fmt.Fprintf(os.Stderr, "%s %s: %s\n", server, tool, raw)
		}
		for _, c := range res.Content {
			var buf strings.Builder
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(c)
			b := strings.TrimSpace(buf.String())
			label := fmt.Sprint(c["type"])
			if r, ok := c["resource"].(map[string]any); ok {
				label += " " + fmt.Sprint(r["mimeType"])
			} else if m, ok := c["mimeType"]; ok {
				label += " " + fmt.Sprint(m)
			}
			row.blocks = append(row.blocks, fmt.Sprintf("%s (%s)", label, size(len(b))))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func size(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}

func printRows(w io.Writer, rows []compareRow) {
	fmt.Fprintln(w, "| tool | server | blocks the client gets | result JSON | per call (median) |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, tool := range compareTools {
		for _, r := range rows {
			if r.tool != tool {
				continue
			}
			if r.err != "" {
				fmt.Fprintf(w, "| %s | %s | error: %s | | |\n", r.tool, r.server, r.err)
				continue
			}
			fmt.Fprintf(
				w,
				"| %s | %s | %s | %s | %.1f ms |\n",
				r.tool,
				r.server,
				strings.Join(r.blocks, ", "),
				size(r.bytes),
				float64(r.perCall.Microseconds())/1000,
			)
		}
	}
}
