//go:build !js

// Command webmcp-bench measures webmcp-bridge in one headless Chromium and prints one Markdown
// report, each figure beside its target and the load average when it was taken, which it also
// writes to docs/benchmarks.md (`make bench` runs it after the Go benchmarks; the rows are
// declared in report.go):
//
//  0. the module's gzip size against a minimal Go wasm and bluemonday alone (UGCPolicy), and
//     the code each package adds beyond bluemonday alone (size.go, wasmsize.go);
//  1. bytes a page with the bridge and three tools transfers through load and two idle seconds,
//     without and with an inputSchema on each, against the same page with MCP-B's
//     @mcp-b/global (load.go);
//  2. long tasks on the page's thread during that load;
//  3. the cold first call (module fetched, compiled and started in the bridge's Worker, a result
//     normalized) against a Worker that starts a minimal Go WebAssembly program (startup.go);
//  4. per call through the browser's own executeTool, bridge against native WebMCP (median of
//     paired ratios, pages alternated round by round);
//  5. the page's thread during a ~500 KB HTML normalize (mainthread.go);
//  6. sanitizing ~500 KB against DOMPurify and Element.setHTML on the same page, two documents,
//     with bluemonday alone and the module's normalize beside the whole one;
//  7. a ~15 MiB object of many small members, and a small call queued behind it (wide.go);
//  8. natively in Go, Normalize of 500 KB of HTML: throughput and allocations (wide.go);
//  9. heaps, Workers and JS values held by Go over 100,000 calls and 10 forced restarts
//     (memory.go);
//  10. 10 KB and 512 KB of HTML per call against bluemonday's UGCPolicy alone, each page →
//     Worker → page, and the module's stages timed inside WebAssembly (floor.go);
//  11. natively, a CPU profile of NormalizeJSON split by where the time goes, against
//     UGCPolicy in the same run (profile.go).
//
// Pages and libraries are served gzip-compressed (serve.go). Rows 1–3 use the shipped build
// (web/dist); the others the test build (out/testdist: the same loader, a module with the
// test-only exports stats and crashForTest). The yardsticks — a minimal Go wasm, bluemonday's
// UGCPolicy alone, and the module's stages apart — are Go programs under this directory that the
// bench builds for js/wasm with the same Go.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

// mcpbIIFE is MCP-B's @mcp-b/global as a script tag uses it (its dist IIFE build), in the bench's
// npm folder: `make bench` installs the exact version of the Makefile.
const mcpbIIFE = "@mcp-b/global/dist/index.iife.js"

func main() {
	b, o := parseFlags()
	switch {
	case o.relay != 0:
		relayReport(o, b.dist)
	case o.compare != 0:
		compareClients(o, b.dist)
	default:
		b.run(o)
	}
	exit(0)
}

// options are the flags that choose what a run does, beside bench's own settings.
type options struct {
	pages, docs    string
	docsSet        bool // -docs was given
	compare, relay int
}

func parseFlags() (*bench, options) {
	b := &bench{rowLoad: map[string]string{}}
	var o options
	flag.StringVar(&b.dist, "dist", "web/dist", "the shipped build (make build): the load and cold-start rows")
	flag.StringVar(&b.testdist, "testdist", "out/testdist", "the test build (make build-test): the other rows")
	flag.StringVar(&o.pages, "pages", "cmd/webmcp-bench/pages", "the benchmark pages, served as /bench/")
	flag.StringVar(&b.deps, "deps", ".cache/bench/node_modules", "where npm installed DOMPurify and @mcp-b/global")
	flag.IntVar(&b.rounds, "rounds", 21, "paired rounds per per-call case")
	flag.IntVar(&b.calls, "calls", 60, "calls per page per round")
	flag.IntVar(&b.loads, "loads", 3, "page loads per page for the load rows")
	flag.IntVar(&b.starts, "starts", 11, "paired fresh-tab starts for the cold first call and start-up to main")
	flag.IntVar(&b.runs, "runs", 7, "timed runs per sanitizer and document")
	flag.IntVar(&b.memCalls, "memory-calls", 100000, "calls for the memory row")
	flag.IntVar(&b.restartN, "restarts", 10, "forced module restarts")
	flag.StringVar(&b.only, "only", "", "run only these parts, comma-separated: "+strings.Join(stepNames(), ", "))
	flag.StringVar(&b.command, "command", "make bench", "the command named under the table")
	flag.IntVar(&o.compare, "compare", 0, "instead: call the demo's chart, article and table tools this many times "+
		"through webmcp-mcp and through Playwright MCP (@playwright/mcp from npm) and print what each client gets")
	flag.IntVar(&o.relay, "relay", 0, "instead: list and call a page of five tools this many times through "+
		"webmcp-mcp -open, webmcp-mcp -extension and MCP-B's local relay (relay.go) and print the three")
	flag.StringVar(&o.docs, "docs", "docs/benchmarks.md",
		"where the report is written as Markdown (a run with -only writes it only when -docs is given)")
	flag.Parse()
	flag.Visit(func(f *flag.Flag) { o.docsSet = o.docsSet || f.Name == "docs" })
	return b, o
}

