//go:build !js

package browsertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionNativeNotification (issue 25): with no panel open, a consequential call is put to
// the person in a notification that the browser shows (chrome.notifications.getAll in the
// service worker), naming the tool, the page and the arguments; the buttons' handler — the
// function a click runs, which headless Chromium cannot click — declines (isError, not run, the
// notification gone) and confirms (run) the call end to end.
func TestExtensionNativeNotification(t *testing.T) {
	skipWithoutBuild(t)
	s := startNative(t)
	page := s.tab(t, s.base+"/test/agent-tools.html")
	s.hostPID(t)
	cs, _, progress := s.client(t, "-allow", s.base)
	buy := nameFor(t, pageTools(t, cs, 6), s.base, "buy")
	worker := serviceWorker(t, s.ctx)
	var ok bool
	runJSInline(t, worker, "worker.js", "recordNotifications", &ok)

	type answer struct {
		text  string
		isErr bool
	}
	call := func(button int) (answer, bool) {
		drainProgress(progress)
		done := make(chan answer, 1)
		go func() {
			_, text, isErr := callMCP(t, context.Background(), cs, buy, map[string]any{"cart": "3 books"})
			done <- answer{text, isErr}
		}()
		assert.Equal(t, "waiting for you to confirm in the browser", <-progress)
		var n struct {
			ID, Title, Message, Context string
			Buttons                     []string
		}
		runJSInline(t, worker, "worker.js", "shownNotification", &n)
		require.NotEmpty(t, n.ID, "the browser shows a notification")
		assert.Equal(t, s.base, n.Title, "the origin first and apart")
		assert.Contains(t, n.Message, "run buy with")
		assert.Equal(t, "on the page titled “Tools for MCP clients”", n.Context, "the page's title, from chrome.tabs, quoted")
		assert.Contains(t, n.Message, `{"cart":"3 books"}`, "the arguments")
		assert.Equal(t, []string{"Run it", "Decline"}, n.Buttons)
		var still bool
		runJSInline(t, worker, "worker.js", "clickButton", &still, n.ID, button)
		return <-done, still
	}
	declined, still := call(1)
	assert.True(t, declined.isErr)
	assert.Contains(t, declined.text, "you declined")
	assert.False(t, still, "the answered notification is cleared")
	assert.Zero(t, seen(t, page)["bought"], "not run when declined")
	ran, _ := call(0)
	assert.False(t, ran.isErr, ran.text)
	assert.Equal(t, "bought", ran.text)
	assert.Equal(t, 1.0, seen(t, page)["bought"])

	// A click on Run it in the moment its notification appears (meant for what was there
	// before) is not taken: the question stays, and a later click answers it (issue 35, point 2).
	runJSInline(t, worker, "worker.js", "clickAsItAppears", &ok, 0)
	drainProgress(progress)
	done := make(chan answer, 1)
	go func() {
		_, text, isErr := callMCP(t, context.Background(), cs, buy, map[string]any{"cart": "1 book"})
		done <- answer{text, isErr}
	}()
	var early struct {
		ID    string
		Still bool
	}
	runJSInline(t, worker, "worker.js", "clickedAsItAppeared", &early)
	require.NotEmpty(t, early.ID)
	assert.True(t, early.Still, "the early click did not answer the question")
	assert.Equal(t, 1.0, seen(t, page)["bought"], "nor run the tool")
	runJSInline(t, worker, "worker.js", "clickButton", &still, early.ID, 1)
	later := <-done
	assert.Contains(t, later.text, "you declined", "a click later is taken")
	assert.Equal(t, 1.0, seen(t, page)["bought"])
}

// serviceWorker attaches to the extension's service worker (background.js) in the browser of ctx.
func serviceWorker(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	return workerOf(t, ctx, "/background.js")
}

// workerOf attaches to the service worker whose script's URL ends with script.
func workerOf(t *testing.T, ctx context.Context, script string) context.Context {
	t.Helper()
	var id target.ID
	require.Eventually(t, func() bool {
		targets, err := chromedp.Targets(ctx)
		require.NoError(t, err)
		for _, tg := range targets {
			if tg.Type == "service_worker" && strings.HasSuffix(tg.URL, script) {
				id = tg.TargetID
				return true
			}
		}
		return false
	}, 20*time.Second, 100*time.Millisecond, "the service worker of %s did not start", script)
	worker, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
	t.Cleanup(cancel)
	return worker
}
