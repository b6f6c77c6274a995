//go:build !js

package mcp

import (
	"fmt"
	"os"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// TestMain skips the package where nothing is built (a fresh clone): `make test` runs it.
func TestMain(m *testing.M) {
	if why := headless.Missing(repo); why != "" {
		fmt.Println(why)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
