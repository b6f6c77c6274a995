//go:build !js

package mcp

import (
	"fmt"
	"os"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpbinary"
)

// TestMain skips the package where nothing is built (a fresh clone): `make test` runs it. The
// webmcp-mcp binary the tests built is removed when they end.
func TestMain(m *testing.M) {
	if why := headless.Missing(repo); why != "" {
		fmt.Println(why)
		os.Exit(0)
	}
	os.Exit(mcpbinary.Main(m))
}
