//go:build !js

package main

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// againstFloor measures rows 10: the article's HTML at 10 KB and 512 KB, and the link- and
// table-heavy document, per call against the floor the mission sets, bluemonday's UGCPolicy
// alone (bluemondayonly, built in this run with the same Go): what a page's agent pays,
// executeTool of a tool returning the HTML, against bluemonday alone page → Worker → page, with
// the module's normalize alone beside them, the three alternated call by call, the ratio the
// median of the rounds'; and, for each, the stages of the module's work timed inside
// WebAssembly (sanitizeonly's stages), so the difference shows where it goes.
func (b *bench) againstFloor() {
	for _, c := range []struct {
		id, stagesID, doc, what string
		bytes                   int     // the article's size (the link table's is its own)
		target                  float64 // × bluemonday alone; 0: reported
		runs                    int
	}{
		{"floor-10kb", "stages-10kb", "article", "(the article)", 10 * 1024, 1.30, 15 * b.runs},
		{"floor-512kb", "stages-512kb", "article", "(the article)", 512 * 1000, 1.40, 3 * b.runs},
		{"floor-linktable", "stages-linktable", "linktable", "link- and table-heavy", 0, 0, 3 * b.runs},
	} {
		var f struct {
			Bytes                             int
			Bridge, Floor, Ratio, ExecuteTool float64
			NormalizeRatio                    float64
			Stages                            map[string]float64
		}
		check(headless.Eval(b.bridged, fmt.Sprintf(`const r = await againstFloor(%q, %d, %d); `+
			`return {Bytes: r.bytes, Bridge: r.bridge, Floor: r.floor, Ratio: r.ratio, `+
			`ExecuteTool: r.executeTool, NormalizeRatio: r.normalizeRatio, Stages: r.stages}`,
			c.doc, c.bytes, c.runs), &f))
		kb := fmt.Sprintf("%d KB", f.Bytes/1000)
		target, ok := "reported", ""
		if c.target > 0 {
			target, ok = fmt.Sprintf("≤ %.2f × bluemonday alone", c.target), met(f.Ratio <= c.target)
		}
		b.add(
			row{
				id: c.id,
				what: "10. " + kb + " HTML " + c.what + " per call: `executeTool` of a tool returning it " +
					"vs bluemonday alone (UGCPolicy), page → Worker → page",
				measured: fmt.Sprintf(
					"%s vs %s (medians of %d alternated rounds; the module's `normalize` alone: %s, %.2f ×)",
					ms(f.ExecuteTool),
					ms(f.Floor),
					c.runs,
					ms(f.Bridge),
					f.NormalizeRatio,
				),
				ratio:  fmt.Sprintf("%.2f ×", f.Ratio),
				target: target,
				met:    ok,
			},
		)
		s := f.Stages
		inWasm := s["encode"]
		b.add(
			row{
				id: c.stagesID,
				what: "10. " + kb + " HTML " + c.what + ": the module's work, stage by stage, timed inside WebAssembly " +
					"(`sanitizeonly`)",
				measured: fmt.Sprintf(
					"bluemonday UGCPolicy %s; bluemonday with the bridge's policy and URL checks %s (+%s); "+
						"+ the Markdown, hidden elements and removal counts %s (+%s); + JSON decode and blocks (`NormalizeJSON`) %s (+%s); "+
						"+ the result written as JSON %s (+%s); the crossing (the Worker trip, the strings into and out of Go) ≈ %s",
					ms(s["ugc"]),
					ms(s["policy"]),
					ms(s["policy"]-s["ugc"]),
					ms(s["sanitizeHTML"]),
					ms(s["sanitizeHTML"]-s["policy"]),
					ms(s["normalize"]),
					ms(s["normalize"]-s["sanitizeHTML"]),
					ms(inWasm),
					ms(inWasm-s["normalize"]),
					ms(f.Bridge-inWasm),
				),
				ratio:  fmt.Sprintf("%.2f × UGCPolicy in wasm", inWasm/s["ugc"]),
				target: "reported",
				met:    "",
			},
		)
	}
}

// ms writes a duration in milliseconds with a precision that suits it.
func ms(x float64) string {
	switch {
	case x >= 100 || x <= -100:
		return fmt.Sprintf("%.0f ms", x)
	case x >= 10 || x <= -10:
		return fmt.Sprintf("%.1f ms", x)
	}
	return fmt.Sprintf("%.2f ms", x)
}
