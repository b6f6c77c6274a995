//go:build linux

// Package webdriver starts Firefox and WebKitGTK for the browser tests and drives one page of each
// through the same small interface, [Page]: open a URL, evaluate an async function body and decode
// its JSON result, size the viewport, take a screenshot.
//
// Firefox is driven over WebDriver BiDi, which Firefox has built in (no geckodriver: Debian has
// none): `firefox --headless --remote-debugging-port=0`, then a WebSocket to its /session
// endpoint. WebKitGTK is driven over classic WebDriver (HTTP and JSON) by Debian's
// WebKitWebDriver, whose MiniBrowser needs an X display: [StartWebKit] starts Xvfb for it.
// Each browser gets its own profile directory, port and display, so any number can run side by
// side, and [Page.Close] ends every process it started.
//
// Quick start:
//
//	page, err := webdriver.StartFirefox(ctx, webdriver.FirefoxOptions{ProfileDir: t.TempDir()})
//	if err != nil { t.Fatal(err) } // a *NotInstalledError names the Debian package to install
//	defer page.Close()
//	_ = page.Open(ctx, "http://localhost:8080/")
//	var title string
//	_ = page.Eval(ctx, `return document.title`, &title)
package webdriver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
)

// Page is one tab of a browser this package started. Its methods may be called from one
// goroutine at a time.
type Page interface {
	// Open navigates the tab to url and returns after the page's load event.
	Open(ctx context.Context, url string) error
	// Eval runs body as the body of an async function in the page, awaits it and decodes the
	// JSON of its return value (undefined becomes null) into out. A throw or rejection in the page
	// is returned as an *EvalError.
	Eval(ctx context.Context, body string, out any) error
	// SetViewport sizes the tab's viewport (WebKit: its window) to width×height CSS pixels.
	SetViewport(ctx context.Context, width, height int) error
	// Screenshot returns a PNG of the page (Firefox: the whole document; WebKit: the viewport).
	Screenshot(ctx context.Context) ([]byte, error)
	// Browser names the browser and its version, as the browser reports them.
	Browser() string
	// Close ends the session and every process started for it. It is safe to call more than once.
	Close() error
}

// EvalError is a script that threw or rejected in the page.
type EvalError struct {
	// Message is the error as the page would print it, "TypeError: …", with its stack when the
	// browser gives one.
	Message string
}

// Error says that the page threw, and what.
func (e *EvalError) Error() string { return "script error in the page: " + e.Message }

// NotInstalledError says which program is missing and which Debian package provides it.
type NotInstalledError struct {
	// Program is what was looked for, e.g. "firefox-esr".
	Program string
	// Package is the Debian package that provides it.
	Package string
	// Env is the environment variable that can point at the program instead.
	Env string
}

// Error names the missing program, its Debian package and the variable to set instead.
func (e *NotInstalledError) Error() string {
	return fmt.Sprintf(
		"%s is needed and was not found: install Debian's '%s' package (sudo apt-get install %s; make test "+
			"does this as root) or set %s=/path/to/it",
		e.Program,
		e.Package,
		e.Package,
		e.Env,
	)
}

// find returns explicit when set, else $env when set, else the first of names on PATH.
func find(explicit, env, pkg string, names ...string) (string, error) {
	if explicit == "" {
		explicit = os.Getenv(env)
	}
	if explicit != "" {
		p, err := exec.LookPath(explicit)
		if err != nil {
			return "", fmt.Errorf("%s=%q: %w (install Debian's '%s' package)", env, explicit, err, pkg)
		}
		return p, nil
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", &NotInstalledError{Program: names[0], Package: pkg, Env: env}
}

// wrapBody makes an expression of an async function body: a promise of the JSON text of its
// return value. The newlines keep a trailing // comment in body from swallowing the rest.
func wrapBody(body string) string {
	return "(async () => {\n" + body + "\n})().then((v) => JSON.stringify(v === undefined ? null : v))"
}

// decode unmarshals the JSON text a wrapped body resolved to.
func decode(jsonText string, out any) error {
	if out == nil {
		return nil
	}
	if err := json.Unmarshal([]byte(jsonText), out); err != nil {
		return fmt.Errorf("decoding the page's result %.200q: %w", jsonText, err)
	}
	return nil
}
