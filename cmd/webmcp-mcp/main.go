//go:build !js

// Command webmcp-mcp is an MCP server that offers the WebMCP tools of web pages to any MCP
// client (Claude Desktop, Claude Code, Cursor, VS Code …), with real image, audio, resource_link
// and sanitized resource blocks instead of JSON text.
//
// It drives Chromium (headless by default, with WebMCP on and a fresh profile; or a running
// Chrome with -browser), injects the bridge into every page before its scripts run — as the
// extension does — and normalizes whatever a page returns again, natively, with
// bridge.ParseToolOutput: the page is never trusted. With -extension it serves the tabs of the
// person's own browser instead, through the webmcp-bridge extension; the browser starts this
// same binary as the extension's native-messaging host.
//
//	webmcp-mcp -open https://shop.example/              # stdio, for a client's config
//	webmcp-mcp -http 127.0.0.1:8931 -open http://localhost:8080/demo/
//	webmcp-mcp -browser http://127.0.0.1:9222           # your own Chrome, started with --remote-debugging-port=9222
//
// Every tool of every open page is an MCP tool (prefixed with its page id, "p2_search", when two
// pages have the same name); webmcp_open_page, webmcp_list_pages and webmcp_close_page manage the
// pages, and webmcp_list_tools and webmcp_call_tool reach every page tool for clients that list
// tools once. Tools are read and called from an isolated world, and where a page is comes from
// DevTools, never from the page. Every message is bounded (internal/mcpserver/limits.go). The
// bridge's loader is embedded; its Go module comes from web/dist (`make build`) when there is
// one, see -assets.
//
// This package is flags and wiring: the MCP server is internal/mcpserver, its sources of pages
// internal/devtools and internal/extension, the host internal/nativehost and its installation
// internal/hostinstall (docs/architecture.md shows the parts).
//
//	go install github.com/webmcp-bridge/webmcp-bridge/cmd/webmcp-mcp@latest
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/internal/bundled"
	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// version is set by the build (-X main.version=…); otherwise serverVersion reads it from the
// build info.
var version = ""

// defaultTimeout is the default -timeout: below the 60 s of the TypeScript SDK's and other
// clients' request timeout, so the page is given up on (and told so) before the client gives up.
const defaultTimeout = 45 * time.Second

// serverVersion is the version webmcp-mcp reports in serverInfo: the module version of
// `go install …/cmd/webmcp-mcp@v1.2.3`; for a build in a checkout, the version of the sources
// (web/package.json, as the embedded loader carries it) marked "-devel", with the VCS revision
// when the build recorded one.
func serverVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		if v := installedVersion(bi.Main.Version); v != "" {
			return v
		}
	}
	v := "devel"
	if lv := bundled.Version(); lv != "" {
		v = lv + "-devel"
	}
	if !ok {
		return v
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += "+" + rev
		if modified {
			v += ".dirty"
		}
	}
	return v
}

// installedVersion is the version `go install …@v1.2.3` stamped as the main module's ("v1.2.3"),
// written as the release builds write it ("1.2.3"); "" for a build without one.
func installedVersion(moduleVersion string) string {
	if moduleVersion == "" || moduleVersion == "(devel)" {
		return ""
	}
	return strings.TrimPrefix(moduleVersion, "v")
}

type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set takes one value or several separated by spaces (a URL or an origin has none), so that an
// MCP Bundle's one text field can carry a list; an empty value adds nothing.
func (l *listFlag) Set(v string) error { *l = append(*l, strings.Fields(v)...); return nil }

type options struct {
	httpAddr   string
	headed     bool
	open       listFlag
	browserURL string
	policyFile string
	timeout    time.Duration
	ready      time.Duration
	assets     string
	chromium   string
	webmcp     bool
	verbose    bool
	version    bool
	ext        extensionOptions // the extension path (extension.go)
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("webmcp-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(
		&o.httpAddr,
		"http",
		"",
		"serve streamable HTTP on this address (e.g. 127.0.0.1:8931) at /mcp instead of stdio",
	)
	fs.BoolVar(&o.headed, "headed", false, "show the browser window")
	fs.Var(&o.open, "open", "open this URL at start (repeatable)")
	fs.StringVar(
		&o.browserURL,
		"browser",
		"",
		"attach to a running Chrome's DevTools endpoint (http://127.0.0.1:9222 or a ws:// URL) instead of launching Chromium",
	)
	fs.StringVar(&o.policyFile, "policy", "", "the policy as a JSON file (the settings of WebMCPBridge.configure)")
	fs.DurationVar(
		&o.timeout,
		"timeout",
		defaultTimeout,
		"how long a tool call (or opening a page) may take; below the 60 s after which common MCP clients "+
			"give up, and progress notifications are sent meanwhile",
	)
	fs.DurationVar(
		&o.ready,
		"ready-timeout",
		mcpserver.DefaultReadyTimeout,
		"how long the first tools/list (and a call of a tool not yet known) waits for the -open pages to "+
			"load and register their tools",
	)
	fs.StringVar(
		&o.assets,
		"assets",
		"",
		"the built bridge (web/dist of `make build`), served so that pages may run its module too; "+
			"arguments are checked and results normalized here either way; default: $WEBMCP_BRIDGE_ASSETS, or "+
			"a web/dist found from the working directory or the executable, else none (the embedded loader "+
			"only)",
	)
	fs.StringVar(&o.chromium, "chromium", "", "the Chromium to launch (default: $CHROMIUM, or chromium on PATH)")
	fs.BoolVar(
		&o.webmcp,
		"webmcp",
		true,
		"launch Chromium with native WebMCP (--enable-features=WebMCP); false: the bridge provides the API",
	)
	fs.BoolVar(&o.verbose, "v", false, "log debug messages to stderr")
	fs.BoolVar(&o.version, "version", false, "print the version (the one serverInfo reports) and exit")
	addExtensionFlags(fs, &o.ext)
	fs.Usage = func() {
		fmt.Fprintln(
			stderr,
			"usage: webmcp-mcp [flags]\n\nAn MCP server (stdio, or streamable HTTP with -http) for the WebMCP "+
				"tools of web pages.\n\nflags:",
		)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q (URLs go with -open)", fs.Args())
	}
	if o.timeout <= 0 {
		return o, errors.New("-timeout must be positive")
	}
	if o.ready < 0 {
		return o, errors.New("-ready-timeout must not be negative")
	}
	return o, checkExtensionFlags(o)
}

func main() {
	if host, code := hostMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); host {
		os.Exit(code)
	}
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webmcp-mcp:", err)
		os.Exit(2)
	}
	if o.version {
		fmt.Println("webmcp-mcp", serverVersion())
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = run(ctx, o, os.Stdin, os.Stdout, os.Stderr)
	if err != nil && (ctx.Err() == nil || !errors.Is(err, context.Canceled)) {
		fmt.Fprintln(os.Stderr, "webmcp-mcp:", err)
		os.Exit(1)
	}
}
