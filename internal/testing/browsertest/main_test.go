//go:build !js

package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpbinary"
)

// repoRoot is the repository's root, as a path from this package's directory (where go test
// runs its tests).
var repoRoot = checkout.Path()

// fromRoot is the path of a file of the repository given from its root, e.g. fromRoot("web",
// "dist").
func fromRoot(elem ...string) string { return filepath.Join(append([]string{repoRoot}, elem...)...) }

// missing says what this checkout lacks for the browser tests (the build, Chromium), "" when
// nothing or when headless.RequireEnv asks for them all the same.
var missing string

// TestMain runs the tests; where the checkout lacks what they need (a fresh clone, where
// nothing is built), each test skips itself saying why (skipWithoutBuild), and the run says
// that no test ran, so that `go test ./...` does not answer a bare "ok" for tests it did not
// run. `make test` builds the module, installs the browsers and runs them.
func TestMain(m *testing.M) {
	if why := headless.Missing(repoRoot); why != "" {
		fmt.Println(why)
		what, _, _ := strings.Cut(strings.TrimPrefix(why, "skipping the browser tests: "), ";")
		missing = what + " (make browser builds the module and runs these tests)"
	}
	code := mcpbinary.Main(m) // runs the tests, then removes the webmcp-mcp binary they built
	if missing != "" && code == 0 {
		// The words go test looks for to write "[no tests to run]" beside "ok": every test
		// here skipped.
		fmt.Fprintln(os.Stderr, "\ntesting: warning: no tests to run")
	}
	os.Exit(code)
}

// skipWithoutBuild skips t, saying what is missing, where the checkout lacks the build or
// Chromium (see TestMain). Every test of the package begins with it.
func skipWithoutBuild(t testing.TB) {
	t.Helper()
	if missing != "" {
		t.Skip(missing)
	}
}