// compareClients prints what an MCP client gets from webmcp-mcp and from Playwright MCP; with
// -docs, it appends that to the report of the run before it (make bench).
func compareClients(o options, dist string) {
	var out bytes.Buffer
	check(runCompare(context.Background(), o.compare, dist, io.MultiWriter(os.Stdout, &out)))
	if !o.docsSet {
		return
	}
	check(appendReport(o.docs, "What an MCP client gets", fmt.Sprintf("webmcp-bench -compare %d", o.compare), out.String()))
}

// appendReport appends a section to the report of the run before it (make bench): its title,
// the command that measured it, and what that printed.
func appendReport(docs, title, command, text string) error {
	f, err := os.OpenFile(docs, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "\n## %s\n\n`%s`, right after the run above:\n\n%s", title, command, text)
	return errors.Join(err, f.Close())
}

// run measures every step (or those of -only) in one headless Chromium and writes the report.
func (b *bench) run(o options) {
	started, load0 := time.Now(), loadAverage()
	b.serve(o.pages)
	b.startChromium()
	b.step("size", b.moduleSize)
	b.step("load", b.pageLoad)
	b.step("cold", func() { b.coldStart(); b.toMain() })
	b.step("visit", b.secondVisit)
	b.openPairedPages()
	b.step("percall", b.perCall)
	b.step("floor", b.againstFloor)
	b.step("mainthread", b.mainThread)
	b.step("sanitize", b.sanitize)
	b.step("wide", b.wide)
	b.step("native", b.nativeGo)
	b.step("memory", b.memory)
	b.elapsed = time.Since(started)
	b.load = load0 + " → " + loadAverage()
	if b.only == "" {
		b.checkEveryRow()
	}
	report := b.report(time.Now())
	fmt.Print(report)
	if o.docs != "" && (b.only == "" || o.docsSet) {
		check(os.MkdirAll(filepath.Dir(o.docs), 0o755))
		check(os.WriteFile(o.docs, []byte(report), 0o644))
		fmt.Fprintf(os.Stderr, "bench: wrote %s\n", o.docs)
	}
}

// startChromium starts the headless Chromium every step runs in, with a fresh profile removed at
// exit.
func (b *bench) startChromium() {
	chromium, err := headless.ChromiumPath()
	check(err)
	profile, err := os.MkdirTemp("", "webmcp-bench-")
	check(err)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), headless.Options(chromium, profile, true,
		chromedp.Flag("enable-precise-memory-info", true), chromedp.Flag("js-flags", "--expose-gc"))...)
	root, cancelRoot := chromedp.NewContext(actx)
	atExit(func() { cancelRoot(); cancel(); os.RemoveAll(profile) }) // the browser first: it writes to its profile
	check(chromedp.Do(root))
	b.root = root
	v, err := chromedp.CallBrowser(root, browser.GetVersion, cdp.Empty{})
	check(err)
	b.chromium = "Chromium " + strings.TrimPrefix(strings.TrimPrefix(v.Product, "HeadlessChrome/"), "Chrome/")
}

