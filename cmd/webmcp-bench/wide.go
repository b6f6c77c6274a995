//go:build !js

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// wide measures the large-result row: a tool returning an object of ~15 MiB of JSON made of
// many small members, called through executeTool on the bridge page, with a small call queued
// right behind it; the median of three.
func (b *bench) wide() {
	var bigs, smalls []float64
	var got struct {
		BigMs, SmallMs float64
		Members, Bytes int
		Refused        bool
	}
	for i := 0; i < 3; i++ {
		check(headless.Eval(b.bridged, `const r = await wideCall(); `+
			`return {BigMs: r.bigMs, SmallMs: r.smallMs, Members: r.members, Bytes: r.bytes, Refused: r.refused}`, &got))
		if got.Refused {
			check(fmt.Errorf("the %d-byte object was refused: "+
				"it must stay under maxResultBytes to measure its normalization", got.Bytes))
		}
		bigs, smalls = append(bigs, got.BigMs), append(smalls, got.SmallMs)
	}
	big, small := median(bigs), median(smalls)
	b.add(
		row{
			"wide",
			fmt.Sprintf(
				"7. a %.1f MB object (JSON) of %s small members through `executeTool`, a small call queued behind it",
				float64(got.Bytes)/1e6,
				thousands(got.Members),
			),
			fmt.Sprintf("the big call %.2f s, the small one answered after %.2f s (median of 3)", big/1000, small/1000),
			"",
			"≤ 3 s each",
			met(big <= 3000 && small <= 3000),
		},
	)
}

// benchLine reads a `go test -bench` result line: ns/op, MB/s and allocs/op.
var benchLine = regexp.MustCompile(`^Benchmark\S+\s+\d+\s+([\d.]+) ns/op\s+([\d.]+) MB/s\s+\d+ B/op\s+(\d+) allocs/op`)

// nativeGo measures the native row: bridge.NormalizeJSON of 500 KB of HTML in Go (the
// benchmark BenchmarkNormalizeHTML500KB of package bridge), its throughput and allocations.
func (b *bench) nativeGo() {
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, "test", "-run", "^$", "-bench", "^BenchmarkNormalizeHTML500KB$",
		"-benchmem", "-benchtime", "20x", "-count", "3", "./bridge")
	out, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	var rates, allocs []float64
	s := bufio.NewScanner(out)
	for s.Scan() {
		if m := benchLine.FindStringSubmatch(s.Text()); m != nil {
			rate, _ := strconv.ParseFloat(m[2], 64)
			n, _ := strconv.ParseFloat(m[3], 64)
			rates, allocs = append(rates, rate), append(allocs, n)
		}
	}
	check(cmd.Wait())
	if len(rates) == 0 {
		check(fmt.Errorf("go test -bench gave no result line for BenchmarkNormalizeHTML500KB"))
	}
	rate, n := median(rates), median(allocs)
	b.add(row{"native", "8. natively in Go: `bridge.NormalizeJSON` of 500 KB HTML",
		fmt.Sprintf(
			"%.1f MB/s, %s allocations (median of 3 runs of `go test -bench NormalizeHTML500KB -benchtime 20x ./bridge`)",
			rate,
			thousands(int(n)),
		),
		"", "≥ 30 MB/s, ≤ 150,000 allocations", met(rate >= 30 && n <= 150000)})
	b.profileSplit()
}
