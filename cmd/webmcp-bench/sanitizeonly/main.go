//go:build js && wasm

// Command sanitizeonly is the benchmark's view inside the module's normalize of an html block,
// built by cmd/webmcp-bench with the same Go as the bridge and run in a Worker of the bench page:
// globalThis.__sanitizeOnly.stages(json, runs) times, inside WebAssembly, each stage of
// normalizing an html result (see stages).
package main

import (
	"slices"
	"syscall/js"
	"time"

	"github.com/microcosm-cc/bluemonday"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("stages", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return stages([]byte(args[0].String()), args[1].Int())
	}))
	js.Global().Set("__sanitizeOnly", api)
	if cb := js.Global().Get("__sanitizeOnlyStarted"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}

// stages times, median of runs in ms, what the module does with the JSON of an html result, one
// stage more each time: decoding the JSON; bluemonday's UGCPolicy on the markup (the floor);
// bluemonday with the bridge's policy (its URL checks included); sanitize.HTMLAndText (plus the
// Markdown, hidden elements and the count of what was removed); bridge.NormalizeJSON (plus decoding
// and the blocks); and that with the result written as JSON. Each run times every stage once, so
// that a busy machine slows all of them alike.
func stages(doc []byte, runs int) map[string]any {
	v, err := jsonvalue.Decode(doc)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	html, _ := v.(map[string]any)["html"].(string)
	ugc := bluemonday.UGCPolicy()
	p := bridge.DefaultPolicy()
	stage := map[string]func(){
		"decode":       func() { _, _ = jsonvalue.Decode(doc) },
		"ugc":          func() { ugc.Sanitize(html) },
		"policy":       func() { sanitize.HTML(html, sanitize.DefaultHTMLRules()) },
		"sanitizeHTML": func() { sanitize.HTMLAndText(html, sanitize.DefaultHTMLRules()) },
		"normalize":    func() { _, _, _ = bridge.NormalizeJSON(doc, p) },
		"encode": func() {
			r, _, _ := bridge.NormalizeJSON(doc, p)
			_, _ = r.MarshalJSON()
		},
	}
	times := map[string][]float64{}
	for i := -2; i < runs; i++ { // two rounds to warm up
		for name, f := range stage {
			t0 := time.Now()
			f()
			if i >= 0 {
				times[name] = append(times[name], float64(time.Since(t0).Microseconds())/1000)
			}
		}
	}
	out := map[string]any{}
	for name, ts := range times {
		slices.Sort(ts)
		out[name] = ts[len(ts)/2]
	}
	return out
}
