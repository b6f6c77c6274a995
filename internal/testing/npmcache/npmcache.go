//go:build !js

// Package npmcache installs pinned npm packages once into a cache directory, for the tests and
// measurements that run other projects' JavaScript (the official MCP TypeScript SDK, Playwright
// MCP): [Install] gives the directory, [Node] the node that runs them. Each set of package specs
// gets its own directory, named from the specs, so pins never clash; an install is written to a
// temporary directory and renamed into place, so a crashed or concurrent install never leaves a
// half-installed cache.
//
// The cache ([Dir]) is $WEBMCP_BRIDGE_NPM_CACHE if set, else $XDG_CACHE_HOME/webmcp-bridge/npm,
// else ~/.cache/webmcp-bridge/npm. (web/'s own tools are not here: web/package-lock.json pins
// them and npm ci installs them.)
package npmcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Dir is the cache root (it may not exist yet).
func Dir() (string, error) {
	if d := os.Getenv("WEBMCP_BRIDGE_NPM_CACHE"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "webmcp-bridge", "npm"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("npmcache: no cache directory: set XDG_CACHE_HOME or WEBMCP_BRIDGE_NPM_CACHE (%v)", err)
	}
	return filepath.Join(home, ".cache", "webmcp-bridge", "npm"), nil
}

// Node is the path of the node executable, or an error that says what to install.
func Node() (string, error) {
	p, err := exec.LookPath("node")
	if err != nil {
		return "", errors.New("node is not on PATH: install Node.js 18 or later (Debian: apt-get install nodejs npm)")
	}
	return p, nil
}

// pinned accepts name@version with an exact version, or a path to a package tarball (.tgz).
var pinned = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*@\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$`)

// Install makes sure the packages are installed and returns the directory that holds their
// node_modules. Each spec is name@exact-version (a range would let the cache go stale) or the
// path of a package tarball. The first call runs npm install and needs npm's registry (or
// the tarballs); later calls find the directory and run nothing.
func Install(ctx context.Context, specs ...string) (string, error) {
	if len(specs) == 0 {
		return "", errors.New("npmcache: no packages")
	}
	for _, s := range specs {
		if !pinned.MatchString(s) && !strings.HasSuffix(s, ".tgz") {
			return "", fmt.Errorf("npmcache: %q is not pinned: give name@x.y.z", s)
		}
	}
	root, err := Dir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, key(specs))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", completeMark)); err == nil {
		return dir, nil
	}
	// A package.json of its own, so that npm does not walk up into a project around the cache.
	pkg := []byte(`{"private": true, "description": "webmcp-bridge npm cache"}` + "\n")
	args := append([]string{"install", "--no-audit", "--no-fund", "--no-package-lock", "--no-save",
		"--loglevel=error"}, specs...)
	files := map[string][]byte{"package.json": pkg}
	if err := populate(ctx, root, dir, strings.Join(specs, " "), files, nil, args...); err != nil {
		return "", err
	}
	return dir, nil
}

// InstallLocked installs the npm project in the folder project — its package.json and the
// package-lock.json that pins every package — with npm ci into the cache, once per lockfile, and
// returns the cache directory that holds both files and node_modules. npm and the packages'
// install scripts run with env (nil: this process's environment).
func InstallLocked(ctx context.Context, project string, env []string) (string, error) {
	files := map[string][]byte{}
	h := sha256.New()
	for _, name := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(project, name))
		if err != nil {
			return "", fmt.Errorf("npmcache: %s needs its %s: %w", project, name, err)
		}
		files[name] = data
		h.Write(data)
	}
	root, err := Dir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.Base(project)+"-"+hex.EncodeToString(h.Sum(nil)[:6]))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", completeMark)); err == nil {
		return dir, nil
	}
	what := "the packages of " + filepath.Join(project, "package-lock.json")
	// A lockfile without registry URLs (omit-lockfile-registry-resolved) makes npm read each
	// package's metadata: --prefer-online keeps a stale copy in npm's own cache from refusing a
	// version the lockfile pins.
	args := []string{"ci", "--prefer-online", "--no-audit", "--no-fund", "--loglevel=error"}
	if err := populate(ctx, root, dir, what, files, env, args...); err != nil {
		return "", err
	}
	return dir, nil
}

// completeMark is the file, in node_modules, that says an install finished.
const completeMark = ".webmcp-bridge-complete"

// populate makes dir: files written into a temporary directory under root, where npm runs with
// args and env, then renamed into place. what names the packages in errors.
func populate(ctx context.Context, root, dir, what string, files map[string][]byte, env []string, args ...string) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf(
			"npm is not on PATH, so %s cannot be installed: install Node.js and npm (Debian: apt-get install "+
				"nodejs npm), or install them once elsewhere into %s",
			what,
			dir,
		)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("npmcache: %w", err)
	}
	tmp, err := os.MkdirTemp(root, ".install-")
	if err != nil {
		return fmt.Errorf("npmcache: %w", err)
	}
	defer os.RemoveAll(tmp)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return fmt.Errorf("npmcache: %w", err)
		}
	}
	cmd := exec.CommandContext(ctx, npm, append(args, "--prefix", tmp)...)
	cmd.Dir, cmd.Env = tmp, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return installError(what, dir, out.String(), err, ctx.Err())
	}
	complete := filepath.Join(tmp, "node_modules", completeMark)
	if err := os.WriteFile(complete, []byte(what+"\n"), 0o644); err != nil {
		return fmt.Errorf("npmcache: npm install of %s left no node_modules: %w", what, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process finished the same install first: use its copy.
		if _, statErr := os.Stat(filepath.Join(dir, "node_modules", completeMark)); statErr == nil {
			return nil
		}
		os.RemoveAll(dir) // a directory from an older, interrupted layout
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("npmcache: %w", err)
		}
	}
	return nil
}

// key names the directory of one set of specs: readable, and unique through a hash.
func key(specs []string) string {
	h := sha256.Sum256([]byte(strings.Join(specs, "\x00")))
	name := strings.NewReplacer("@", "", "/", "-").Replace(filepath.Base(specs[0]))
	if len(name) > 40 {
		name = name[:40]
	}
	return name + "-" + hex.EncodeToString(h[:6])
}

// networkFailure matches what npm prints when it cannot reach its registry.
var networkFailure = regexp.MustCompile(
	`(?i)ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|` +
		`network|socket hang up|request to .* failed`,
)

func installError(what, dir, out string, err, ctxErr error) error {
	tail := lastLines(out, 12)
	switch {
	case ctxErr != nil:
		return fmt.Errorf("npm install of %s did not finish (%v); npm said:\n%s", what, ctxErr, tail)
	case networkFailure.MatchString(out):
		return fmt.Errorf(
			"npm could not reach its registry to install %s (it is needed once; later runs use %s). npm said:\n%s",
			what,
			dir,
			tail,
		)
	}
	return fmt.Errorf("npm install of %s failed (%v); npm said:\n%s", what, err, tail)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
