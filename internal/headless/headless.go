//go:build !js

// Package headless starts Debian's Chromium headless for the browser tests and `make bench`,
// with the flags that work in this kind of sandbox, and evaluates page scripts.
package headless

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ChromiumPath is $CHROMIUM, or chromium / chromium-browser on PATH.
func ChromiumPath() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New(
		"Chromium is needed: install Debian's 'chromium' package (make test does this as root) or set CHROMIUM",
	)
}

// Options are the allocator options for a fresh headless Chromium with its own profile in
// userDataDir; native turns WebMCP on. Chromium keeps its sandbox wherever it can run here
// (DecideSandbox); where it cannot, the first call says why on stderr.
func Options(
	chromium, userDataDir string,
	native bool,
	extra ...chromedp.ExecAllocatorOption,
) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true), chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(userDataDir),
	}
	for _, f := range sandboxFlags(sandboxHere(), os.Stderr) {
		opts = append(opts, chromedp.Flag(f, true))
	}
	if native {
		opts = append(opts, chromedp.Flag("enable-features", "WebMCP"))
	}
	return append(opts, extra...)
}

// Eval runs an async function body in the page and decodes its JSON-able return value.
func Eval(ctx context.Context, body string, out any) error {
	js := "(async () => { " + body + " })().then((v) => JSON.stringify(v === undefined ? null : v))"
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(s), out)
}
