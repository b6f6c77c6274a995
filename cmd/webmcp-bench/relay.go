//go:build !js

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/procgroup"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// The pinned MCP-B packages the relay comparison installs with npm: the relay (a stdio MCP
// server with a WebSocket for pages) and the page-side runtime its documented set-up uses.
const (
	mcpbRelay  = "@mcp-b/webmcp-local-relay@2.2.0"
	mcpbGlobal = "@mcp-b/global@5.1.0"
)

// relayTools are the five tools of the comparison page, as both servers list them.
var relayTools = []string{"search_products", "get_product", "add_to_cart", "view_cart", "checkout"}

// relayPageScript registers the comparison page's five tools (a shop's: short descriptions,
// small schemas, one consequential tool), each answering with a short MCP text result.
const relayPageScript = `
const mc = document.modelContext || navigator.modelContext;
const text = (t) => ({ content: [{ type: "text", text: t }] });
const str = (d) => ({ type: "string", description: d });
[
  { name: "search_products", title: "Search products", description: "Searches the catalogue by keyword.",
    inputSchema: { type: "object", properties: { query: str("keywords"), limit: { type: "integer", minimum: 1, maximum: 50 } }, required: ["query"] },
    annotations: { readOnlyHint: true }, execute: ({ query }) => text("3 teas match " + query) },
  { name: "get_product", title: "Get a product", description: "Returns a product's details and price.",
    inputSchema: { type: "object", properties: { id: str("the product id") }, required: ["id"] },
    annotations: { readOnlyHint: true }, execute: ({ id }) => text(id + ": green tea, 4 EUR") },
  { name: "add_to_cart", title: "Add to cart", description: "Adds a product to the cart.",
    inputSchema: { type: "object", properties: { id: str("the product id"), quantity: { type: "integer", minimum: 1 } }, required: ["id"] },
    execute: ({ id }) => text("added " + id) },
  { name: "view_cart", title: "View the cart", description: "Lists the cart's items and total.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true }, execute: () => text("1 item, 4 EUR") },
  { name: "checkout", title: "Check out", description: "Places the order and pays with the saved card.",
    inputSchema: { type: "object", properties: {} },
    annotations: { consequentialHint: true }, execute: () => text("ordered") },
].forEach((t) => mc.registerTool(t));
`

// relayPage is the comparison page: with ?relay=PORT, MCP-B's runtime and the relay's embed
// script (its documented set-up for website owners) around the same tools.
func relayPage(w http.ResponseWriter, r *http.Request) {
	port := r.URL.Query().Get("relay")
	var b strings.Builder
	b.WriteString("<!doctype html>\n<meta charset=\"utf-8\">\n<title>Tea shop</title>\n<body>\n")
	if port != "" {
		b.WriteString(`<script src="/mcpb/index.iife.js"></script>` + "\n")
	}
	b.WriteString("<script>" + relayPageScript + "</script>\n")
	if port != "" {
		fmt.Fprintf(&b, `<script src="/relay/embed.js" data-relay-port="%s"></script>`+"\n", port)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, b.String())
}

// relayRow is what one server gave on the comparison page.
type relayRow struct {
	server        string
	listBytes     int             // the tools/list response's result, as received
	modelBytes    int             // of it, what clients give the model (modelVisible)
	list          time.Duration   // tools/list, median
	first         time.Duration   // the first tools/call once the page's tools are listed
	firsts        []time.Duration // first, in each cold start (relayServer.measure)
	source        time.Duration   // of a warm call, the time webmcp-mcp waited for its source (median)
	warm, warmP95 time.Duration   // later calls
	err           string
	listedAfter   time.Duration // from the client's connection to the five tools listed
}

// relayReport prints webmcp-mcp beside MCP-B's local relay (runRelay); with -docs, it appends
// that to the report of the run before it (make bench).
func relayReport(o options, dist string) {
	var out bytes.Buffer
	check(runRelay(context.Background(), o.relay, dist, io.MultiWriter(os.Stdout, &out)))
	if o.docsSet {
		check(appendReport(o.docs, "webmcp-mcp beside MCP-B's local relay",
			fmt.Sprintf("webmcp-bench -relay %d", o.relay), out.String()))
	}
}

