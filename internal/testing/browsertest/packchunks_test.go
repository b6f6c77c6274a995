//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// packedFiles are the paths in the npm tarball of web (`npm pack --dry-run`).
func packedFiles(t *testing.T, web string) map[string]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "npm", "pack", "--dry-run", "--json", "--silent", web).Output()
	require.NoError(t, err, "npm pack --dry-run: %s", out)
	var packs []struct {
		Files []struct{ Path string } `json:"files"`
	}
	require.NoError(t, json.Unmarshal(out, &packs), "%s", out)
	require.Len(t, packs, 1)
	files := map[string]bool{}
	for _, f := range packs[0].Files {
		files[f.Path] = true
	}
	return files
}

// TestPackageShipsChunks: the npm tarball carries every chunk the script build fetches beside
// itself (a page served from node_modules must find them) and, of the typings, only the public
// entries' (the internals' declarations stay out).
func TestPackageShipsChunks(t *testing.T) {
	skipWithoutBuild(t)
	files := packedFiles(t, fromRoot("web"))
	for _, f := range []string{
		"dist/webmcp-bridge.js", "dist/webmcp-bridge-schema.js", "dist/webmcp-bridge-patterns.mjs",
		"dist/webmcp-bridge-forms.js", "dist/webmcp-bridge-frames.js",
		"dist/types/entry-module.d.ts", "dist/types/react.d.ts", "dist/types/types.d.ts",
	} {
		assert.True(t, files[f], "the tarball has %s", f)
	}
	for _, f := range []string{"dist/types/host.d.ts", "dist/types/builtins.d.ts", "dist/types/chunk.d.ts"} {
		assert.False(t, files[f], "the tarball leaves out %s", f)
	}
}
