//go:build !js

// Command webmcp-bench measures webmcp-bridge in headless Chromium and prints one table (`make bench`
// runs it after the Go benchmarks): per-call cost against native WebMCP through the browser's own
// executeTool (median of paired ratios, pages alternated round by round), sanitizing ~500 KB of
// HTML against DOMPurify and Element.setHTML on the same page, start-up against a minimal Go
// WebAssembly program built with the same Go, the module's size, and heaps over 100,000 calls.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

func main() {
	web := flag.String("web", "web", "the web/ folder")
	dist := flag.String("dist", "out/testdist", "the test build of the loader and module (make build-test), served as /dist/")
	pages := flag.String("pages", "cmd/webmcp-bench/pages", "the benchmark pages, served as /bench/")
	deps := flag.String("deps", ".cache/bench/node_modules", "where npm installed DOMPurify for the benchmark")
	b := &bench{web: *web}
	flag.IntVar(&b.rounds, "rounds", 21, "paired rounds per per-call case")
	flag.IntVar(&b.calls, "calls", 60, "calls per page per round")
	flag.IntVar(&b.memCalls, "memory-calls", 100000, "calls for the memory check")
	flag.Parse()
	b.web, b.dist = *web, *dist

	mux := http.NewServeMux()
	mux.Handle("/", serve.Handler(*web))
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(*dist)))
	mux.Handle("/bench/", http.StripPrefix("/bench/", serve.Handler(*pages)))
	mux.Handle("/bench-deps/", http.StripPrefix("/bench-deps/", serve.Handler(*deps)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	go http.Serve(ln, mux)
	b.base = fmt.Sprintf("http://localhost:%d", ln.Addr().(*net.TCPAddr).Port)

	chromium, err := headless.ChromiumPath()
	check(err)
	profile, err := os.MkdirTemp("", "webmcp-bench-")
	check(err)
	defer os.RemoveAll(profile)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), headless.Options(chromium, profile, true,
		chromedp.Flag("enable-precise-memory-info", true), chromedp.Flag("js-flags", "--expose-gc"))...)
	defer cancel()
	root, cancel2 := chromedp.NewContext(actx)
	defer cancel2()
	check(chromedp.Do(root))
	b.root = root
	var version string
	chromeVersion(root, &version)

	// Per-call cases compare a page with the bridge and one with native WebMCP only.
	native, cancelN := chromedp.NewContext(root)
	defer cancelN()
	bridged, cancelB := chromedp.NewContext(root)
	defer cancelB()
	check(chromedp.Do(native, chromedp.Navigate(b.base+"/bench/native.html")))
	check(chromedp.Do(bridged, chromedp.Navigate(b.base+"/bench/bridge.html")))
	var ok bool
	check(headless.Eval(bridged, `await WebMCPBridge.ready; return WebMCPBridge.native`, &ok))
	if !ok {
		log.Fatal("bench: Chromium did not expose native WebMCP (--enable-features=WebMCP); per-call ratios need it")
	}
	b.native, b.bridged = native, bridged

	b.perCall()
	b.sanitize()
	b.startup()
	b.size()
	b.memory()
	b.print(version)
}

// bench holds the pages and settings of one run and the table's rows.
type bench struct {
	base, web, dist         string
	root, native, bridged   context.Context
	rounds, calls, memCalls int
	rows                    [][]string
}

func (b *bench) add(cells ...string) { b.rows = append(b.rows, cells) }

// perCall times executeTool round trips, bridge against native, alternating which page goes first.
func (b *bench) perCall() {
	for _, c := range []struct{ tool, what, target string }{
		{"text_1kb", "per call, 1 KB text", "≤ 1.10"},
		{"html_10kb", "per call, 10 KB HTML", "≤ 1.25"},
		{"png_100kb", "per call, 100 KB PNG", "≤ 1.25"},
	} {
		var ratios, nat, bri []float64
		for r := 0; r < b.rounds; r++ {
			var n, w float64 // µs per call natively and with the bridge
			js := fmt.Sprintf(`return await perCall(%q, %d)`, c.tool, b.calls)
			if r%2 == 0 { // alternate which page goes first
				check(headless.Eval(b.native, js, &n))
				check(headless.Eval(b.bridged, js, &w))
			} else {
				check(headless.Eval(b.bridged, js, &w))
				check(headless.Eval(b.native, js, &n))
			}
			nat, bri, ratios = append(nat, n), append(bri, w), append(ratios, w/n)
		}
		b.add(c.what, fmt.Sprintf("%.0f µs vs %.0f µs native", median(bri), median(nat)), fmt.Sprintf("%.2f ×", median(ratios)), c.target+" × native")
	}
}

