//go:build !js

package mcp

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpbinary"
)

// missing says what this checkout lacks for these tests (the build, Chromium), "" when nothing
// or when headless.RequireEnv asks for them all the same.
var missing string

// TestMain runs the tests; where the checkout lacks what they need (a fresh clone, where nothing
// is built), each test skips itself saying why (skipWithoutBuild), and the run says that no test
// ran, so that `go test ./...` does not answer a bare "ok" for tests it did not run. `make test`
// builds the module, installs the browsers and runs them. The webmcp-mcp binary the tests built
// is removed when they end.
func TestMain(m *testing.M) {
	if why := headless.Missing(repo); why != "" {
		fmt.Println(why)
		what, _, _ := strings.Cut(strings.TrimPrefix(why, "skipping the browser tests: "), ";")
		missing = what + " (make browser builds the module and runs these tests)"
	}
	code := mcpbinary.Main(m)
	if missing != "" && code == 0 {
		// The words go test looks for to write "[no tests to run]" beside "ok": every test
		// here skipped.
		fmt.Fprintln(os.Stderr, "\ntesting: warning: no tests to run")
	}
	os.Exit(code)
}

// skipWithoutBuild skips t, saying what is missing, where the checkout lacks the build or
// Chromium (see TestMain). Every test and benchmark of the package begins with it.
func skipWithoutBuild(t testing.TB) {
	t.Helper()
	if missing != "" {
		t.Skip(missing)
	}
}
