//go:build !js

package browsertest

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

type conformanceResult struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	WPT   string `json:"wpt"` // the WPT file the check stands for, under webmcp/
	Gap   string `json:"gap"` // why the fallback cannot pass it (runConformance({all: true}) only)
}

// conformancePages are the pages of the conformance checks: the imperative suite
// (conformance.html) and the declarative one, each in a normal document, in a document with an
// opaque origin and in one with document.domain enabled (see serveConformance).
var conformancePages = []string{
	"/test/conformance.html", "/sandboxed/conformance.html", "/domain/conformance.html",
	"/test/declarative-conformance.html", "/sandboxed/declarative-conformance.html",
	"/domain/declarative-conformance.html",
}

// serveConformance serves what serveWeb serves, and the test pages also under /sandboxed/ (a
// CSP sandbox with scripts: an opaque origin, as WPT's *.headers files make it) and /domain/
// (Origin-Agent-Cluster: ?0, which enables document.domain).
func serveConformance(t *testing.T) string {
	t.Helper()
	mux := pageRoutes(t, fromRoot("web", "dist"))
	sandboxed := http.StripPrefix("/sandboxed/", serve.Handler("pages"))
	mux.Handle("/sandboxed/", withHeader(csp, "sandbox allow-scripts", sandboxed))
	mux.Handle("/domain/", withHeader("Origin-Agent-Cluster", "?0", http.StripPrefix("/domain/", serve.Handler("pages"))))
	return listen(t, "localhost", mux)
}

// runConformance runs pages/conformance.js — the draft behaviours the WPT webmcp/ suites check
// for one document — on each conformance page, with normalization off, so results are raw as
// the draft gives them: against the bridge's own ModelContext (native false) or against
// Chromium's (native true, which the bridge then leaves alone). all adds the checks the
// fallback cannot pass by design.
func runConformance(t *testing.T, native, all bool) []conformanceResult {
	base := serveConformance(t)
	ctx := browser(t, native)
	var results []conformanceResult
	for _, page := range conformancePages {
		open(t, ctx, base+page)
		var got []conformanceResult
		eval(t, ctx, fmt.Sprintf(`return await runConformance({all: %v})`, all), &got)
		if all || !strings.HasPrefix(page, "/domain/") { // the fallback has only gaps there
			require.NotEmpty(t, got, page)
		}
		for i := range got {
			got[i].Name = page + ": " + got[i].Name
		}
		results = append(results, got...)
	}
	require.GreaterOrEqual(t, len(results), 100)
	return results
}

// TestConformanceAgainstNative runs the same checks against native WebMCP, to keep the checks
// honest: no check may name a behaviour that native Chromium has and the fallback lacks, unless
// it is a gap the page names. It logs, per WPT file, how many checks native Chromium and the
// fallback pass, and each failure with its reason.
func TestConformanceAgainstNative(t *testing.T) {
	skipWithoutBuild(t)
	fallback := map[string]conformanceResult{}
	for _, r := range runConformance(t, false, true) {
		fallback[r.Name] = r
	}
	type count struct{ checks, native, fallback int }
	files := map[string]*count{}
	for _, r := range runConformance(t, true, true) {
		f, ok := fallback[r.Name]
		if !assert.True(t, ok, "%s: no such check in the fallback run", r.Name) {
			continue
		}
		c := files[r.WPT]
		if c == nil {
			c = &count{}
			files[r.WPT] = c
		}
		c.checks++
		if r.OK {
			c.native++
		} else {
			t.Logf("native Chromium fails %q: %s", r.Name, firstLine(r.Error))
		}
		if f.OK {
			c.fallback++
		} else if f.Gap != "" {
			t.Logf("the fallback fails %q, as the page says it must: %s", r.Name, f.Gap)
		}
		if r.OK && !f.OK && f.Gap == "" {
			t.Errorf("%s: native Chromium passes it, the fallback does not: %s", r.Name, f.Error)
		}
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	var table strings.Builder
	total := count{}
	for _, f := range names {
		c := files[f]
		fmt.Fprintf(
			&table,
			"\n  %-70s %3d checks: native Chromium %3d, fallback %3d",
			f,
			c.checks,
			c.native,
			c.fallback,
		)
		total.checks, total.native, total.fallback = total.checks+c.checks, total.native+c.native, total.fallback+c.fallback
	}
	t.Logf(
		"per WPT file (webmcp/…):%s\n  %-70s %3d checks: native Chromium %3d, fallback %3d",
		table.String(),
		"all",
		total.checks,
		total.native,
		total.fallback,
	)
}

// firstLine is the first line of a check's error (its message, without the stack).
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
