//go:build !js

// Package devtools is the source of pages of a Chromium webmcp-mcp drives over DevTools:
// launched headless with a fresh profile, or a running Chrome attached with -browser. Every page
// is a tab with the bridge injected before the page's own scripts ([InjectScript]); its tools
// are read and called from an isolated world, and where it is comes from DevTools, never from the
// page. The bridge's module is served to the pages on loopback ([ServeAssets]).
package devtools

import (
	"context"
	"fmt"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// Config says which browser to drive.
type Config struct {
	Attach      string // a DevTools endpoint (http:// or ws://); empty: launch Chromium
	Chromium    string // the executable to launch
	Headed      bool
	WebMCP      bool // launch with --enable-features=WebMCP
	UserDataDir string
}

// Start launches Chromium (or attaches to a running one) and returns a chromedp context
// of the browser, with no tab of its own.
func Start(parent context.Context, cfg Config) (context.Context, context.CancelFunc, error) {
	var actx context.Context
	var cancelAlloc context.CancelFunc
	if cfg.Attach != "" {
		actx, cancelAlloc = remote.NewAllocator(parent, cfg.Attach)
	} else {
		// The browser's defaults stand: private-network protection stays on, so a page the agent
		// opens cannot reach loopback or intranet services without the browser's checks.
		var extra []chromedp.ExecAllocatorOption
		if cfg.Headed {
			extra = append(extra, chromedp.Flag("headless", false))
		}
		opts := headless.Options(cfg.Chromium, cfg.UserDataDir, cfg.WebMCP, extra...)
		actx, cancelAlloc = chromedp.NewExecAllocator(parent, opts...)
	}
	bctx, cancelBrowser := chromedp.NewContext(actx)
	cancel := func() { cancelBrowser(); cancelAlloc() }
	// Targets starts the browser (or connects) without opening a tab. The browser lives as long
	// as the context of this first call, so it has no timeout of its own.
	if _, err := chromedp.Targets(bctx); err != nil {
		cancel()
		if cfg.Attach != "" {
			return nil, nil, fmt.Errorf(
				"cannot attach to the browser at %s: %w (start Chrome with --remote-debugging-port=9222)",
				cfg.Attach,
				err,
			)
		}
		return nil, nil, fmt.Errorf("cannot start %s: %w", cfg.Chromium, err)
	}
	return bctx, cancel, nil
}
