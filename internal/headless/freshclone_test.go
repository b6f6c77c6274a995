//go:build !js

package headless_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// TestFreshCloneSkipsBrowserTests runs the browser packages' `go test` in a copy of the
// checkout's tracked files, where nothing is built, as a Go user's first `go test ./...` does:
// they pass, saying that `make test` runs them.
func TestFreshCloneSkipsBrowserTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the browser packages' tests in a copy of the checkout")
	}
	repo := checkout.Path()
	clone := t.TempDir()
	files, err := exec.Command("git", "-C", repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			continue // deleted in the work tree
		}
		dst := filepath.Join(clone, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-v", "./internal/testing/browsertest/...")
	cmd.Dir = clone
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, headless.RequireEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go test ./internal/testing/browsertest/... in a fresh copy: %v\n%s", err, out.Bytes())
	}
	if n := strings.Count(out.String(), "`make test` builds the module"); n != 2 {
		t.Errorf("want both browser packages to say that make test runs them, %d did:\n%s", n, out.Bytes())
	}
}
