//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// rowSpec is a row of the report: a stable id, and what the row says when a run did not
// measure it.
type rowSpec struct{ id, title string }

// steps are the parts of the bench, in the order they run, and the rows each must measure: the
// report (docs/benchmarks.md) has a line for every one of these rows, measured or not, and a
// step that leaves one out, or adds one that is not here, stops the bench.
var steps = []struct {
	name string
	rows []rowSpec
}{
	{"size", []rowSpec{{"size", "0. the module, gzip -9"},
		{"size-floor", "0. the module against bluemonday alone (UGCPolicy), gzip -9"},
		{"init", "3c. package initialisation, natively"}}},
	{"load", []rowSpec{{"load", "1. bytes at load + 2 s idle, 3 tools without `inputSchema`"},
		{"load-schema", "1. … the same 3 tools with `inputSchema`"},
		{"long-tasks", "2. long tasks on the page's thread during that load"}}},
	{"cold", []rowSpec{{"cold", "3. cold first call against a minimal Go wasm"},
		{"cold-main", "3a. start-up to `main` without the loader, against a minimal Go wasm"}}},
	{"visit", []rowSpec{{"second-visit", "3b. first call on later visits, the module cacheable"}}},
	{"percall", []rowSpec{{"percall-text", "4. warm per call, 1 KB text"},
		{"percall-html", "4. warm per call, 10 KB HTML"}, {"percall-png", "4. warm per call, 100 KB PNG"}}},
	{"floor", []rowSpec{{"floor-10kb", "10. 10 KB HTML per call against bluemonday alone, page → Worker → page"},
		{"floor-512kb", "10. 512 KB HTML per call against bluemonday alone, page → Worker → page"},
		{"floor-linktable", "10. the link- and table-heavy document per call against bluemonday alone"},
		{"stages-10kb", "10. 10 KB HTML: each stage timed in WebAssembly"},
		{"stages-512kb", "10. 512 KB HTML: each stage timed in WebAssembly"},
		{"stages-linktable", "10. the link- and table-heavy document: each stage timed in WebAssembly"}}},
	{"mainthread", []rowSpec{{"main-thread", "5. the page's thread during a ~500 KB HTML normalize"}}},
	{"sanitize", []rowSpec{{"article-dompurify", "6. sanitize the article: normalize vs DOMPurify"},
		{"article-sethtml", "6. sanitize the article: normalize vs `setHTML`"},
		{"linktable-dompurify", "6. sanitize the link- and table-heavy document: normalize vs DOMPurify"},
		{"linktable-sethtml", "6. sanitize the link- and table-heavy document: normalize vs `setHTML`"}}},
	{"wide", []rowSpec{{"wide", "7. a ~15 MB object through `executeTool`"}}},
	{"native", []rowSpec{{"native", "8. natively in Go: `bridge.NormalizeJSON` of 500 KB HTML"},
		{"profile-10kb", "11. natively: where `NormalizeJSON` of 10 KB HTML spends its time"},
		{"profile-512kb", "11. natively: where `NormalizeJSON` of 512 KB HTML spends its time"}}},
	{"memory", []rowSpec{{"memory", "9. 100,000 calls through Go"}, {"restarts", "9. forced module restarts"}}},
}

func stepNames() []string {
	var names []string
	for _, s := range steps {
		names = append(names, s.name)
	}
	return names
}

// stepRows are the ids of the rows the step called name measures.
func stepRows(name string) []string {
	var ids []string
	for _, s := range steps {
		if s.name == name {
			for _, r := range s.rows {
				ids = append(ids, r.id)
			}
		}
	}
	return ids
}

