//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// heaps is window.heaps(): the page's JS heap after a GC, the module's Go runtime statistics
// (the test build's stats export: it runs the Go GC first) and the module's generation.
type heaps struct {
	JS float64 `json:"js"`
	Go struct {
		HeapAlloc  float64 `json:"heapAlloc"`
		Goroutines int     `json:"goroutines"`
	} `json:"go"`
	Generation int `json:"generation"`
}

// snapshot is one look at the bridge page: its heaps, the bridge's Workers alive in the browser
// (DevTools targets of type "worker" running webmcp-bridge-worker.js) and the JS values the
// running module's Go holds (in its Worker: every Go instance of wasm_exec.js that has not
// exited, and the slots of its reference table in use — each js.Func is one, so a js.Func made
// per call and never released would grow it).
type snapshot struct {
	heaps
	workers, allWorkers int
	goInstances         int
	goValues            int
}

func (b *bench) snapshot() snapshot {
	var s snapshot
	check(headless.Eval(b.bridged, `return await heaps()`, &s.heaps))
	targets, err := chromedp.Targets(b.root)
	check(err)
	var worker *target.Info
	for _, t := range targets {
		if t.Type != "worker" {
			continue
		}
		s.allWorkers++
		if strings.HasSuffix(t.URL, "/webmcp-bridge-worker.js") {
			s.workers++
			worker = t
		}
	}
	if worker != nil {
		s.goInstances, s.goValues = goValues(b.bridged, worker.TargetID)
	}
	return s
}

// goValues attaches to the Worker and counts, with DevTools' queryObjects, the Go instances of
// wasm_exec.js there that run, and the JS values they hold (the reference table's slots in use).
func goValues(page context.Context, id target.ID) (instances, values int) {
	wctx, cancel := chromedp.NewContext(page, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	defer cancel()
	t := true
	proto, err := chromedp.Call(wctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "Go.prototype"})
	if err == nil && proto.ExceptionDetails != nil {
		err = fmt.Errorf("%s", proto.ExceptionDetails.Text)
	}
	check(err)
	objs, err := chromedp.Call(
		wctx,
		runtime.QueryObjects,
		runtime.QueryObjectsParams{PrototypeObjectID: proto.Result.ObjectID},
	)
	check(err)
	res, err := chromedp.Call(wctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: `function () { const live = this.filter((g) => !g.exited && g._values); ` +
			`return JSON.stringify([live.length, live.reduce((n, g) => n + g._values.length - g._idPool.length, 0)]); }`,
		ObjectID: objs.Objects.ObjectID, ReturnByValue: &t,
	})
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("counting Go's JS values: %s", res.ExceptionDetails.Text)
	}
	check(err)
	var s string
	var pair [2]int
	check(json.Unmarshal(res.Result.Value, &s))
	check(json.Unmarshal([]byte(s), &pair))
	instances, values = pair[0], pair[1]
	return instances, values
}

// memory measures row 7: b.memCalls executeTool calls of a tool whose result goes through Go
// (8 at a time), then b.restartN forced restarts (the module made to crash in a normalize; the
// loader ends its Worker and starts a new module on the next call), looking at the heaps, the
// Workers and Go's JS values before, between and after.
func (b *bench) memory() {
	var ms float64
	check(headless.Eval(b.bridged, `return await calls(500, 8)`, &ms))
	s0 := b.snapshot()
	check(headless.Eval(b.bridged, fmt.Sprintf(`return await calls(%d, 8)`, b.memCalls), &ms))
	s1 := b.snapshot()
	var rs struct{ Crashed, Generations int }
	check(headless.Eval(b.bridged, fmt.Sprintf(`return await restarts(%d)`, b.restartN), &rs))
	var ms2 float64
	check(headless.Eval(b.bridged, `return await calls(500, 8)`, &ms2))
	s2 := b.snapshot()
	mb := func(x float64) string { return fmt.Sprintf("%.2f", x/1e6) }
	flat := s1.Go.HeapAlloc-s0.Go.HeapAlloc < 1e6 && s1.Go.Goroutines == s0.Go.Goroutines &&
		s1.goValues == s0.goValues &&
		s1.JS-s0.JS < 2e6 &&
		s1.workers == 1 &&
		s0.workers == 1
	b.add(
		row{
			"memory",
			fmt.Sprintf(
				"9. %d calls through Go (`html_small`, 8 at a time, %.0f µs a call)",
				b.memCalls,
				ms*1000/float64(b.memCalls),
			),
			fmt.Sprintf(
				"Go heap %s → %s MB, goroutines %d → %d, JS values held by Go %d → %d (no js.Func per call), "+
					"page JS heap %s → %s MB, bridge Workers %d → %d",
				mb(s0.Go.HeapAlloc),
				mb(s1.Go.HeapAlloc),
				s0.Go.Goroutines,
				s1.Go.Goroutines,
				s0.goValues,
				s1.goValues,
				mb(s0.JS),
				mb(s1.JS),
				s0.workers,
				s1.workers,
			),
			fmt.Sprintf("Go %+.2f MB", (s1.Go.HeapAlloc-s0.Go.HeapAlloc)/1e6),
			"flat, no leaked Workers or js.Funcs",
			met(flat),
		},
	)
	ok := rs.Crashed == b.restartN && rs.Generations == b.restartN && s2.workers == 1 && s2.goInstances == 1 &&
		s2.Go.HeapAlloc-s0.Go.HeapAlloc < 1e6 && s2.goValues == s0.goValues && s2.JS-s0.JS < 2e6
	b.add(
		row{
			"restarts",
			fmt.Sprintf("9. %d forced module restarts (crash in normalize, next call restarts)", b.restartN),
			fmt.Sprintf(
				"%d crashed calls gave isError, %d new modules; then bridge Workers %d (all Workers in the "+
					"browser: %d), Go instances in it %d, Go heap %s MB, goroutines %d, JS values held by Go %d, "+
					"page JS heap %s MB",
				rs.Crashed,
				rs.Generations,
				s2.workers,
				s2.allWorkers,
				s2.goInstances,
				mb(s2.Go.HeapAlloc),
				s2.Go.Goroutines,
				s2.goValues,
				mb(s2.JS),
			),
			"",
			"1 Worker, heaps as before",
			met(ok),
		},
	)
}