// openPairedPages opens the two pages the per-call rows compare, one with native WebMCP only and
// one with the bridge, and warms both.
func (b *bench) openPairedPages() {
	native, cancelN := chromedp.NewContext(b.root)
	bridged, cancelB := chromedp.NewContext(b.root)
	atExit(func() { cancelB(); cancelN() })
	check(chromedp.Do(native, chromedp.Navigate(b.base+"/bench/native.html")))
	check(chromedp.Do(bridged, chromedp.Navigate(b.base+"/bench/bridge.html")))
	var ok bool
	check(headless.Eval(bridged, `await WebMCPBridge.ready; return WebMCPBridge.native`, &ok))
	if !ok {
		check(errors.New("Chromium did not expose native WebMCP (--enable-features=WebMCP); per-call ratios need it"))
	}
	b.native, b.bridged = native, bridged
	// Warm both pages, and give the module's optimizing compile (in the background after its
	// start) time to finish, so that no row measures its baseline code.
	for _, page := range []context.Context{native, bridged} {
		do(page, `await perCall("html_10kb", 20); await perCall("png_100kb", 20); return null`)
	}
	time.Sleep(time.Second)
}

// checkEveryRow fails a whole run that left a row of some step unmeasured.
func (b *bench) checkEveryRow() {
	for _, s := range steps {
		for _, r := range s.rows {
			if !slices.ContainsFunc(b.rows, func(x row) bool { return x.id == r.id }) {
				check(fmt.Errorf("a whole run did not measure the row %q (is its step, %s, run?)", r.id, s.name))
			}
		}
	}
}

// serve builds the bench's own wasm programs and serves the builds, the pages, the yardsticks
// and the load pages on a loopback port, gzip-compressed, logging what it answers.
func (b *bench) serve(pages string) {
	helpers, err := os.MkdirTemp("", "webmcp-bench-wasm-")
	check(err)
	atExit(func() { os.RemoveAll(helpers) })
	goroot := buildHelpers(helpers)
	b.helpers = helpers
	mux := http.NewServeMux()
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(b.dist)))
	mux.Handle("/cached-dist/", http.StripPrefix("/cached-dist/", cacheable(b.dist)))
	mux.Handle("/testdist/", http.StripPrefix("/testdist/", serve.Handler(b.testdist)))
	mux.Handle("/bench/", http.StripPrefix("/bench/", serve.Handler(pages)))
	mux.Handle("/bench-deps/", http.StripPrefix("/bench-deps/", serve.Handler(b.deps)))
	mux.Handle("/helpers/", http.StripPrefix("/helpers/", serve.Handler(b.helpers)))
	mux.Handle("/wasm-exec/", http.StripPrefix("/wasm-exec/", serve.Handler(filepath.Join(goroot, "lib", "wasm"))))
	tools, err := os.ReadFile(filepath.Join(pages, "tools.js"))
	check(err)
	mux.HandleFunc("/load/bridge.html", loadPage("/dist/webmcp-bridge.js", string(tools), false))
	mux.HandleFunc("/load/bridge-schema.html", loadPage("/dist/webmcp-bridge.js", string(tools), true))
	mux.HandleFunc("/load/bridge-cached.html", loadPage("/cached-dist/webmcp-bridge.js", string(tools), false))
	mux.HandleFunc("/load/mcpb.html", loadPage("/bench-deps/"+mcpbIIFE, string(tools), false))
	b.log = &serverLog{}
	handler := gzipped(mux)
	warm(
		handler,
		"/dist/webmcp-bridge.js",
		"/dist/webmcp-bridge-worker.js",
		"/dist/webmcp-bridge.wasm",
		"/testdist/webmcp-bridge.js",
		"/testdist/webmcp-bridge-worker.js",
		"/testdist/webmcp-bridge.wasm",
		"/helpers/minimal.wasm",
		"/helpers/sanitizeonly.wasm",
		"/helpers/bluemondayonly.wasm",
		"/wasm-exec/wasm_exec.js",
		"/bench-deps/"+mcpbIIFE,
		"/bench-deps/dompurify/dist/purify.min.js",
	)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	go http.Serve(ln, b.log.wrap(handler))
	// localhost (not 127.0.0.1): a secure context, as WebMCP requires.
	b.base = fmt.Sprintf("http://localhost:%d", ln.Addr().(*net.TCPAddr).Port)
}

