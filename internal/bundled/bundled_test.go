//go:build !js

package bundled

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoaderGenerated fails when loader_gen.js, render_gen.js or render_gen.css is not what
// web/src builds today.
func TestLoaderGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the loader with esbuild")
	}
	out, err := exec.Command("go", "run", "genloader.go", "-check").CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// TestVersion: the loader says the version of web/package.json it was built from.
func TestVersion(t *testing.T) {
	b, err := os.ReadFile("../../web/package.json")
	require.NoError(t, err)
	var p struct {
		Version string `json:"version"`
	}
	require.NoError(t, json.Unmarshal(b, &p))
	assert.Equal(t, p.Version, Version())
}
