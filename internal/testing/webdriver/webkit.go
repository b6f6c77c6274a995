//go:build linux

package webdriver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// WebKitOptions say how [StartWebKit] starts WebKitGTK.
type WebKitOptions struct {
	// Driver is the WebKitWebDriver to run. Empty means $WEBKITWEBDRIVER, else WebKitWebDriver
	// on PATH (Debian's 'webkit2gtk-driver' package).
	Driver string
	// Browser is the browser the driver starts (webkitgtk:browserOptions.binary). Empty means
	// the driver's own default, Debian's MiniBrowser.
	Browser string
	// BrowserArgs are added to the browser's command line (webkitgtk:browserOptions.args).
	BrowserArgs []string
	// ProfileDir is an empty directory of this browser's own, e.g. t.TempDir(): the driver and
	// the browser get it as HOME and XDG data, cache and config directories. Required.
	ProfileDir string
	// Display is an X display to use, e.g. ":0". Empty means start an Xvfb of its own ($XVFB,
	// else Xvfb on PATH: Debian's 'xvfb' package): Debian's MiniBrowser has no headless mode.
	Display string
}

// WebKit is a WebKitGTK MiniBrowser driven by WebKitWebDriver over classic WebDriver, on an
// Xvfb display of its own. It is the [Page] of its window.
type WebKit struct {
	*classicPage
	driver, xvfb *process
	once         sync.Once
}

var _ Page = (*WebKit)(nil)

// StartWebKit starts Xvfb (unless opt.Display is set) and WebKitWebDriver on a free port, and
// starts a session, which opens MiniBrowser. ctx bounds the start only. When WebKitWebDriver or
// Xvfb is not installed the error is a *NotInstalledError.
//
// The command lines: Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp; then
// WebKitWebDriver --host=127.0.0.1 --port=PORT with DISPLAY=:N and HOME and XDG_*_HOME in
// ProfileDir (the driver starts MiniBrowser --automation itself).
func StartWebKit(ctx context.Context, opt WebKitOptions) (*WebKit, error) {
	driver, err := find(opt.Driver, "WEBKITWEBDRIVER", "webkit2gtk-driver", "WebKitWebDriver")
	if err != nil {
		return nil, err
	}
	if opt.ProfileDir == "" {
		return nil, errors.New("webdriver: WebKitOptions.ProfileDir is required")
	}
	w := &WebKit{}
	display := opt.Display
	if display == "" {
		xvfb, err := find("", "XVFB", "xvfb", "Xvfb")
		if err != nil {
			return nil, err
		}
		if w.xvfb, display, err = startXvfb(ctx, xvfb); err != nil {
			return nil, err
		}
	}
	env := []string{"DISPLAY=" + display, "NO_AT_BRIDGE=1", "GDK_BACKEND=x11"}
	dirs := map[string]string{"HOME": "", "XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "cache", "XDG_CONFIG_HOME": "config"}
	for name, sub := range dirs {
		dir := filepath.Join(opt.ProfileDir, sub)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			w.Close()
			return nil, err
		}
		env = append(env, name+"="+dir)
	}
	var c *classic
	for try := 0; ; try++ {
		c, err = w.startDriver(ctx, driver, env)
		if err == nil || try == 2 || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	caps := map[string]any{"unhandledPromptBehavior": "ignore"}
	if opt.Browser != "" || len(opt.BrowserArgs) > 0 {
		bo := map[string]any{"args": append([]string{}, opt.BrowserArgs...)}
		if opt.Browser != "" {
			bo["binary"] = opt.Browser
		}
		caps["webkitgtk:browserOptions"] = bo
	}
	page, err := newClassicPage(ctx, c, caps)
	if err != nil {
		out := w.driver.output()
		w.Close()
		return nil, fmt.Errorf("starting a WebKit session: %w\n%s", err, out)
	}
	w.classicPage = page
	return w, nil
}

// startDriver starts WebKitWebDriver on a free port and waits until it answers /status. A port
// taken between choosing and binding makes it exit: the caller tries again.
func (w *WebKit) startDriver(ctx context.Context, driver string, env []string) (*classic, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	proc, err := startProcess(driver, []string{"--host=127.0.0.1", "--port=" + strconv.Itoa(port)}, env, nil)
	if err != nil {
		return nil, err
	}
	c := &classic{base: "http://127.0.0.1:" + strconv.Itoa(port), http: &http.Client{}}
	for {
		sctx, cancel := context.WithTimeout(ctx, time.Second)
		var status struct {
			Ready bool `json:"ready"`
		}
		err := c.do(sctx, http.MethodGet, "/status", nil, &status)
		cancel()
		if err == nil && status.Ready {
			w.driver = proc
			return c, nil
		}
		if proc.exited() || ctx.Err() != nil {
			proc.stop(0, 0)
			return nil, fmt.Errorf("%s --port=%d did not start: %v\n%s", driver, port, err, proc.output())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startXvfb starts an Xvfb on a display number it picks itself (-displayfd) and returns it
// with its name, ":N", once it accepts clients.
func startXvfb(ctx context.Context, xvfb string) (*process, string, error) {
	r, wr, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	proc, err := startProcess(
		xvfb,
		[]string{"-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"},
		nil,
		nil,
		wr,
	)
	wr.Close()
	if err != nil {
		return nil, "", err
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			proc.stop(0, 0)
			return nil, "", fmt.Errorf("%s did not start:\n%s", xvfb, proc.output())
		}
		return proc, ":" + n, nil
	case <-ctx.Done():
		proc.stop(0, 0)
		return nil, "", fmt.Errorf("%s did not start: %w\n%s", xvfb, ctx.Err(), proc.output())
	}
}

// Close ends the session (which closes MiniBrowser), then WebKitWebDriver and Xvfb, by SIGTERM
// and after 3 s at most by SIGKILL to their process groups.
func (w *WebKit) Close() error {
	w.once.Do(func() {
		if w.classicPage != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = w.end(ctx)
			cancel()
		}
		if w.driver != nil {
			w.driver.stop(syscall.SIGTERM, 3*time.Second)
		}
		if w.xvfb != nil {
			w.xvfb.stop(syscall.SIGTERM, 3*time.Second)
		}
	})
	return nil
}
