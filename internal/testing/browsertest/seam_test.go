//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The seam between the page and the module (pages/js/seam.js): nothing of it a page script can
// use, a module that keeps no schema of a tool that is gone, few crossings, binaries as bytes.

// TestShippedLoaderHasNoDoor: in the shipped build a page script reaches neither a door into the
// module nor the globals it starts with, in the Worker and on the page's thread alike; only the
// test build has the tests' door.
func TestShippedLoaderHasNoDoor(t *testing.T) {
	skipWithoutBuild(t)
	for _, page := range []string{"/test/blank.html", "/noworker/csp.html?dist=../dist/"} {
		t.Run(page, func(t *testing.T) {
			ctx := browser(t, false)
			open(t, ctx, serveWeb(t)+page)
			var got struct {
				Door    []string
				Globals []string
			}
			runJS(t, ctx, "seam.js", "reach", &got)
			assert.Equal(t, []string{"Symbol(webmcp-bridge)"}, got.Door, "the bridge's mark, and nothing else")
			assert.Empty(t, got.Globals)
		})
	}
	ctx := browser(t, false)
	open(t, ctx, serveTestBuild(t)+"/test/blank.html")
	var door struct {
		Schemas float64
		Mode    string
	}
	runJS(t, ctx, "seam.js", "testDoor", &door)
	assert.Equal(t, "worker", door.Mode)
}

// TestToolsReleaseTheirSchemas: 50 tools with an inputSchema registered, called and aborted
// leave the module holding no compiled schema, with native WebMCP as in the fallback.
func TestToolsReleaseTheirSchemas(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/blank.html")
		var got struct {
			Schemas float64
			Listed  bool
		}
		runJS(t, ctx, "seam.js", "releaseCycles", &got, 50)
		assert.Zero(t, got.Schemas)
		assert.False(t, got.Listed)
	})
}

// TestCrossings: a call crosses into the module at most twice (validate, then the result), plain
// text without a schema not at all, and the agent side adds no crossing of its own.
func TestCrossings(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/blank.html")
		var got map[string]float64
		runJS(t, ctx, "seam.js", "crossings", &got)
		assert.Equal(t, map[string]float64{
			"plainExecute": 0, "schemaExecute": 2, "invalidExecute": 1,
			"agentCall": 2, "agentInvalid": 1, "agentFails": 2, "agentModelInput": 2,
		}, got)
	})
}

// TestBinaryResultsCrossAsBytes: a tool that returns a 4–5 MB PNG Blob gets it to the agent as
// the same bytes in one base64, and the page's thread never base64-encodes it (the bytes are
// transferred to the Worker). The longest gap in the page's thread is logged (make bench
// measures it).
func TestBinaryResultsCrossAsBytes(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/blank.html")
		var got struct {
			Size     float64
			Counts   map[string]float64
			MaxGap   float64
			MIMEType string
			Same     bool
			IsError  bool
		}
		runJS(t, ctx, "seam.js", "bigBinary", &got)
		require.False(t, got.IsError)
		assert.Greater(t, got.Size, 4e6)
		assert.Less(t, got.Size, float64(5<<20), "under the default maxImageBytes")
		assert.Equal(t, "image/png", got.MIMEType)
		assert.True(t, got.Same, "the agent gets the tool's bytes")
		assert.Equal(t, map[string]float64{"btoa": 0, "fromCharCode": 0}, got.Counts, "no base64 on the page's thread")
		t.Logf("%.1f MB PNG: the longest gap in the page's thread was %.1f ms", got.Size/1e6, got.MaxGap)
	})
}

// TestLongStringsCrossWritten: in the Worker, a long string argument reaches the module written
// by the module server straight into the module's memory as UTF-8 (one conversion, no copy in
// Go), a short one through syscall/js; on the page's thread, where the loader captured no writer
// (its bytes every page pays), all come through syscall/js. Text of every kind comes back as the
// page's either way (lone surrogates as U+FFFD).
func TestLongStringsCrossWritten(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	for _, c := range []struct {
		page, mode string
		written    float64
	}{
		{"/test/blank.html", "worker", 5},
		{"/noworker/csp.html?dist=../dist/", "main", 0},
	} {
		t.Run(c.mode, func(t *testing.T) {
			ctx := browser(t, false)
			open(t, ctx, base+c.page)
			var got struct {
				Same map[string]bool
				Long float64
				Mode string
			}
			runJS(t, ctx, "seam.js", "longStrings", &got)
			assert.Equal(t, c.mode, got.Mode)
			assert.Equal(t, map[string]bool{
				"ascii": true, "latin": true, "cjk": true, "emoji": true, "lone": true, "short": true,
			}, got.Same)
			assert.Equal(t, c.written, got.Long, "the long values' JSON through the writer, the short one not")
		})
	}
}
