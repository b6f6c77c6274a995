//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests play a hostile page against the module: output the module must refuse rather
// than die on, a module that dies anyway, and a page where the module cannot run at all. Their
// JavaScript is pages/js/hostile.js.

// TestDeepOutputNeverEndsTheModule: output nested 9,500 levels deep — as raw executeTool text
// (agent side, read by the module's decoder) and as a JS value (page side, measured by the
// loader) — gives an isError result that says so; 1,000 such calls leave the same module
// running with a flat heap.
func TestDeepOutputNeverEndsTheModule(t *testing.T) {
	skipWithoutBuild(t)
	const notice = "[result refused: the result is nested more than 128 levels deep (the limit)]"
	base := serveTestBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/tools.html")
		var got struct {
			Raw, Value, Direct, After string
			RawError, ValueError      bool
			Before, End               map[string]float64
			SameModule                bool
		}
		runJS(t, ctx, "hostile.js", "deepOutput", &got)
		assert.True(t, got.RawError)
		assert.Equal(t, notice, got.Raw)
		assert.True(t, got.ValueError)
		assert.Equal(t, notice, got.Value)
		assert.Contains(t, got.Direct, notice, "the module's own decoder refuses it too")
		assert.Equal(t, "hello", got.After)
		assert.True(t, got.SameModule, "the module was never restarted")
		t.Logf("before: %v; after 1,000 deep outputs: %v", got.Before, got.End)
		assert.Equal(t, got.Before["goroutines"], got.End["goroutines"])
		assert.Less(t, got.End["heapAlloc"], got.Before["heapAlloc"]+4<<20, "the Go heap stays flat (within 4 MiB)")
	})
}

// TestOversizedOutputIsRefusedBeforeTheModule: results a page can build that are far over
// maxResultBytes (16 MiB) or maxImageBytes (5 MiB) are refused by the loader's measurement
// before anything crosses into the module; the module keeps running with a flat heap.
func TestOversizedOutputIsRefusedBeforeTheModule(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/tools.html")
		var got struct {
			Results    map[string]map[string]any
			Ms         map[string]float64
			Before     map[string]float64
			End        map[string]float64
			SameModule bool
		}
		runJS(t, ctx, "hostile.js", "oversizedOutput", &got)
		t.Logf("time to refuse, ms: %v", got.Ms)
		tooLarge := "[result refused: the result is more than 16 MiB of JSON (the limit)]"
		for name, want := range map[string]string{
			"accents":     tooLarge,
			"sparse":      tooLarge,
			"blob":        "RangeError: the image is 100000000 bytes, over the maxImageBytes limit of 5242880 bytes",
			"blobInArray": "RangeError: the image is 100000000 bytes, over the maxImageBytes limit of 5242880 bytes",
			"rawText":     tooLarge,
		} {
			require.Contains(t, got.Results, name)
			assert.True(t, got.Results[name]["isError"].(bool), name)
			assert.Contains(t, got.Results[name]["text"], want, name)
		}
		assert.True(t, got.SameModule, "the module was never restarted")
		t.Logf("before: %v; after: %v", got.Before, got.End)
		assert.Less(t, got.End["heapAlloc"], got.Before["heapAlloc"]+4<<20, "the Go heap stays flat (within 4 MiB)")
	})
}

// TestModuleRestartsAfterACrash: a module that dies in a call (the test build's crashForTest, a
// real fatal Go error) gives that call an isError result; the next call starts a new module
// with the page's policy and the tools' schemas set up again.
func TestModuleRestartsAfterACrash(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/tools.html")
		var got struct {
			Crashed                map[string]any
			After, Valid, Invalid  map[string]any
			Truncated              string
			MaxTableRows           float64
			NewModule, SecondAlive bool
			Mode                   string
		}
		runJS(t, ctx, "hostile.js", "restartAfterCrash", &got)
		assert.Equal(t, true, got.Crashed["isError"])
		assert.Contains(
			t,
			got.Crashed["content"].([]any)[0].(map[string]any)["text"],
			"the bridge's module stopped while handling this call",
		)
		assert.Equal(
			t,
			map[string]any{"temperature": 21.5, "unit": "C"},
			got.After["structuredContent"],
			"the next call works",
		)
		assert.True(t, got.NewModule)
		assert.Equal(t, "worker", got.Mode, "the new module runs in a new Worker")
		assert.True(t, got.SecondAlive, "it restarts again")
		assert.Equal(t, 1.0, got.MaxTableRows, "the page's policy is set up again")
		assert.Equal(t, "[table truncated: 2 rows exceed the 1-row limit; the first 1 were kept]", got.Truncated)
		assert.Equal(
			t,
			"color red",
			got.Valid["content"].([]any)[0].(map[string]any)["text"],
			"the schema is compiled again",
		)
		assert.Equal(t, true, got.Invalid["isError"])
		assert.Contains(t, got.Invalid["content"].([]any)[0].(map[string]any)["text"], `invalid arguments at "/color"`)
	})
}