// bench holds the pages and settings of one run and the table's rows.
type bench struct {
	base, dist, testdist, deps, command, chromium, only string
	helpers                                             string // the bench's own wasm programs
	root, native, bridged                               context.Context
	log                                                 *serverLog
	rounds, calls, loads, starts, runs                  int
	memCalls, restartN                                  int
	rows                                                []row
	stepRows                                            []string // the rows the running step must measure
	notes                                               []string
	sections                                            []string // Markdown sections after the notes
	// row id → the 1-minute load average when it was measured
	rowLoad map[string]string
	elapsed time.Duration
	// the machine's 1-minute load average at the start and the end
	load string
}

// row is one line of the table: what, the figures measured, the ratio, the target and whether
// it is met ("yes", "no", or "" where there is nothing to meet).
type row struct{ id, what, measured, ratio, target, met string }

// add records a measured row: one the running step declares (steps), once.
func (b *bench) add(r row) {
	if !slices.Contains(b.stepRows, r.id) || slices.ContainsFunc(b.rows, func(x row) bool { return x.id == r.id }) {
		check(fmt.Errorf("row %q is not one the running step declares, or is measured twice", r.id))
	}
	b.rows = append(b.rows, r)
	b.rowLoad[r.id] = loadAverage()
}

func (b *bench) note(format string, args ...any) {
	b.notes = append(b.notes, fmt.Sprintf(format, args...))
}

// step runs the part of the bench called name (unless -only leaves it out) and checks that it
// measured every row steps declares for it.
func (b *bench) step(name string, f func()) {
	if b.only != "" && !slices.Contains(strings.Split(b.only, ","), name) {
		return
	}
	t0 := time.Now()
	fmt.Fprintf(os.Stderr, "bench: %s…\n", name)
	b.stepRows = stepRows(name)
	f()
	for _, id := range b.stepRows {
		if !slices.ContainsFunc(b.rows, func(r row) bool { return r.id == id }) {
			check(fmt.Errorf("the %s step did not measure its row %q", name, id))
		}
	}
	b.stepRows = nil
	fmt.Fprintf(os.Stderr, "bench: %s done in %.1f s\n", name, time.Since(t0).Seconds())
}