// runRelay is -relay N: a page of five tools served on loopback, reached by webmcp-mcp -open (a
// Chromium it drives over DevTools), by webmcp-mcp -extension (the extension in a headless
// Chromium of its own, webmcp-mcp its native-messaging host: relayext.go) and by MCP-B's local
// relay (from npm, pinned, with its documented set-up: @mcp-b/global and the relay's embed.js on
// the page, a headless Chromium showing it), each with a go-sdk client over stdio: tools/list
// bytes and time, the first call and N warm calls. A measurement, not a test.
func runRelay(ctx context.Context, n int, dist string, w io.Writer) error {
	if n < 2 {
		return fmt.Errorf("-relay takes the number of warm calls, at least 2, not %d", n)
	}
	dist, chromium, self, cleanup, err := mcpSetup(dist)
	if err != nil {
		return err
	}
	defer cleanup()
	if _, err := npmcache.Node(); err != nil {
		return err
	}
	ictx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	npmDir, err := npmcache.Install(ictx, mcpbRelay, mcpbGlobal)
	if err != nil {
		return err
	}
	nm := filepath.Join(npmDir, "node_modules")
	mux := http.NewServeMux()
	mux.HandleFunc("/page", relayPage)
	mcpbDist := filepath.Join(nm, "@mcp-b", "global", "dist")
	mux.Handle("/mcpb/", http.StripPrefix("/mcpb/", http.FileServer(http.Dir(mcpbDist))))
	mux.Handle("/relay/", http.StripPrefix("/relay/",
		http.FileServer(http.Dir(filepath.Join(nm, "@mcp-b", "webmcp-local-relay", "dist", "browser")))))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	site := &http.Server{Handler: mux}
	go site.Serve(ln)
	defer site.Close()
	page := fmt.Sprintf("http://localhost:%d/page", ln.Addr().(*net.TCPAddr).Port)

	fmt.Fprintf(w, "Five tools on one page, %d warm calls each, %s, %s and %s; %s\n\n", n, chromiumVersion(chromium),
		mcpbRelay, mcpbGlobal, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	load0 := loadAverage()

	ext, removeExt, err := newExtensionSetup(self, dist)
	if err != nil {
		return err
	}
	defer removeExt()
	origin := strings.TrimSuffix(page, "/page")
	servers := []relayServer{
		{"webmcp-mcp -open", func() (*exec.Cmd, func() (func(), error), error) {
			return withSourceTimes(exec.Command(self, "-assets", dist, "-chromium", chromium, "-open", page)), nil, nil
		}},
		{"webmcp-mcp -extension", func() (*exec.Cmd, func() (func(), error), error) {
			return withSourceTimes(ext.server(self, origin)), func() (func(), error) { return ext.open(chromium, page) }, nil
		}},
		{relayName, func() (*exec.Cmd, func() (func(), error), error) {
			port, err := freePort()
			if err != nil {
				return nil, nil, err
			}
			relay := exec.Command("node", filepath.Join(nm, "@mcp-b", "webmcp-local-relay", "dist", "cli.js"),
				"--port", fmt.Sprint(port))
			return relay, func() (func(), error) {
				return startPageBrowser(chromium, fmt.Sprintf("%s?relay=%d", page, port))
			}, nil
		}},
	}
	var rows []relayRow
	for _, sv := range servers {
		rows = append(rows, sv.measure(ctx, n))
	}
	printRelayRows(w, rows)
	fmt.Fprintf(w, "\nLoad average (1 minute): %s → %s (before → after).\n", load0, loadAverage())
	return nil
}

// relayColdRuns is how many times each server is started for the comparison: the first call
// varies most from one start to the next, so each start's is reported.
const relayColdRuns = 2

// A relayServer is one column of the comparison: start gives the server's command and, for a
// server that does not open the page itself, what opens it.
type relayServer struct {
	name  string
	start func() (*exec.Cmd, func() (func(), error), error)
}

// measure starts the server relayColdRuns times, each time anew with its page: the row is the
// last start's, with every start's first call.
func (sv relayServer) measure(ctx context.Context, n int) relayRow {
	var row relayRow
	var firsts []time.Duration
	for range relayColdRuns {
		cmd, open, err := sv.start()
		if err != nil {
			return relayRow{server: sv.name, err: err.Error()}
		}
		if row = measureRelay(ctx, sv.name, cmd, open, n); row.err != "" {
			return row
		}
		firsts = append(firsts, row.first)
	}
	row.firsts = firsts
	return row
}

// mcpSetup is what the comparisons need first: dist as an absolute path, the Chromium to run,
// and webmcp-mcp built from ./cmd/webmcp-mcp into a folder cleanup removes.
func mcpSetup(dist string) (absDist, chromium, self string, cleanup func(), err error) {
	if absDist, err = filepath.Abs(dist); err != nil {
		return "", "", "", nil, err
	}
	if chromium, err = headless.ChromiumPath(); err != nil {
		return "", "", "", nil, err
	}
	bin, err := os.MkdirTemp("", "webmcp-bench-mcp-")
	if err != nil {
		return "", "", "", nil, err
	}
	self = filepath.Join(bin, "webmcp-mcp")
	if out, err := exec.Command(goCommand(), "build", "-o", self, "./cmd/webmcp-mcp").CombinedOutput(); err != nil {
		os.RemoveAll(bin)
		return "", "", "", nil, fmt.Errorf("go build ./cmd/webmcp-mcp: %v\n%s", err, out)
	}
	return absDist, chromium, self, func() { os.RemoveAll(bin) }, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startPageBrowser shows url in a headless Chromium of its own (without native WebMCP: the
// page's runtime is MCP-B's) until the returned stop.
func startPageBrowser(chromium, url string) (func(), error) {
	profile, err := os.MkdirTemp("", "relay-profile-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--user-data-dir="+profile, url)
	procgroup.Own(cmd)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	return func() {
		procgroup.Kill(cmd)
		cmd.Wait()
		time.Sleep(200 * time.Millisecond)
		os.RemoveAll(profile)
	}, nil
}

// measureRelay connects a go-sdk client to cmd over stdio, runs open (the page's browser, for a
// server that does not open it itself), waits until the five tools are listed, then measures:
// the first call at once, then N lists, then N warm calls.
func measureRelay(ctx context.Context, server string, cmd *exec.Cmd, open func() (func(), error), n int) relayRow {
	row := relayRow{server: server}
	rec := &listRecorder{Transport: &mcp.CommandTransport{Command: cmd}}
	start := time.Now()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "webmcp-bench-relay", Version: "1"}, nil).Connect(ctx, rec, nil)
	if err != nil {
		row.err = err.Error()
		return row
	}
	defer cs.Close()
	if open != nil {
		stop, err := open()
		if err != nil {
			row.err = err.Error()
			return row
		}
		defer stop()
	}
	deadline := time.Now().Add(time.Minute)
	for {
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			row.err = err.Error()
			return row
		}
		listed := 0
		for _, tl := range tools.Tools {
			if slices.Contains(relayTools, tl.Name) {
				listed++
			}
		}
		if listed == len(relayTools) {
			break
		}
		if time.Now().After(deadline) {
			row.err = "the page's five tools were not listed within a minute"
			return row
		}
		time.Sleep(50 * time.Millisecond)
	}
	row.listedAfter = time.Since(start)
	row.listBytes, row.modelBytes = rec.lastList()
	call := func() (time.Duration, error) {
		t := time.Now()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_product", Arguments: map[string]any{"id": "t1"}})
		if err == nil && r.IsError {
			err = errors.New("isError")
		}
		return time.Since(t), err
	}
	if row.first, err = call(); err != nil {
		row.err = "first call: " + err.Error()
		return row
	}
	var lists []time.Duration
	for range n {
		t := time.Now()
		if _, err := cs.ListTools(ctx, nil); err != nil {
			row.err = err.Error()
			return row
		}
		lists = append(lists, time.Since(t))
	}
	slices.Sort(lists)
	row.list = lists[len(lists)/2]
	st, _ := cmd.Stderr.(*sourceTimes)
	if st != nil {
		st.take() // the first call's and the lists'
	}
	var warm []time.Duration
	for range n {
		d, err := call()
		if err != nil {
			row.err = "warm call: " + err.Error()
			return row
		}
		warm = append(warm, d)
	}
	slices.Sort(warm)
	row.warm, row.warmP95 = warm[len(warm)/2], warm[(len(warm)*95+99)/100-1]
	if st != nil {
		time.Sleep(200 * time.Millisecond) // the last lines of the log
		if src := st.take(); len(src) > 0 {
			slices.Sort(src)
			row.source = src[len(src)/2]
		}
	}
	return row
}

