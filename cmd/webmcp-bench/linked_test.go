//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// notLinked are code the module must not carry, by the prefix of their names in the wasm name
// section, each with what replaced it: they are what a call does not need, and what made the
// module larger than bluemonday alone (see the size table in docs/benchmarks.md).
var notLinked = map[string]string{
	"time.parse":                 "mcpwire.CheckLastModified reads RFC 3339 by hand",
	"time.tzset":                 "mcpwire.CheckLastModified reads RFC 3339 by hand",
	"time.Time.":                 "mcpwire.CheckLastModified reads RFC 3339 by hand",
	"time.nextStdChu":            "mcpwire.CheckLastModified reads RFC 3339 by hand",
	"encoding_csv.__Reader_":     "the module reads the CSV it renders with wasm/csv.go",
	"bufio.__Reader_":            "the module reads the CSV it renders with wasm/csv.go",
	"encoding_csv.":              "bridge writes its table's CSV with writeCSVRecord",
	"strings.__genericReplacer_": "bridge's markdownCell is a loop, not a strings.Replacer",
	"slices.pdqsortCmpFunc_go.shape.struct___github.com_webmcp_bridge_webmcp_bridge_internal_jsonvalue": "" +
		"jsonvalue sorts an object's members with package sort",
	"slices.pdqsortOrdered_go.shape.string_": "sanitize and inputschema sort strings with package sort",
	"internal_reflectlite.implements":        "errors.AsType, not errors.As (whose reflection the floor does not link)",
}

// TestModuleLeavesOutWhatACallDoesNotNeed builds the module for js/wasm with its symbols and
// fails for every function of notLinked it holds.
func TestModuleLeavesOutWhatACallDoesNotNeed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	out := filepath.Join(t.TempDir(), "module.wasm")
	build := exec.Command(goCommand(), "build", "-trimpath", "-o", out, "../../wasm") // go test puts its go first on PATH
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./wasm: %v\n%s", err, msg)
	}
	funcs, err := wasmFunctions(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, size := range funcs {
		for prefix, why := range notLinked {
			if strings.HasPrefix(name, prefix) {
				t.Errorf("the module links %s (%d B of code), which it should not: %s", name, size, why)
			}
		}
	}
}
