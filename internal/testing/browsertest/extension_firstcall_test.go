//go:build !js

package browsertest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// BenchmarkFirstCallExtension is BenchmarkFirstCall (internal/testing/browsertest/mcp) for
// webmcp-mcp -extension: the first tools/call after a page's tools were listed against the warm
// calls after it, on a tool with an input schema (pages/door.html's count). Each iteration
// starts a browser with the extension and a webmcp-mcp on it, lists the tools (which waits for
// the page), calls count once, then warm more times; native WebMCP on.
func BenchmarkFirstCallExtension(b *testing.B) {
	skipWithoutBuild(b)
	const warm = 20
	var first, hot []float64
	for range b.N {
		s := nativeSetupFor(b, true)
		s.tab(b, s.base+"/test/door.html")
		s.hostPID(b)
		cs, _, _ := s.client(b, "-allow", s.base)
		pageTools(b, cs, 1)
		for i := 0; i <= warm; i++ {
			start := time.Now()
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"n": 1}})
			took := float64(time.Since(start)) / float64(time.Millisecond)
			require.NoError(b, err)
			require.False(b, r.IsError)
			if i == 0 {
				first = append(first, took)
			} else {
				hot = append(hot, took)
			}
		}
		cs.Close()
		s.close()
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ReportMetric(median(first), "first-ms")
	b.ReportMetric(median(hot), "warm-ms")
}
