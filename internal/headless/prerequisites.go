//go:build !js

package headless

import (
	"os"
	"path/filepath"
	"strings"
)

// RequireEnv, set to 1 (make test sets it), makes the browser tests run, and fail, even where
// what they need is missing; without it a package of browser tests skips itself in a checkout
// where nothing is built, so that `go test ./...` in a fresh clone passes.
const RequireEnv = "WEBMCP_BRIDGE_BROWSER_TESTS"

// Missing says what the browser tests need and do not find in the checkout at repo: the built
// module (web/dist, by `make build`), its test build (out/testdist) and Chromium. It is "" when
// everything is there, or when RequireEnv is set.
func Missing(repo string) string {
	if os.Getenv(RequireEnv) == "1" {
		return ""
	}
	var missing []string
	for _, f := range []string{"web/dist/webmcp-bridge.wasm", "out/testdist/webmcp-bridge.wasm"} {
		if _, err := os.Stat(filepath.Join(repo, filepath.FromSlash(f))); err != nil {
			missing = append(missing, f+" is not built")
		}
	}
	if _, err := ChromiumPath(); err != nil {
		missing = append(missing, "Chromium is not installed")
	}
	if len(missing) == 0 {
		return ""
	}
	return "skipping the browser tests: " + strings.Join(missing, ", ") +
		"; `make test` builds the module, installs the browsers and runs them"
}
