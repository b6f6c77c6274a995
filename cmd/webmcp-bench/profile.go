//go:build !js

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// profileSplit measures rows 11: natively, a CPU profile of bridge.NormalizeJSON of the
// article's HTML (BenchmarkNormalizeHTML10KB and …500KB of package bridge) split by where the
// time goes — bluemonday's own work, and inside it the bridge's URL checks and the writer that
// renders the Markdown and leaves out hidden elements as bluemonday writes; the count of the input's tags for the removal
// notice; the JSON decode; the rest — with NormalizeJSON against bluemonday's UGCPolicy alone
// (BenchmarkBluemondayUGC…) timed in the same `go test` run. The 10 KB profile's top functions
// go into the report.
func (b *bench) profileSplit() {
	dir, err := os.MkdirTemp("", "webmcp-bench-pprof-")
	check(err)
	defer os.RemoveAll(dir)
	for _, c := range []struct{ id, size, bench string }{
		{"profile-10kb", "10 KB", "10KB"},
		{"profile-512kb", "512 KB", "500KB"},
	} {
		bin, prof := filepath.Join(dir, "bridge.test"), filepath.Join(dir, c.bench+".pprof")
		out := goOutput("test", "-run", "^$", "-bench", "^Benchmark(NormalizeHTML|BluemondayUGC)"+c.bench+"$",
			"-benchtime", "2s", "-cpuprofile", prof, "-o", bin, "./bridge")
		perOp := map[string]float64{}
		for _, line := range strings.Split(out, "\n") {
			if m := nsPerOp.FindStringSubmatch(line); m != nil {
				perOp[m[1]], _ = strconv.ParseFloat(m[2], 64)
			}
		}
		norm, ugc := perOp["NormalizeHTML"+c.bench], perOp["BluemondayUGC"+c.bench]
		if norm == 0 || ugc == 0 {
			check(fmt.Errorf("go test -bench gave no figures for %s: %s", c.bench, out))
		}
		top := goOutput("tool", "pprof", "-top", "-cum", "-nodecount=400",
			"-focus", "BenchmarkNormalizeHTML"+c.bench+"$", bin, prof)
		cum := profileCum(top)
		total := cum(`/bridge\.NormalizeJSON$`)
		share := func(x float64) string { return fmt.Sprintf("%.0f %%", 100*x/total) }
		blue := cum(`/bluemonday\.\(\*Policy\)\.sanitize$`)
		writer := cum(`/sanitize\.\(\*renderingWriter\)\.WriteString$`)
		urls := cum(`/sanitize\.newHTMLPolicy\.func\d+$`) // the scheme checks the policy hands bluemonday
		count, decode := cum(`/sanitize\.countMarkup$`), cum(`/jsonvalue\.Decode$`)
		b.add(row{c.id, "11. natively: `bridge.NormalizeJSON` of " + c.size + " HTML (the article), CPU profile split",
			fmt.Sprintf(
				"bluemonday's own work %s; inside it the bridge's URL checks %s and the Markdown and hidden elements as "+
					"bluemonday writes %s; "+
					"counting the input's tags (removal notice) %s; JSON decode %s; the rest (blocks, notices, "+
					"limits) %s — of %.2f s of samples. "+
					"%s per call vs %s for bluemonday's UGCPolicy alone "+
					"(`go test -bench '(NormalizeHTML|BluemondayUGC)%s' ./bridge`)",
				share(blue-writer-urls),
				share(urls),
				share(writer),
				share(count),
				share(decode),
				share(total-blue-count-decode),
				total,
				ms(norm/1e6),
				ms(ugc/1e6),
				c.bench,
			),
			fmt.Sprintf("%.2f × UGCPolicy natively", norm/ugc), "reported", ""})
		if c.id == "profile-10kb" {
			lines := strings.Split(top, "\n")
			b.sections = append(b.sections, "## The profile: `NormalizeJSON` of 10 KB HTML, natively\n\n"+
				"`go tool pprof -top -cum` of `go test -bench NormalizeHTML10KB -cpuprofile` in this run, the "+
				"first 30 lines:\n\n```\n"+
				strings.Join(lines[:min(len(lines), 36)], "\n")+"\n```")
		}
	}
}

var nsPerOp = regexp.MustCompile(`^Benchmark(\w+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

// profileCum reads `go tool pprof -top -cum` output and returns a func that gives the cumulative
// seconds of the functions whose names match pattern, summed (0 when none).
func profileCum(top string) func(pattern string) float64 {
	return func(pattern string) float64 {
		re := regexp.MustCompile(pattern)
		sum := 0.0
		s := bufio.NewScanner(strings.NewReader(top))
		for s.Scan() {
			f := strings.Fields(s.Text())
			if len(f) < 6 || !strings.HasSuffix(f[4], "%") || !re.MatchString(f[5]) {
				continue
			}
			sum += pprofSeconds(f[3])
		}
		return sum
	}
}

// pprofSeconds reads a pprof duration ("1.55s", "850ms", "20us").
func pprofSeconds(s string) float64 {
	for _, u := range []struct {
		suffix string
		scale  float64
	}{{"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}, {"s", 1}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			x, _ := strconv.ParseFloat(v, 64)
			return x * u.scale
		}
	}
	return 0
}

// goOutput runs the go command ($GO or go) with args and returns its standard output.
func goOutput(args ...string) string {
	cmd := exec.Command(goCommand(), args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	check(err)
	return string(out)
}
