//go:build !js

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/internal/hostinstall"
	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"
)

// extensionOptions are the flags of the extension path: serving the person's own browser
// (-extension), and registering the native-messaging host (-install-host).
type extensionOptions struct {
	enabled        bool
	allow          listFlag
	confirm        string
	confirmTimeout time.Duration
	installHost    bool
	uninstallHost  bool
	hostDir        string
}

// defaultConfirmTimeout is how long a consequential tool waits for the person to confirm it:
// below the 60 s after which common MCP clients give up on a request, so that a question nobody
// answers is answered "not confirmed" to the client before it gives up.
const defaultConfirmTimeout = 45 * time.Second

func addExtensionFlags(fs *flag.FlagSet, o *extensionOptions) {
	fs.BoolVar(
		&o.enabled,
		"extension",
		false,
		"serve the tabs of your own browser, reached through the webmcp-bridge extension (see "+
			"-install-host), instead of a browser webmcp-mcp drives",
	)
	fs.Var(
		&o.allow,
		"allow",
		"expose the tools of this origin (https://shop.example; repeatable): with -extension, besides "+
			"those allowed in the extension's panel; with -browser or a launched browser, only these (other "+
			"tabs are not taken in, webmcp_open_page opens no other origin)",
	)
	fs.StringVar(
		&o.confirm,
		"confirm",
		"always",
		"with -extension: \"always\" asks you in the browser before a consequential tool "+
			"(consequentialHint, not readOnlyHint) runs; \"never\" does not",
	)
	fs.DurationVar(
		&o.confirmTimeout,
		"confirm-timeout",
		defaultConfirmTimeout,
		"with -extension: how long a consequential tool waits for you to confirm it; below the 60 s after "+
			"which common MCP clients give up (raise it only for a client that waits longer, or that resets its "+
			"timeout on progress)",
	)
	fs.BoolVar(
		&o.installHost,
		"install-host",
		false,
		"register this binary as the extension's native-messaging host for every installed Chromium-family "+
			"browser and Firefox, then exit",
	)
	fs.BoolVar(&o.uninstallHost, "uninstall-host", false, "remove what -install-host wrote, then exit")
	fs.StringVar(
		&o.hostDir,
		"host-dir",
		"",
		"with -install-host or -uninstall-host: only this folder of host manifests (a profile's "+
			"NativeMessagingHosts; Firefox's native-messaging-hosts)",
	)
}

// checkExtensionFlags refuses what does not fit together.
func checkExtensionFlags(o options) error {
	e := o.ext
	if e.confirm != "always" && e.confirm != "never" {
		return fmt.Errorf("-confirm must be always or never, not %q", e.confirm)
	}
	if e.confirmTimeout <= 0 {
		return errors.New("-confirm-timeout must be positive")
	}
	for _, a := range e.allow {
		u, err := url.Parse(a)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") ||
			u.RawQuery != "" {
			return fmt.Errorf("-allow %q: an origin is scheme://host[:port], e.g. https://shop.example", a)
		}
	}
	if !e.enabled && (e.confirm != "always" || e.confirmTimeout != defaultConfirmTimeout) {
		return errors.New("-confirm and -confirm-timeout go with -extension")
	}
	if e.enabled && (len(o.open) > 0 || o.browserURL != "" || o.headed) {
		return errors.New("-extension serves your browser's own tabs: -open, -browser and -headed do not go with it")
	}
	if e.hostDir != "" && !e.installHost && !e.uninstallHost {
		return errors.New("-host-dir goes with -install-host or -uninstall-host")
	}
	return nil
}

// origins are the -allow values as origins (no trailing slash).
func (e extensionOptions) origins() []string {
	out := []string{}
	for _, a := range e.allow {
		u, _ := url.Parse(a)
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out
}

// hostMain runs this binary as the native-messaging host when the browser started it, and
// reports whether it did (with the exit code).
func hostMain(args []string, stdin io.Reader, stdout, stderr io.Writer) (bool, int) {
	browser, ok, err := nativehost.Invocation(args)
	if err != nil {
		fmt.Fprintln(stderr, "webmcp-mcp:", err)
		return true, 1
	}
	if !ok {
		return false, 0
	}
	level := slog.LevelWarn
	if os.Getenv("WEBMCP_HOST_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})).With("host", browser)
	if err := nativehost.Run(stdin, stdout, log); err != nil {
		fmt.Fprintln(stderr, "webmcp-mcp (native-messaging host):", err)
		return true, 1
	}
	return true, 0
}

// hostSetup does -install-host and -uninstall-host, and reports whether it was asked to.
func hostSetup(e extensionOptions, stdout io.Writer) (bool, error) {
	switch {
	case e.installHost:
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			return true, err
		}
		return true, hostinstall.Install(exe, e.hostDir, stdout)
	case e.uninstallHost:
		return true, hostinstall.Uninstall(e.hostDir, stdout)
	}
	return false, nil
}
