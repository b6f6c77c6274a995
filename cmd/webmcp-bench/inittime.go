//go:build !js

package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// initLine is one line of GODEBUG=inittrace=1: the package, its clock time in ms, its allocations.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, ([0-9.]+) ms clock, \d+ bytes, (\d+) allocs`)

// initRow measures row 3c: the module's package initialisation, natively (the module's package
// built for this machine, whose main exits at once, run with GODEBUG=inittrace=1; median of 7
// runs per package), the bridge's own packages apart from bluemonday and the rest. Natively,
// sanitize also builds x/net/idna's profile, which the module leaves to the browser.
func (b *bench) initRow() {
	bin := filepath.Join(b.helpers, "module-native")
	build := exec.Command(goCommand(), "build", "-trimpath", "-o", bin, "./wasm")
	build.Stderr = os.Stderr
	check(build.Run())
	clock := map[string][]float64{}
	allocs := map[string]int{}
	for range 7 {
		for p, t := range traceInit(bin) {
			clock[p] = append(clock[p], t.ms)
			allocs[p] = t.allocs
		}
	}
	var all, own float64
	var ownAllocs int
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(clock)) {
		ms := median(clock[p])
		all += ms
		if strings.HasPrefix(p, ownModule) {
			own += ms
			ownAllocs += allocs[p]
			if ms >= 0.01 {
				parts = append(parts, fmt.Sprintf("%s %.2f ms", strings.TrimPrefix(p, ownModule+"/"), ms))
			}
		}
	}
	b.add(row{"init", "3c. package initialisation, natively (`GODEBUG=inittrace=1` of the module's package built " +
		"for this machine)",
		fmt.Sprintf("%.2f ms in all (median of 7 runs per package); the bridge's own packages %.2f ms, %d allocations "+
			"(%s); the rest (runtime, bluemonday and its dependencies) %.2f ms", all, own, ownAllocs,
			strings.Join(parts, ", "), all-own),
		fmt.Sprintf("%.0f %% ours", 100*own/all), "reported", ""})
}

// initTime is one package's initialisation: its clock time in ms and its allocations.
type initTime struct {
	ms     float64
	allocs int
}

// traceInit runs bin, the module's package built for this machine (whose main exits at once:
// the module runs only in a browser), with GODEBUG=inittrace=1 and reads each package's line.
func traceInit(bin string) map[string]initTime {
	var trace bytes.Buffer
	run := exec.Command(bin)
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	run.Stderr = &trace
	_ = run.Run() // its main exits with 2
	out := map[string]initTime{}
	for _, line := range strings.Split(trace.String(), "\n") {
		if m := initLine.FindStringSubmatch(line); m != nil {
			ms, _ := strconv.ParseFloat(m[2], 64)
			n, _ := strconv.Atoi(m[3])
			out[m[1]] = initTime{ms, n}
		}
	}
	return out
}
