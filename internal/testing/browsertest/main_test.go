//go:build !js

package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// TestMain skips the package where nothing is built (a fresh clone): `make test` runs it.
func TestMain(m *testing.M) {
	if why := headless.Missing(filepath.Join("..", "..", "..")); why != "" {
		fmt.Println(why)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