// sanitize times ~500 KB of HTML through normalize, DOMPurify and Element.setHTML on one page.
func (b *bench) sanitize() {
	var san struct {
		Bytes     int      `json:"bytes"`
		Bridge    float64  `json:"bridge"`
		DOMPurify *float64 `json:"dompurify"`
		SetHTML   *float64 `json:"setHTML"`
	}
	check(headless.Eval(b.bridged, `return await sanitizers(7)`, &san))
	mbps := func(ms float64) string { return fmt.Sprintf("%.1f ms (%.1f MB/s)", ms, float64(san.Bytes)/ms/1000) }
	if san.DOMPurify != nil {
		b.add(fmt.Sprintf("sanitize %d KB: normalize vs DOMPurify", san.Bytes/1024), mbps(san.Bridge)+" vs "+mbps(*san.DOMPurify), fmt.Sprintf("%.2f ×", san.Bridge / *san.DOMPurify), "≤ 0.5 × DOMPurify")
	} else {
		b.add("sanitize vs DOMPurify", "DOMPurify not installed (npm unreachable?)", "—", "≤ 0.5 × DOMPurify")
	}
	if san.SetHTML != nil {
		b.add(fmt.Sprintf("sanitize %d KB: normalize vs setHTML", san.Bytes/1024), mbps(san.Bridge)+" vs "+mbps(*san.SetHTML), fmt.Sprintf("%.2f ×", san.Bridge / *san.SetHTML), "≤ 1.0 × setHTML")
	} else {
		b.add("sanitize vs setHTML", "Element.setHTML is not in this Chromium", "—", "≤ 1.0 × setHTML")
	}
}

// startup times fresh page loads from the script tag to ready, against a minimal Go wasm.
func (b *bench) startup() {
	var bridgeMs, minimalMs, startRatios []float64
	for r := 0; r < 7; r++ {
		for _, which := range []string{"startBridge", "startMinimal"} {
			tab, cancelT := chromedp.NewContext(b.root)
			check(chromedp.Do(tab, chromedp.Navigate(b.base+"/bench/empty.html")))
			var ms float64
			check(headless.Eval(tab, "return await "+which+"()", &ms))
			cancelT()
			if which == "startBridge" {
				bridgeMs = append(bridgeMs, ms)
			} else {
				minimalMs = append(minimalMs, ms)
				startRatios = append(startRatios, bridgeMs[len(bridgeMs)-1]/ms)
			}
		}
	}
	b.add("start-up to ready", fmt.Sprintf("%.0f ms vs %.0f ms minimal Go wasm", median(bridgeMs), median(minimalMs)), fmt.Sprintf("%.2f ×", median(startRatios)), "≤ 1.5 × minimal")
}

// size reports the shipped module's size against a minimal Go wasm.
func (b *bench) size() {
	raw, err := os.ReadFile(filepath.Join(b.web, "dist", "webmcp-bridge.wasm"))
	check(err)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(raw)
	_ = zw.Close()
	min, err := os.ReadFile(filepath.Join(b.dist, "minimal.wasm"))
	check(err)
	b.add("module size", fmt.Sprintf("%.2f MiB raw, %.2f MiB gzip -9 (minimal Go wasm: %.2f MiB raw)", mib(len(raw)), mib(gz.Len()), mib(len(min))), fmt.Sprintf("%.2f MiB", mib(gz.Len())), "≤ 1 MiB gzip")
}

// memory reports heaps before and after many calls, on the bridge page and the native one.
func (b *bench) memory() {
	var mem struct {
		Before struct {
			JS float64            `json:"js"`
			Go map[string]float64 `json:"go"`
		} `json:"before"`
		After struct {
			JS float64            `json:"js"`
			Go map[string]float64 `json:"go"`
		} `json:"after"`
	}
	nativeMem := mem
	check(headless.Eval(b.native, fmt.Sprintf(`return await memory(%d)`, b.memCalls), &nativeMem))
	check(headless.Eval(b.bridged, fmt.Sprintf(`return await memory(%d)`, b.memCalls), &mem))
	b.add(fmt.Sprintf("heaps over %d calls", b.memCalls),
		fmt.Sprintf("JS %.1f → %.1f MB (native page: %.1f → %.1f MB); Go %.2f → %.2f MB; goroutines %.0f → %.0f; js.Func: none per call",
			mem.Before.JS/1e6, mem.After.JS/1e6, nativeMem.Before.JS/1e6, nativeMem.After.JS/1e6,
			mem.Before.Go["heapAlloc"]/1e6, mem.After.Go["heapAlloc"]/1e6, mem.Before.Go["goroutines"], mem.After.Go["goroutines"]),
		fmt.Sprintf("Go %+.2f MB", (mem.After.Go["heapAlloc"]-mem.Before.Go["heapAlloc"])/1e6), "flat")
}

func (b *bench) print(version string) {
	fmt.Printf("\nwebmcp-bridge in headless %s, %s, %d cores, %s\n\n", version, runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), time.Now().Format("2006-01-02"))
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "what\tmeasured\tratio\ttarget")
	fmt.Fprintln(w, "----\t--------\t-----\t------")
	for _, r := range b.rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	w.Flush()
}

func chromeVersion(ctx context.Context, out *string) {
	var ua string
	_ = headless.Eval(ctx, `return navigator.userAgent`, &ua)
	*out = "Chromium"
	for _, f := range strings.Fields(ua) {
		if strings.HasPrefix(f, "HeadlessChrome/") || strings.HasPrefix(f, "Chrome/") {
			*out = "Chromium " + strings.SplitN(f, "/", 2)[1]
		}
	}
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

func mib(n int) float64 { return float64(n) / (1 << 20) }

func check(err error) {
	if err != nil {
		log.Fatalf("bench: %v", err)
	}
}