func printRelayRows(w io.Writer, rows []relayRow) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintln(w, "| server | tools/list bytes (model-visible) | tools/list (median) | first call, each start |"+
		" warm call, median / p95 | of it, the browser (median) | five tools listed after |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		if r.err != "" {
			fmt.Fprintf(w, "| %s | error: %s | | | | | |\n", r.server, r.err)
			continue
		}
		browser := "–"
		if r.source > 0 {
			browser = ms(r.source)
		}
		fmt.Fprintf(w, "| %s | %d (%d) | %s | %s | %s / %s | %s | %s |\n", r.server, r.listBytes, r.modelBytes,
			ms(r.list), firstCalls(r.firsts), ms(r.warm), ms(r.warmP95), browser, ms(r.listedAfter))
	}
	fmt.Fprintln(w, "\n\"Of it, the browser\": how long webmcp-mcp waited for its source (`-v`'s log): the "+
		"DevTools or native-messaging round trip, the extension and the page; the rest is the client, stdio "+
		"and webmcp-mcp's checks and normalization.")
	i := slices.IndexFunc(rows, func(r relayRow) bool { return r.server == relayName })
	if i < 0 || rows[i].err != "" {
		return
	}
	relay := rows[i]
	fmt.Fprintf(w, "\nAgainst the relay (targets: a warm call and tools/list at most 1.2× the relay's):\n\n")
	for _, r := range rows {
		if r.err != "" || r.server == relayName {
			continue
		}
		fmt.Fprintf(w, "- %s: warm call (median) %.2f×, tools/list %.2f×\n", r.server,
			float64(r.warm)/float64(relay.warm), float64(r.listBytes)/float64(relay.listBytes))
	}
}

// firstCalls is each start's first call, in milliseconds.
func firstCalls(ds []time.Duration) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%.1f", float64(d.Microseconds())/1000))
	}
	return strings.Join(parts, ", ") + " ms"
}

// relayName is the relay's row.
const relayName = "MCP-B relay"
