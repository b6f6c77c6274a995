package checkout_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// TestPath: paths are the repository's, absolute, from a package two levels down.
func TestPath(t *testing.T) {
	root := checkout.Path()
	assert.True(t, filepath.IsAbs(root))
	assert.FileExists(t, filepath.Join(root, "go.mod"))
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "internal", "testing", "checkout"), wd)
	assert.Equal(t, filepath.Join(root, "web", "src"), checkout.Path("web", "src"))
}
