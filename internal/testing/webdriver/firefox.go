//go:build linux

package webdriver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// FirefoxOptions say how [StartFirefox] starts Firefox.
type FirefoxOptions struct {
	// Binary is the Firefox to run. Empty means $FIREFOX, else firefox-esr or firefox on PATH
	// (Debian's 'firefox-esr' package).
	Binary string
	// ProfileDir is the profile: an empty directory of this browser's own, e.g. t.TempDir().
	// Required.
	ProfileDir string
	// Prefs are written to the profile's user.js, after the package's own (which keep Firefox
	// from reaching out to the network on its own and from showing first-run pages).
	Prefs map[string]any
	// Output, when not nil, sees each line Firefox prints (its console too, with the prefs
	// devtools.console.stdout.*), e.g. for a test's log.
	Output func(line string)
	// SystemAccess starts Firefox with --remote-allow-system-access: the session may run
	// scripts in the browser's own windows (see [Firefox.OpenPrivileged]).
	SystemAccess bool
}

// firefoxPrefs are the preferences every Firefox started here gets, besides those Firefox's
// remote agent sets itself (remote.prefs.recommended): no first-run pages, no update or
// experiment downloads, no telemetry.
var firefoxPrefs = map[string]any{
	"browser.shell.checkDefaultBrowser":           false,
	"browser.startup.homepage_override.mstone":    "ignore",
	"startup.homepage_welcome_url":                "about:blank",
	"app.update.disabledForTesting":               true,
	"app.normandy.enabled":                        false,
	"messaging-system.rsexperimentloader.enabled": false,
	"datareporting.policy.dataSubmissionEnabled":  false,
	"toolkit.telemetry.reportingpolicy.firstRun":  false,
	"network.captive-portal-service.enabled":      false,
	"network.connectivity-service.enabled":        false,
	"browser.safebrowsing.update.enabled":         false,
}

// Firefox is a headless Firefox ESR driven over WebDriver BiDi. It is the [Page] of its first
// tab.
type Firefox struct {
	*bidiPage
	proc *process
	once sync.Once
}

var _ Page = (*Firefox)(nil)

// bidiListening is the line Firefox prints on stderr once its WebDriver BiDi server listens.
var bidiListening = regexp.MustCompile(`WebDriver BiDi listening on (ws://[^\s]+)`)

// StartFirefox starts a headless Firefox with its own profile and a WebDriver BiDi server on a
// port it picks itself, and starts a session on its first tab. ctx bounds the start only. When
// no Firefox is installed the error is a *NotInstalledError.
//
// The command line: firefox --headless --no-remote --profile DIR --remote-debugging-port=0
// --remote-allow-origins=http://127.0.0.1 about:blank.
func StartFirefox(ctx context.Context, opt FirefoxOptions) (*Firefox, error) {
	bin, err := find(opt.Binary, "FIREFOX", "firefox-esr", "firefox-esr", "firefox")
	if err != nil {
		return nil, err
	}
	if opt.ProfileDir == "" {
		return nil, errors.New("webdriver: FirefoxOptions.ProfileDir is required")
	}
	if err := writeUserJS(opt.ProfileDir, opt.Prefs); err != nil {
		return nil, err
	}
	listening := make(chan string, 1)
	onLine := func(line string) {
		if opt.Output != nil {
			opt.Output(line)
		}
		if m := bidiListening.FindStringSubmatch(line); m != nil {
			select {
			case listening <- m[1]:
			default:
			}
		}
	}
	args := []string{
		"--headless", "--no-remote", "--profile", opt.ProfileDir,
		"--remote-debugging-port=0", "--remote-allow-origins=" + bidiOrigin,
	}
	if opt.SystemAccess {
		args = append(args, "--remote-allow-system-access")
	}
	proc, err := startProcess(bin, append(args, "about:blank"), []string{"MOZ_CRASHREPORTER_DISABLE=1"}, onLine)
	if err != nil {
		return nil, err
	}
	f := &Firefox{proc: proc}
	wsURL, err := waitFor(ctx, proc, listening)
	if err != nil {
		f.proc.stop(0, 0)
		return nil, fmt.Errorf("%s did not start its WebDriver BiDi server: %w\n%s", bin, err, proc.output())
	}
	conn, err := dialBiDi(ctx, wsURL+"/session")
	if err != nil {
		f.proc.stop(0, 0)
		return nil, err
	}
	page, err := newBiDiPage(ctx, conn)
	if err != nil {
		conn.close()
		f.proc.stop(0, 0)
		return nil, err
	}
	f.bidiPage = page
	return f, nil
}

