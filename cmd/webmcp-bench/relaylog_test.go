//go:build !js

package main

import (
	"slices"
	"testing"
	"time"
)

// TestSourceTimes: the browser's share of each call is read from webmcp-mcp -v's "tool call"
// lines, however the writes split them, and nothing else of the log is taken for one.
func TestSourceTimes(t *testing.T) {
	var st sourceTimes
	log := `time=2026-11-28T09:59:25.681Z level=DEBUG msg="tool call" page=p1 tool=get_product source=15.29977ms normalize=16.631µs
time=2026-11-28T09:59:25.682Z level=DEBUG msg="cdp" source=9s
time=2026-11-28T09:59:25.688Z level=DEBUG msg="tool call" page=p1 tool=get_product source=612.5µs normalize=15.358µs
`
	for i := 0; i < len(log); i += 7 {
		st.Write([]byte(log[i:min(i+7, len(log))]))
	}
	want := []time.Duration{15299770 * time.Nanosecond, 612500 * time.Nanosecond}
	if got := st.take(); !slices.Equal(got, want) {
		t.Errorf("take() = %v, want %v", got, want)
	}
	if got := st.take(); len(got) != 0 {
		t.Errorf("a second take() = %v, want none: each time is taken once", got)
	}
}
