//go:build !js

package browsertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackageShipsLicence: the npm tarball (`npm pack` of web/ after make build) carries the
// licence, the README and THIRD_PARTY_NOTICES, identical to the repository's, and its
// package.json names the licence, the repository and the homepage; the unpacked extension
// carries the licence and the notices too.
func TestPackageShipsLicence(t *testing.T) {
	skipWithoutBuild(t)
	web := fromRoot("web")
	files := packedFiles(t, web)
	for _, f := range []string{"LICENSE", "README.md", "THIRD_PARTY_NOTICES", "dist/webmcp-bridge.wasm"} {
		assert.True(t, files[f], "the tarball has %s", f)
	}
	for _, f := range []string{"LICENSE", "README.md", "THIRD_PARTY_NOTICES"} {
		assertSameFile(t, fromRoot(f), filepath.Join(web, f))
	}
	for _, f := range []string{"LICENSE", "THIRD_PARTY_NOTICES"} {
		assertSameFile(t, fromRoot(f), filepath.Join(web, "dist", "extension", f))
	}
	var pkg struct {
		License    string
		Homepage   string
		Repository struct{ URL string }
	}
	data, err := os.ReadFile(filepath.Join(web, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &pkg))
	assert.Equal(t, "MIT", pkg.License)
	assert.NotEmpty(t, pkg.Homepage)
	assert.NotEmpty(t, pkg.Repository.URL)
}

// assertSameFile checks that the file copy has the content of the file want.
func assertSameFile(t *testing.T, want, copy string) {
	t.Helper()
	w, err := os.ReadFile(want)
	require.NoError(t, err)
	c, err := os.ReadFile(copy)
	if assert.NoError(t, err, "%s is shipped", copy) {
		assert.Equal(t, string(w), string(c), "%s is %s", copy, want)
	}
}