// InstallExtension installs the unpacked extension in dir as a temporary add-on (WebDriver
// BiDi's webExtension.install) and returns its id.
func (f *Firefox) InstallExtension(ctx context.Context, dir string) (string, error) {
	var out struct {
		Extension string `json:"extension"`
	}
	err := f.conn.call(
		ctx,
		"webExtension.install",
		map[string]any{"extensionData": map[string]any{"type": "path", "path": dir}},
		&out,
	)
	return out.Extension, err
}

// OpenPrivileged opens url in a new tab as the browser itself would (the system principal),
// e.g. an extension's page (moz-extension://), which browsingContext.navigate refuses, and
// returns the tab; its Close closes the tab only. It needs [FirefoxOptions.SystemAccess].
func (f *Firefox) OpenPrivileged(ctx context.Context, url string) (Page, error) {
	var tree struct {
		Contexts []struct {
			Context string `json:"context"`
			URL     string `json:"url"`
		} `json:"contexts"`
	}
	err := f.conn.call(ctx, "browsingContext.getTree", map[string]any{"maxDepth": 0, "moz:scope": "chrome"}, &tree)
	if err != nil {
		return nil, err
	}
	if len(tree.Contexts) == 0 {
		return nil, errors.New("webdriver: no browser window (is SystemAccess set?)")
	}
	u, _ := json.Marshal(url)
	open := &bidiPage{conn: f.conn, context: tree.Contexts[0].Context}
	err = open.Eval(ctx, `gBrowser.selectedTab = gBrowser.addTab(`+string(u)+
		`, {triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal()}); return true`, nil)
	if err != nil {
		return nil, err
	}
	for {
		if err := f.conn.call(ctx, "browsingContext.getTree", map[string]any{"maxDepth": 0}, &tree); err != nil {
			return nil, err
		}
		for _, c := range tree.Contexts {
			if c.URL == url {
				return &bidiTab{bidiPage: &bidiPage{conn: f.conn, context: c.Context, browser: f.browser}}, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("webdriver: the tab of %s did not appear: %w", url, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// bidiTab is a tab OpenPrivileged opened, in a browser that stays when the tab closes.
type bidiTab struct {
	*bidiPage
	once sync.Once
}

// Close implements [Page.Close]: browsingContext.close.
func (t *bidiTab) Close() error {
	var err error
	t.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err = t.conn.call(ctx, "browsingContext.close", map[string]any{"context": t.context}, nil)
	})
	return err
}

// waitFor waits for a value on ch, the end of ctx, or the end of proc.
func waitFor(ctx context.Context, proc *process, ch <-chan string) (string, error) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case v := <-ch:
			return v, nil
		case <-ctx.Done():
			return "", ctx.Err()
		case <-tick.C:
			if proc.exited() {
				return "", errors.New("it exited")
			}
		}
	}
}

// writeUserJS writes the package's prefs and then extra to dir/user.js.
func writeUserJS(dir string, extra map[string]any) error {
	var b strings.Builder
	for _, prefs := range []map[string]any{firefoxPrefs, extra} {
		names := make([]string, 0, len(prefs))
		for name := range prefs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			v, err := json.Marshal(prefs[name])
			if err != nil {
				return fmt.Errorf("pref %s: %w", name, err)
			}
			n, _ := json.Marshal(name)
			fmt.Fprintf(&b, "user_pref(%s, %s);\n", n, v)
		}
	}
	return os.WriteFile(filepath.Join(dir, "user.js"), []byte(b.String()), 0o644)
}

// Close asks Firefox to quit (browser.close), then ends it and its content processes: after
// 5 s at most, by SIGKILL to its process group.
func (f *Firefox) Close() error {
	f.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = f.conn.call(ctx, "browser.close", nil, nil)
		f.conn.close()
		f.proc.stop(0, 5*time.Second)
	})
	return nil
}
