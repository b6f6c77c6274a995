//go:build !js

// Command bench measures webmcp-bridge in headless Chromium and prints one table (`make bench`
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
	web := flag.String("web", "web", "the web/ folder (built)")
	deps := flag.String("deps", ".cache/bench/node_modules", "where npm installed DOMPurify for the benchmark")
	rounds := flag.Int("rounds", 21, "paired rounds per per-call case")
	calls := flag.Int("calls", 60, "calls per page per round")
	memCalls := flag.Int("memory-calls", 100000, "calls for the memory check")
	flag.Parse()

	mux := http.NewServeMux()
	mux.Handle("/", serve.Handler(*web))
	mux.Handle("/bench-deps/", http.StripPrefix("/bench-deps/", serve.Handler(*deps)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	go http.Serve(ln, mux)
	base := fmt.Sprintf("http://localhost:%d", ln.Addr().(*net.TCPAddr).Port)

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

	var version string
	chromeVersion(root, &version)
	rows := [][]string{}
	add := func(cells ...string) { rows = append(rows, cells) }

	// 1. Per call, bridge against native, alternating pages.
	native, cancelN := chromedp.NewContext(root)
	defer cancelN()
	bridged, cancelB := chromedp.NewContext(root)
	defer cancelB()
	check(chromedp.Do(native, chromedp.Navigate(base+"/bench/native.html")))
	check(chromedp.Do(bridged, chromedp.Navigate(base+"/bench/bridge.html")))
	var ok bool
	check(headless.Eval(bridged, `await WebMCPBridge.ready; return WebMCPBridge.native`, &ok))
	if !ok {
		log.Fatal("bench: Chromium did not expose native WebMCP (--enable-features=WebMCP); per-call ratios need it")
	}
	for _, c := range []struct{ tool, what, target string }{
		{"text_1kb", "per call, 1 KB text", "≤ 1.10"},
		{"html_10kb", "per call, 10 KB HTML", "≤ 1.25"},
		{"png_100kb", "per call, 100 KB PNG", "≤ 1.25"},
	} {
		var ratios, nat, bri []float64
		for r := 0; r < *rounds; r++ {
			var n, b float64
			js := fmt.Sprintf(`return await perCall(%q, %d)`, c.tool, *calls)
			if r%2 == 0 { // alternate which page goes first
				check(headless.Eval(native, js, &n))
				check(headless.Eval(bridged, js, &b))
			} else {
				check(headless.Eval(bridged, js, &b))
				check(headless.Eval(native, js, &n))
			}
			nat, bri, ratios = append(nat, n), append(bri, b), append(ratios, b/n)
		}
		add(c.what, fmt.Sprintf("%.0f µs vs %.0f µs native", median(bri), median(nat)), fmt.Sprintf("%.2f ×", median(ratios)), c.target+" × native")
	}

	// 2. Sanitizing ~500 KB.
	var san struct {
		Bytes     int      `json:"bytes"`
		Bridge    float64  `json:"bridge"`
		DOMPurify *float64 `json:"dompurify"`
		SetHTML   *float64 `json:"setHTML"`
	}
	check(headless.Eval(bridged, `return await sanitizers(7)`, &san))
	mbps := func(ms float64) string { return fmt.Sprintf("%.1f ms (%.1f MB/s)", ms, float64(san.Bytes)/ms/1000) }
	if san.DOMPurify != nil {
		add(fmt.Sprintf("sanitize %d KB: normalize vs DOMPurify", san.Bytes/1024), mbps(san.Bridge)+" vs "+mbps(*san.DOMPurify), fmt.Sprintf("%.2f ×", san.Bridge / *san.DOMPurify), "≤ 0.5 × DOMPurify")
	} else {
		add("sanitize vs DOMPurify", "DOMPurify not installed (npm unreachable?)", "—", "≤ 0.5 × DOMPurify")
	}
	if san.SetHTML != nil {
		add(fmt.Sprintf("sanitize %d KB: normalize vs setHTML", san.Bytes/1024), mbps(san.Bridge)+" vs "+mbps(*san.SetHTML), fmt.Sprintf("%.2f ×", san.Bridge / *san.SetHTML), "≤ 1.0 × setHTML")
	} else {
		add("sanitize vs setHTML", "Element.setHTML is not in this Chromium", "—", "≤ 1.0 × setHTML")
	}

	// 3. Start-up, fresh page loads, alternating.
	var bridgeMs, minimalMs, startRatios []float64
	for r := 0; r < 7; r++ {
		for _, which := range []string{"startBridge", "startMinimal"} {
			tab, cancelT := chromedp.NewContext(root)
			check(chromedp.Do(tab, chromedp.Navigate(base+"/bench/empty.html")))
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
	add("start-up to ready", fmt.Sprintf("%.0f ms vs %.0f ms minimal Go wasm", median(bridgeMs), median(minimalMs)), fmt.Sprintf("%.2f ×", median(startRatios)), "≤ 1.5 × minimal")

	// 4. Module size.
	raw, err := os.ReadFile(filepath.Join(*web, "dist", "webmcp-bridge.wasm"))
	check(err)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(raw)
	_ = zw.Close()
	min, err := os.ReadFile(filepath.Join(*web, "dist", "bench", "minimal.wasm"))
	check(err)
	add("module size", fmt.Sprintf("%.2f MiB raw, %.2f MiB gzip -9 (minimal Go wasm: %.2f MiB raw)", mib(len(raw)), mib(gz.Len()), mib(len(min))), fmt.Sprintf("%.2f MiB", mib(gz.Len())), "≤ 1 MiB gzip")

	// 5. Memory over many calls.
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
	check(headless.Eval(native, fmt.Sprintf(`return await memory(%d)`, *memCalls), &nativeMem))
	check(headless.Eval(bridged, fmt.Sprintf(`return await memory(%d)`, *memCalls), &mem))
	add(fmt.Sprintf("heaps over %d calls", *memCalls),
		fmt.Sprintf("JS %.1f → %.1f MB (native page: %.1f → %.1f MB); Go %.2f → %.2f MB; goroutines %.0f → %.0f; js.Func: none per call",
			mem.Before.JS/1e6, mem.After.JS/1e6, nativeMem.Before.JS/1e6, nativeMem.After.JS/1e6,
			mem.Before.Go["heapAlloc"]/1e6, mem.After.Go["heapAlloc"]/1e6, mem.Before.Go["goroutines"], mem.After.Go["goroutines"]),
		fmt.Sprintf("Go %+.2f MB", (mem.After.Go["heapAlloc"]-mem.Before.Go["heapAlloc"])/1e6), "flat")

	fmt.Printf("\nwebmcp-bridge in headless %s, %s, %d cores, %s\n\n", version, runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), time.Now().Format("2006-01-02"))
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "what\tmeasured\tratio\ttarget")
	fmt.Fprintln(w, "----\t--------\t-----\t------")
	for _, r := range rows {
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
