//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/hostinstall"
)

// extensionSetup is the person's own browser as the relay comparison makes it, the way the
// native-messaging tests do (internal/testing/browsertest, startNative): a profile whose
// NativeMessagingHosts folder registers webmcp-mcp as the extension's host, and a private
// rendezvous folder ($XDG_RUNTIME_DIR) that the host and `webmcp-mcp -extension` share.
type extensionSetup struct {
	profile, runtime, extension string
}

// newExtensionSetup makes the folders and registers self as the host in the profile; cleanup
// removes them.
func newExtensionSetup(self, dist string) (extensionSetup, func(), error) {
	var s extensionSetup
	s.extension = filepath.Join(dist, "extension")
	if _, err := os.Stat(filepath.Join(s.extension, "manifest.json")); err != nil {
		return s, nil, fmt.Errorf("the extension is not built (make build): %w", err)
	}
	var err error
	if s.profile, err = os.MkdirTemp("", "relay-ext-profile-"); err != nil {
		return s, nil, err
	}
	if s.runtime, err = os.MkdirTemp("", "relay-ext-run-"); err != nil {
		os.RemoveAll(s.profile)
		return s, nil, err
	}
	cleanup := func() {
		os.RemoveAll(s.profile)
		os.RemoveAll(s.runtime)
	}
	if err := hostinstall.Install(self, filepath.Join(s.profile, "NativeMessagingHosts"), io.Discard); err != nil {
		cleanup()
		return s, nil, err
	}
	return s, cleanup, nil
}

// server is `webmcp-mcp -extension -allow origin` in the setup's rendezvous folder.
func (s extensionSetup) server(self, origin string) *exec.Cmd {
	cmd := exec.Command(self, "-extension", "-allow", origin)
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+s.runtime)
	return cmd
}

// open starts headless Chromium (WebMCP on) with the extension on the setup's profile, showing
// url, until the returned stop. Chromium starts the host, which finds the rendezvous folder in
// the environment it passes on.
func (s extensionSetup) open(chromium, url string) (func(), error) {
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), headless.Options(chromium, s.profile, true,
		chromedp.Flag("disable-extensions-except", s.extension),
		chromedp.Flag("load-extension", s.extension),
		chromedp.Env("XDG_RUNTIME_DIR="+s.runtime))...)
	ctx, cancelTab := chromedp.NewContext(actx)
	stop := func() {
		cancelTab()
		cancelAlloc()
		time.Sleep(200 * time.Millisecond) // the host sees its stdin close and removes its socket
	}
	if err := chromedp.Do(ctx); err != nil { // the browser's lifetime is ctx's, not the timeout's below
		stop()
		return nil, err
	}
	nctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(nctx, chromedp.Navigate(url)); err != nil {
		stop()
		return nil, err
	}
	return stop, nil
}