// TestStrictCSPLeavesToolsWorking: on a page whose CSP allows scripts but not WebAssembly, the
// module cannot run; the bridge steps aside — the tools work as the page wrote them, ready
// rejects with the directive to add, and the page hears it once (a warning, an event).
func TestStrictCSPLeavesToolsWorking(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/csp/csp.html")
		var got struct {
			Ready, Hello, Data, Typed string
			Registered                string
			Warnings                  []string
			Violations                []map[string]any
		}
		runJS(t, ctx, "hostile.js", "withoutModule", &got)
		assert.Contains(t, got.Ready, "'wasm-unsafe-eval'")
		assert.Equal(t, "ok", got.Registered, "registerTool works without the module")
		assert.Equal(t, "hello", got.Hello)
		assert.JSONEq(t, `{"temperature":21.5}`, got.Data, "results pass through as the page wrote them")
		assert.Equal(t, "color red", got.Typed)
		require.Len(t, got.Warnings, 1, "one console warning: %v", got.Warnings)
		assert.Contains(t, got.Warnings[0], "Content Security Policy")
		require.Len(t, got.Violations, 1)
		assert.Equal(t, "module", got.Violations[0]["limit"])
	})
}

// TestTenRestartsLeaveOneWorker: ten modules that die in a call, one after another, each give
// that call an isError result and leave nothing behind: afterwards one Worker runs (counted by
// the browser's DevTools targets) and its Go heap is that of a fresh module.
func TestTenRestartsLeaveOneWorker(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/tools.html")
	var got struct {
		Crashed             []bool
		First, Last, Gen    float64
		FirstHeap, LastHeap float64
	}
	runJS(t, ctx, "hostile.js", "tenRestarts", &got)
	assert.Equal(t, []bool{true, true, true, true, true, true, true, true, true, true}, got.Crashed)
	assert.Equal(t, 11.0, got.Gen, "a new module after each crash")
	assert.Equal(t, got.First, got.Last, "the eleventh module answers, with the goroutines of a fresh one")
	assert.Less(t, got.LastHeap, got.FirstHeap+4<<20)
	assert.Equal(t, 1, workerTargets(t, ctx), "the dead modules' Workers were terminated")
}

// workerTargets counts the browser's Worker targets (DevTools).
func workerTargets(t *testing.T, ctx context.Context) int {
	t.Helper()
	targets, err := chromedp.Targets(ctx)
	require.NoError(t, err)
	workers := 0
	for _, tg := range targets {
		if tg.Type == "worker" {
			workers++
		}
	}
	return workers
}

// TestWhereTheModuleRuns: the module runs in the bridge's Worker when the page's own CSP lacks
// 'wasm-unsafe-eval' but the Worker's script (which brings its own CSP) allows it, and on the
// page's thread when WebAssembly is allowed but Workers are not (worker-src 'none'). Either way
// results are normalized and ready resolves.
func TestWhereTheModuleRuns(t *testing.T) {
	skipWithoutBuild(t)
	for _, c := range []struct{ page, where string }{
		{"/csp/csp.html?dist=../dist/", "worker"},
		{"/noworker/csp.html?dist=../dist/", "main"},
	} {
		t.Run(c.where, func(t *testing.T) {
			base := serveTestBuild(t)
			eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
				open(t, ctx, base+c.page)
				var got struct {
					Ready, Where string
					Data         map[string]any
					Warnings     []string
				}
				runJS(t, ctx, "hostile.js", "whereModuleRuns", &got)
				assert.Equal(t, "resolved", got.Ready)
				assert.Equal(t, c.where, got.Where)
				assert.Equal(t, map[string]any{"temperature": 21.5}, got.Data["structuredContent"])
				assert.Empty(t, got.Warnings)
			})
		})
	}
}

// TestSchemaRefusedAtRegistration: in both modes a schema the bridge cannot enforce makes
// registerTool reject with a TypeError at registration (with native WebMCP too, where the tool
// is unregistered again), and [blob, "caption"] is an image and its caption.
func TestSchemaRefusedAtRegistration(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/tools.html")
		var got struct {
			Error   string
			Listed  bool
			Caption []map[string]any
		}
		runJS(t, ctx, "hostile.js", "schemaRefused", &got)
		assert.Contains(t, got.Error, "TypeError: registerTool:")
		assert.Contains(t, got.Error, "lookahead")
		assert.False(t, got.Listed, "the refused tool is not left registered")
		require.Len(t, got.Caption, 2)
		assert.Equal(t, "image", got.Caption[0]["type"])
		assert.Equal(t, "image/png", got.Caption[0]["mimeType"])
		assert.Equal(t, "a black square", got.Caption[1]["text"])
	})
}

