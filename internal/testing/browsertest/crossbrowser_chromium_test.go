//go:build linux

package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/webdriver"
)

// chromiumPage is headless Chromium, driven over DevTools, as a webdriver.Page: one row of
// crossBrowsers, so that the cross-browser tests run the fallback in every browser.
type chromiumPage struct {
	ctx     context.Context // the tab's: a chromedp context that has run once
	close   func()
	version string
}

// startChromium starts headless Chromium with its profile in profile; native turns WebMCP on.
// ctx bounds the start only, not the browser's life (chromedp ties a browser to the context of
// its first run).
func startChromium(ctx context.Context, profile string, native bool) (webdriver.Page, error) {
	path, err := headless.ChromiumPath()
	if err != nil {
		return nil, err
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), headless.Options(path, profile, native)...)
	tab, cancelTab := chromedp.NewContext(actx)
	p := &chromiumPage{ctx: tab, close: func() { cancelTab(); cancelAlloc() }}
	if err := chromedp.Do(tab); err != nil {
		p.close()
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	if err := p.Eval(ctx, `return navigator.userAgent.match(/Chrom\w*\/[\d.]+/)?.[0] ?? "Chromium"`, &p.version); err != nil {
		p.close()
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return p, nil
}

// in is the tab's context, ended by ctx too.
func (p *chromiumPage) in(ctx context.Context) (context.Context, context.CancelFunc) {
	tctx, cancel := context.WithCancel(p.ctx)
	stop := context.AfterFunc(ctx, cancel)
	return tctx, func() { stop(); cancel() }
}

func (p *chromiumPage) Open(ctx context.Context, url string) error {
	tctx, done := p.in(ctx)
	defer done()
	return chromedp.Do(tctx, chromedp.Navigate(url))
}

func (p *chromiumPage) Eval(ctx context.Context, body string, out any) error {
	tctx, done := p.in(ctx)
	defer done()
	js := "(async () => {\n" + body + "\n})().then((v) => JSON.stringify(v === undefined ? null : v))"
	text, err := chromedp.Run(tctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	var thrown *chromedp.ExceptionError
	if errors.As(err, &thrown) {
		return &webdriver.EvalError{Message: thrown.Error()}
	}
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal([]byte(text), out)
}

func (p *chromiumPage) SetViewport(ctx context.Context, width, height int) error {
	tctx, done := p.in(ctx)
	defer done()
	return chromedp.Do(tctx, chromedp.EmulateViewport(int64(width), int64(height)))
}

func (p *chromiumPage) Screenshot(ctx context.Context) ([]byte, error) {
	tctx, done := p.in(ctx)
	defer done()
	return chromedp.Run(tctx, chromedp.FullScreenshot(100))
}

func (p *chromiumPage) Browser() string { return p.version }

func (p *chromiumPage) Close() error {
	p.close()
	return nil
}
