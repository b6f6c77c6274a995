package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// TestGeneratedIsCurrent fails when web/src/generated/ is not what the Go it comes from says:
// run `go generate ./internal/boundary` after changing an export, a limit, a policy setting or
// the keyword table.
func TestGeneratedIsCurrent(t *testing.T) {
	dir := checkout.Path("web", "src", "generated")
	for _, name := range names() {
		want, err := outputs[name]()
		require.NoError(t, err, name)
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "%s is missing: run go generate ./internal/boundary", name)
		require.Equal(t, string(want), string(got), "%s is stale: run go generate ./internal/boundary", name)
	}
}
