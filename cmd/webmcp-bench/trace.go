//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// traceEvent is one event of a Chrome trace (the JSON trace event format).
type traceEvent struct {
	Name string  `json:"name"`
	Cat  string  `json:"cat"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`  // µs
	Dur  float64 `json:"dur"` // µs, for ph "X"
	Pid  int64   `json:"pid"`
	Tid  int64   `json:"tid"`
}

// threadTime is what a trace says about the page's main thread during one run of a script.
type threadTime struct {
	wallMs    float64 // from the mark before to the mark after
	busyMs    float64 // the summed durations of the thread's top-level tasks in that window
	longestMs float64 // the longest of them
	inLongest string  // the longest task's biggest parts (trace event names and ms)
}

// traceMainThread runs body (an async function body) n times on the page, each run between two
// performance marks and 50 ms apart, in one Chrome trace, and returns for each run the
// top-level tasks ("toplevel" category: every task the thread's scheduler runs — script, its
// microtasks, message and timer handlers, garbage collection, style and layout) that ran on the
// page's main thread between its marks, clipped to them. The main thread is the one the marks
// are recorded on; a Worker's thread is another thread and does not count.
func traceMainThread(tab context.Context, body string, n int) []threadTime {
	evs := recordTrace(tab, body, n)
	starts, ends := marks(evs, "webmcp-bench:start"), marks(evs, "webmcp-bench:end")
	if len(starts) != n || len(ends) != n {
		check(fmt.Errorf("the trace has %d and %d marks for %d runs (%d events)", len(starts), len(ends), n, len(evs)))
	}
	onThread := func(e *traceEvent) bool { return e.Pid == starts[0].Pid && e.Tid == starts[0].Tid }
	top := topLevelTasks(evs, onThread)
	out := make([]threadTime, n)
	for k := range out {
		out[k] = runTime(evs, top, starts[k], ends[k], onThread)
	}
	return out
}

// recordTrace runs body n times between the marks, in one Chrome trace, and returns the trace's
// events in time order (an enclosing event before those it encloses).
func recordTrace(tab context.Context, body string, n int) []traceEvent {
	lctx, stop := context.WithCancel(tab)
	defer stop()
	var mu sync.Mutex
	var raw [][]byte
	done := make(chan struct{})
	check(chromedp.Listen(lctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				raw = append(raw, append([]byte(nil), v...))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	}))
	_, err := chromedp.Call(tab, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig: &tracing.TraceConfig{
			IncludedCategories: []string{"toplevel", "blink.user_timing", "devtools.timeline", "v8"},
		},
	})
	check(err)
	do(tab, fmt.Sprintf(`for (let i = 0; i < %d; i++) {
		await new Promise((r) => setTimeout(r, 50));
		performance.mark("webmcp-bench:start");
		await (async () => { %s })();
		performance.mark("webmcp-bench:end");
	}
	return null`, n, body))
	_, err = chromedp.Call(tab, tracing.End, cdp.Empty{})
	check(err)
	<-done
	mu.Lock()
	defer mu.Unlock()
	var evs []traceEvent
	for _, r := range raw {
		var e traceEvent
		if json.Unmarshal(r, &e) == nil {
			evs = append(evs, e)
		}
	}
	sort.SliceStable(
		evs,
		func(i, j int) bool { return evs[i].Ts < evs[j].Ts || evs[i].Ts == evs[j].Ts && evs[i].Dur > evs[j].Dur },
	)
	return evs
}

// marks are the performance marks named name, in time order.
func marks(evs []traceEvent, name string) []*traceEvent {
	var out []*traceEvent
	for i := range evs {
		if e := &evs[i]; strings.Contains(e.Cat, "blink.user_timing") && e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// topLevelTasks are the thread's top-level tasks, outermost only: a scheduler task ("RunTask")
// contains the mojo message or watcher it runs, which are top-level events too.
func topLevelTasks(evs []traceEvent, onThread func(*traceEvent) bool) []*traceEvent {
	var top []*traceEvent
	outerEnd := -1.0
	for i := range evs {
		if e := &evs[i]; onThread(e) && e.Ph == "X" && strings.Contains(e.Cat, "toplevel") && e.Ts+e.Dur > outerEnd {
			top = append(top, e)
			outerEnd = e.Ts + e.Dur
		}
	}
	return top
}

// runTime is what the thread did between one run's marks: the top-level tasks clipped to them,
// the longest of those, and that task's biggest parts.
func runTime(evs []traceEvent, top []*traceEvent, start, end *traceEvent, onThread func(*traceEvent) bool) threadTime {
	t := threadTime{wallMs: (end.Ts - start.Ts) / 1000}
	var longest *traceEvent
	for _, e := range top {
		from, to := max(e.Ts, start.Ts), min(e.Ts+e.Dur, end.Ts)
		if to <= from {
			continue
		}
		t.busyMs += (to - from) / 1000
		if longest == nil || e.Dur > longest.Dur {
			longest = e
		}
	}
	if longest != nil {
		t.longestMs = longest.Dur / 1000
		t.inLongest = biggestParts(evs, longest, onThread)
	}
	return t
}

// biggestParts names the six longest other events on the thread inside task, with their ms.
func biggestParts(evs []traceEvent, task *traceEvent, onThread func(*traceEvent) bool) string {
	parts := map[string]float64{}
	for i := range evs {
		e := &evs[i]
		if onThread(e) && e.Ph == "X" && e != task && !strings.Contains(e.Cat, "toplevel") && e.Ts >= task.Ts &&
			e.Ts+e.Dur <= task.Ts+task.Dur {
			parts[e.Name] = max(parts[e.Name], e.Dur/1000)
		}
	}
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return parts[names[i]] > parts[names[j]] })
	var s []string
	for _, n := range names[:min(6, len(names))] {
		s = append(s, fmt.Sprintf("%s %.1f ms", n, parts[n]))
	}
	return strings.Join(s, ", ")
}