// TestWorkerPathIgnoresLaterPatches: a script that runs after the loader and patches what the
// Worker path uses — MessageEvent.prototype.data, Worker.prototype.postMessage, the message
// listeners a Worker gets, window.Worker itself before the module starts — changes nothing: a
// refused argument stays refused and sanitized HTML stays sanitized, since the loader uses only
// what builtins.ts captured at load (issue 27, point 4).
func TestWorkerPathIgnoresLaterPatches(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	for _, patch := range []string{"data", "postMessage", "addEventListener", "Worker"} {
		t.Run(patch, func(t *testing.T) {
			ctx := browser(t, false)
			open(t, ctx, base+"/test/tools.html")
			var got struct {
				Exec, HTML string
				Typed      map[string]any
				Calls      float64
				Mode       string
			}
			runJS(t, ctx, "hostile.js", "workerPatched", &got, patch)
			assert.Equal(t, "worker", got.Mode)
			assert.Zero(t, got.Calls, "the loader never went through the patch")
			assert.NotContains(t, got.Exec, "onerror=alert", "executeTool's result is the module's")
			assert.NotContains(t, got.HTML, "onerror=alert", "agent.callTool's result is the module's")
			assert.Equal(t, true, got.Typed["isError"], "the refused argument stays refused: %v", got.Typed)
		})
	}
}

// TestScriptsAroundTheLoaderCannotReachTheModule: with the module on the page's thread, a setter
// on the module's global placed before the loader (on globalThis or on Object.prototype), an
// Object.keys patched after it and a JSON.parse patched before it catch nothing and forge nothing:
// the loader claims the module's globals as non-configurable accessors when it runs, reads the
// exports by name, and takes its JSON from a fresh frame when the page's is not the browser's
// (issue 27, point 5).
func TestScriptsAroundTheLoaderCannotReachTheModule(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/preloader.html")
	var got struct {
		Text, Mode, Redefined, Read string
		Caught                      map[string]float64
	}
	runJS(t, ctx, "hostile.js", "preloaderPatched", &got)
	assert.Equal(t, "main", got.Mode)
	assert.Equal(t, "hello", got.Text, "JSON.parse forged nothing")
	assert.Equal(t, map[string]float64{"exports": 0, "keys": 0, "parse": 0}, got.Caught)
	assert.Equal(t, "refused", got.Redefined, "the module's global is the bridge's")
	assert.Equal(t, "undefined", got.Read)
}

// TestCostlyArgumentsAreRefused: with the module on the page's thread, a 100 KB argument against
// \S{1,256}@\S{1,256} is refused by the bound on pattern work instead of matched (it froze the
// thread 4.7 s), arguments over maxArgumentBytes or maxArgumentValues (30,000 small numbers) are
// refused with the limit named (the 2 MiB one by its length, before it is copied into Go), a lone
// surrogate is refused rather than validated as U+FFFD, and a pattern with an absurd repetition
// product is refused at registerTool; execute runs only for the argument that passed (issue 27,
// points 3 and 6).
func TestCostlyArgumentsAreRefused(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/pagethread.html")
	type result struct {
		Text    string
		IsError bool
		Ms      float64
	}
	var got struct {
		Email, Short, Huge, Many, Surrogate result
		Absurd, Mode                        string
		Executed                            float64
	}
	runJS(t, ctx, "hostile.js", "costlyArguments", &got)
	t.Logf("ms: email %.0f, short %.0f, huge %.0f, many %.0f", got.Email.Ms, got.Short.Ms, got.Huge.Ms, got.Many.Ms)
	assert.Equal(t, "main", got.Mode)
	assert.True(t, got.Email.IsError)
	assert.Contains(t, got.Email.Text, "so the argument is refused, not matched")
	assert.False(t, got.Short.IsError, got.Short.Text)
	assert.True(t, got.Huge.IsError)
	assert.Contains(t, got.Huge.Text, "over the maxArgumentBytes limit of 524288 bytes")
	assert.Contains(t, got.Huge.Text, "2097160 UTF-16 units of JSON", "refused by its length, never copied into Go")
	assert.True(t, got.Many.IsError)
	assert.Contains(t, got.Many.Text, "more than 10000 JSON values, over the maxArgumentValues limit")
	assert.True(t, got.Surrogate.IsError)
	assert.Contains(t, got.Surrogate.Text, "lone surrogate")
	assert.Contains(t, got.Absurd, "TypeError: registerTool:")
	assert.Contains(t, got.Absurd, "repetition product of 1001")
	assert.Equal(t, 1.0, got.Executed, "execute ran for the one argument that passed")
}
