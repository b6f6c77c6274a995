package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// TestResultFrameWritesTheBodyOnce: the result's JSON is written straight into the frame, not
// marshalled apart and copied in: answering a 4 MB result allocates less than one and a half times
// its size (one buffer for the frame), where a body written apart and copied in costs twice.
func TestResultFrameWritesTheBodyOnce(t *testing.T) {
	const size = 4 << 20
	r := &bridge.CallToolResult{Content: []bridge.Content{&bridge.TextContent{Text: strings.Repeat("a", size)}}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := resultFrame(r, nil, nil)
	runtime.ReadMemStats(&after)
	if len(out) < size {
		t.Fatalf("the frame holds %d bytes, less than the result's text", len(out))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got >= 3*size/2 {
		t.Errorf("answering a %d-byte result allocated %d bytes (%.1f ×): the body is copied", size, got,
			float64(got)/size)
	}
}