func met(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// perCall times executeTool round trips, bridge against native, alternating which page goes first.
func (b *bench) perCall() {
	for _, c := range []struct {
		id, tool, what string
		target         float64 // × native; 0: see targetMs
		targetMs       float64 // ms per call with the bridge
	}{
		{"percall-text", "text_1kb", "4. warm per call, 1 KB text", 1.10, 0},
		{"percall-html", "html_10kb", "4. warm per call, 10 KB HTML", 0, 2.0},
		{"percall-png", "png_100kb", "4. warm per call, 100 KB PNG", 1.5, 0},
	} {
		var ratios, nat, bri []float64
		for r := 0; r < b.rounds; r++ {
			var n, w float64 // µs per call natively and with the bridge
			js := fmt.Sprintf(`return await perCall(%q, %d)`, c.tool, b.calls)
			if r%2 == 0 {
				check(headless.Eval(b.native, js, &n))
				check(headless.Eval(b.bridged, js, &w))
			} else {
				check(headless.Eval(b.bridged, js, &w))
				check(headless.Eval(b.native, js, &n))
			}
			nat, bri, ratios = append(nat, n), append(bri, w), append(ratios, w/n)
		}
		ratio := median(ratios)
		target, ok := fmt.Sprintf("≤ %.2f × native", c.target), ratio <= c.target
		if c.targetMs > 0 {
			target, ok = fmt.Sprintf("≤ %.1f ms", c.targetMs), median(bri)/1000 <= c.targetMs
		}
		b.add(
			row{
				c.id,
				c.what,
				fmt.Sprintf(
					"%s vs %s native `executeTool` (%d rounds of %d calls)",
					micro(median(bri)),
					micro(median(nat)),
					b.rounds,
					b.calls,
				),
				fmt.Sprintf("%.2f ×", ratio),
				target,
				met(ok),
			},
		)
	}
}

// sanitize times ~500 KB of HTML through the bridge, DOMPurify and Element.setHTML on one page,
// for the bench's own article and a link- and table-heavy document: at least 15 rounds, the
// calls alternated, each after a full GC of the page (sanitizers in pages.js); the ratios are
// the medians of the rounds' ratios.
func (b *bench) sanitize() {
	for _, doc := range []struct {
		name, what         string
		dompurify, setHTML float64 // targets: × DOMPurify, × setHTML
	}{{"article", "article", 0.40, 1.6}, {"linktable", "link- and table-heavy", 0.6, 5}} {
		var s struct {
			Bytes     int      `json:"bytes"`
			Normalize float64  `json:"normalize"`
			DOMPurify *float64 `json:"dompurify"`
			SetHTML   *float64 `json:"setHTML"`
			Ratios    struct {
				DOMPurify, SetHTML float64 // normalize's, round by round
			} `json:"ratios"`
		}
		check(headless.Eval(b.bridged, fmt.Sprintf(`return await sanitizers(%q, %d)`, doc.name, max(b.runs, 15)), &s))
		rate := func(ms float64) string { return fmt.Sprintf("%.0f ms (%.1f MB/s)", ms, float64(s.Bytes)/ms/1000) }
		kb := fmt.Sprintf("%d KB %s", s.Bytes/1000, doc.what)
		if s.DOMPurify != nil {
			r := s.Ratios.DOMPurify
			b.add(
				row{
					doc.name + "-dompurify",
					"6. sanitize " + kb + ": normalize vs DOMPurify",
					rate(s.Normalize) + " vs " + rate(*s.DOMPurify),
					fmt.Sprintf("%.2f ×", r),
					fmt.Sprintf("≤ %.2f × DOMPurify", doc.dompurify),
					met(r <= doc.dompurify),
				},
			)
		} else {
			b.add(row{doc.name + "-dompurify", "6. sanitize vs DOMPurify",
				"DOMPurify is not installed in " + b.deps + " (npm unreachable?)", "—",
				fmt.Sprintf("≤ %.2f × DOMPurify", doc.dompurify), "—"})
		}
		if s.SetHTML != nil {
			r := s.Ratios.SetHTML
			b.add(
				row{
					doc.name + "-sethtml",
					"6. sanitize " + kb + ": normalize vs `setHTML`",
					rate(s.Normalize) + " vs " + rate(*s.SetHTML),
					fmt.Sprintf("%.2f ×", r),
					fmt.Sprintf("≤ %.1f × `setHTML`", doc.setHTML),
					met(r <= doc.setHTML),
				},
			)
		} else {
			b.add(row{doc.name + "-sethtml", "6. sanitize vs `setHTML`", "Element.setHTML is not in this Chromium", "—",
				fmt.Sprintf("≤ %.1f × `setHTML`", doc.setHTML), "—"})
		}
	}
}

// buildHelpers builds the bench's own Go programs for js/wasm into dir, with the Go on PATH (or
// $GO), and returns that Go's GOROOT, whose lib/wasm/wasm_exec.js runs them.
func buildHelpers(dir string) string {
	build := func(out, pkg string, args ...string) {
		check(wasmGo(append(append([]string{"build", "-trimpath"}, args...), "-o", filepath.Join(dir, out), pkg)...).Run())
	}
	for _, p := range []string{"minimal", "sanitizeonly", "bluemondayonly"} {
		build(p+".wasm", "./cmd/webmcp-bench/"+p, "-ldflags=-s -w")
	}
	// With their symbols, for the size row's view per package: the module and the floor.
	build("module-symbols.wasm", "./wasm")
	build("bluemondayonly-symbols.wasm", "./cmd/webmcp-bench/bluemondayonly")
	out, err := exec.Command(goCommand(), "env", "GOROOT").Output()
	check(err)
	return strings.TrimSpace(string(out))
}

// loadAverage is the 1-minute load average (/proc/loadavg), "?" where there is none.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(raw)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "CPU model unknown"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "CPU model unknown"
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func micro(us float64) string {
	if us >= 1000 {
		return fmt.Sprintf("%.2f ms", us/1000)
	}
	return fmt.Sprintf("%.0f µs", us)
}

// do runs an async function body in the page and ignores its value.
func do(ctx context.Context, js string) {
	var discard any
	check(headless.Eval(ctx, js, &discard))
}

// cleanups run when the bench ends, however it ends (check exits at once, and deferred
// calls would not run): the browser stops and the temporary folders go.
var cleanups []func()

func atExit(f func()) { cleanups = append(cleanups, f) }

func exit(code int) {
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	os.Exit(code)
}

func check(err error) {
	if err != nil {
		log.Printf("bench: %v", err)
		exit(1)
	}
}
