//go:build !js

package npmcache_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

func TestDir(t *testing.T) {
	t.Setenv("WEBMCP_BRIDGE_NPM_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	d, err := npmcache.Dir()
	require.NoError(t, err)
	assert.Equal(t, "/x/cache/webmcp-bridge/npm", d)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/home/u")
	d, err = npmcache.Dir()
	require.NoError(t, err)
	assert.Equal(t, "/home/u/.cache/webmcp-bridge/npm", d)
	t.Setenv("WEBMCP_BRIDGE_NPM_CACHE", "/c")
	d, _ = npmcache.Dir()
	assert.Equal(t, "/c", d)
}

func TestRefusesUnpinned(t *testing.T) {
	t.Setenv("WEBMCP_BRIDGE_NPM_CACHE", t.TempDir())
	for _, spec := range []string{"@modelcontextprotocol/sdk", "left-pad@^1.0.0", "x@latest"} {
		_, err := npmcache.Install(context.Background(), spec)
		assert.ErrorContains(t, err, "not pinned", spec)
	}
}

// fakeNPM puts an npm that prints out and fails on a PATH of its own.
func fakeNPM(t *testing.T, out string) {
	bin := t.TempDir()
	script := "#!/bin/sh\necho '" + out + "' >&2\nexit 1\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755))
	t.Setenv("PATH", bin)
}

func TestClearFailures(t *testing.T) {
	ctx := context.Background()
	t.Setenv("WEBMCP_BRIDGE_NPM_CACHE", t.TempDir())

	t.Setenv("PATH", t.TempDir())
	_, err := npmcache.Install(ctx, "left-pad@1.3.0")
	assert.ErrorContains(t, err, "npm is not on PATH, so left-pad@1.3.0 cannot be installed")
	_, err = npmcache.Node()
	assert.ErrorContains(t, err, "node is not on PATH")

	fakeNPM(t, "npm error code ENOTFOUND\nnpm error request to https://registry.example/left-pad failed")
	_, err = npmcache.Install(ctx, "left-pad@1.3.0")
	assert.ErrorContains(t, err, "npm could not reach its registry to install left-pad@1.3.0")
	assert.ErrorContains(t, err, "ENOTFOUND", "npm's own words follow")

	_, err = npmcache.PinnedNode(ctx)
	assert.ErrorContains(t, err, "Node.js "+npmcache.NodeVersion+" (the framework tests need Node 22 or later) comes from npm's node-")
	assert.ErrorContains(t, err, "could not be installed: npm could not reach its registry")

	fakeNPM(t, "npm error 404 Not Found - left-pad@9.9.9")
	_, err = npmcache.Install(ctx, "left-pad@9.9.9")
	assert.ErrorContains(t, err, "npm install of left-pad@9.9.9 failed")
	assert.ErrorContains(t, err, "404 Not Found")
}

// fixtureTarball packs a one-file package, npmcache-fixture 1.0.0, and gives its path.
func fixtureTarball(t *testing.T, ctx context.Context, npm string) string {
	t.Helper()
	pkg := t.TempDir()
	require.NoError(
		t,
		os.WriteFile(
			filepath.Join(pkg, "package.json"),
			[]byte(`{"name": "npmcache-fixture", "version": "1.0.0", "main": "index.js"}`),
			0o644,
		),
	)
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "index.js"), []byte(`module.exports = "fixture";`), 0o644))
	pack := exec.CommandContext(ctx, npm, "pack", "--silent", "--pack-destination", pkg)
	pack.Dir = pkg
	_, err := pack.Output()
	require.NoError(t, err)
	tgz := filepath.Join(pkg, "npmcache-fixture-1.0.0.tgz")
	require.FileExists(t, tgz)
	return tgz
}

// TestInstall installs a package from a local tarball (no registry needed), then finds it in
// the cache without running npm again.
func TestInstall(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tgz := fixtureTarball(t, ctx, npm)

	cache := t.TempDir()
	t.Setenv("WEBMCP_BRIDGE_NPM_CACHE", cache)
	dir, err := npmcache.Install(ctx, tgz)
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dir, "node_modules", "npmcache-fixture", "index.js"))
	leftovers, _ := filepath.Glob(filepath.Join(cache, ".install-*"))
	assert.Empty(t, leftovers, "the temporary install directory is gone")

	t.Setenv("PATH", t.TempDir()) // no npm now: the cache must answer
	again, err := npmcache.Install(ctx, tgz)
	require.NoError(t, err)
	assert.Equal(t, dir, again)
}

// TestInstallLocked installs a project from its lockfile with npm ci (a tarball dependency: no
// registry needed), finds it again without npm, and installs anew when the lockfile changes.
func TestInstallLocked(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.Setenv("WEBMCP_BRIDGE_NPM_CACHE", t.TempDir())
	project := filepath.Join(t.TempDir(), "someapp")
	require.NoError(t, os.Mkdir(project, 0o755))
	_, err = npmcache.InstallLocked(ctx, project, nil)
	assert.ErrorContains(t, err, "needs its package.json")

	manifest := `{"private": true, "dependencies": {"npmcache-fixture": "file:` + fixtureTarball(t, ctx, npm) + `"}}`
	require.NoError(t, os.WriteFile(filepath.Join(project, "package.json"), []byte(manifest), 0o644))
	lock := exec.CommandContext(ctx, npm, "install", "--package-lock-only", "--no-audit", "--no-fund")
	lock.Dir = project
	out, err := lock.CombinedOutput()
	require.NoError(t, err, "%s", out)

	dir, err := npmcache.InstallLocked(ctx, project, nil)
	require.NoError(t, err)
	assert.Contains(t, filepath.Base(dir), "someapp-")
	assert.FileExists(t, filepath.Join(dir, "node_modules", "npmcache-fixture", "index.js"))
	assert.FileExists(t, filepath.Join(dir, "package-lock.json"))

	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir()) // no npm now: the cache must answer
	again, err := npmcache.InstallLocked(ctx, project, nil)
	require.NoError(t, err)
	assert.Equal(t, dir, again)

	t.Setenv("PATH", path)
	require.NoError(t, os.WriteFile(filepath.Join(project, "package.json"), []byte(manifest+"\n"), 0o644))
	other, err := npmcache.InstallLocked(ctx, project, nil)
	require.NoError(t, err)
	assert.NotEqual(t, dir, other, "another package.json or lockfile is another install")
}

// TestWithNode puts the pinned node's directory first on PATH, once.
func TestWithNode(t *testing.T) {
	env := npmcache.WithNode([]string{"HOME=/h", "PATH=/usr/bin:/bin"}, "/cache/node/bin/node")
	assert.Equal(t, []string{"HOME=/h", "PATH=/cache/node/bin:/usr/bin:/bin"}, env)
}