// report is the whole run as Markdown: what ran where, then a line for every row of steps (in
// their order; a row the run did not measure says so), then the notes. make bench prints it
// and writes it to docs/benchmarks.md.
func (b *bench) report(now time.Time) string {
	var w strings.Builder
	fmt.Fprintf(&w, "# Benchmarks\n\n")
	fmt.Fprintf(&w, "Written by `%s` (`cmd/webmcp-bench`): every figure on this page is from the run described here, "+
		"none is typed by hand. The machine is shared, so compare ratios within one run, and read each figure with the "+
		"load average measured when it was taken.\n\n", b.command)
	w.WriteString(method)
	fmt.Fprintf(&w, "## The run\n\n")
	fmt.Fprintf(&w, "- date: %s\n", now.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&w, "- machine: %d cores, %s, %s/%s\n", runtime.NumCPU(), cpuModel(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&w, "- load average (1 minute): %s (before → after)\n", b.load)
	fmt.Fprintf(&w, "- browser: headless %s\n", b.chromium)
	fmt.Fprintf(&w, "- Go: %s\n", runtime.Version())
	if v := npmVersion(b.deps, "dompurify"); v != "" {
		fmt.Fprintf(&w, "- yardsticks from npm: DOMPurify %s", v)
		if m := npmVersion(b.deps, "@mcp-b/global"); m != "" {
			fmt.Fprintf(&w, ", @mcp-b/global %s", m)
		}
		fmt.Fprintf(&w, "\n")
	}
	fmt.Fprintf(&w, "- the browser part took %s\n\n", b.elapsed.Round(time.Second))
	fmt.Fprintf(&w, "## Rows\n\n")
	fmt.Fprintf(&w, "| what | measured | ratio | target | met | load |\n|---|---|---|---|---|---|\n")
	for _, s := range steps {
		for _, spec := range s.rows {
			i := slices.IndexFunc(b.rows, func(r row) bool { return r.id == spec.id })
			if i < 0 {
				fmt.Fprintf(&w, "| %s | not measured in this run (`-only`) | — | — | — | — |\n", spec.title)
				continue
			}
			r := b.rows[i]
			fmt.Fprintf(
				&w,
				"| %s | %s | %s | %s | %s | %s |\n",
				r.what,
				r.measured,
				r.ratio,
				r.target,
				r.met,
				b.rowLoad[r.id],
			)
		}
	}
	if len(b.notes) > 0 {
		fmt.Fprintf(&w, "\n## Notes\n\n")
		for _, n := range b.notes {
			fmt.Fprintf(&w, "- %s\n", n)
		}
	}
	for _, sec := range b.sections {
		fmt.Fprintf(&w, "\n%s\n", sec)
	}
	return w.String()
}

// method says how the rows are measured (the figures are in the rows).
const method = `One headless Chromium with WebMCP on; pages and libraries served gzip-compressed (level 9) with
` + "`no-store`" + ` unless a row says otherwise. Rows 0–3 use the shipped build (` + "`web/dist`" + `), the others
the test build (` + "`out/testdist`" + `: the same loader, a module with test-only exports). DOMPurify and MCP-B's
` + "`@mcp-b/global`" + ` are installed with npm into ` + "`.cache/bench`" + ` as yardsticks, not dependencies. The
other yardsticks are Go programs under ` + "`cmd/webmcp-bench`" + ` that the run builds for js/wasm with the same
Go and flags: ` + "`minimal`" + ` (syscall/js alone), ` + "`bluemondayonly`" + ` (bluemonday's UGCPolicy alone: the floor
the mission sets) and ` + "`sanitizeonly`" + ` (the module's stages apart). Ratios are medians of paired runs,
the two sides alternated; ` + "`go run ./cmd/webmcp-bench -only cold,floor`" + ` runs some rows.

`

// npmVersion is the version of the npm package name installed in deps, "" when it is not.
func npmVersion(deps, name string) string {
	raw, err := os.ReadFile(filepath.Join(deps, filepath.FromSlash(name), "package.json"))
	if err != nil {
		return ""
	}
	var p struct{ Version string }
	_ = json.Unmarshal(raw, &p)
	return p.Version
}
