//go:build !js

package mcp

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// lockedBuffer is webmcp-mcp's stderr, read while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// callLog is webmcp-mcp's -v line for one tool call: the source's time, then its own.
var callLog = regexp.MustCompile(`msg="tool call".* source=([0-9.]+[µnm]?s) normalize=([0-9.]+[µnm]?s)`)

// callSplit is where one call's time went, in ms: until the page's execute started (the client,
// stdio, webmcp-mcp, DevTools, the page's bridge), the source's whole round trip, webmcp-mcp's
// normalization, and the call as the client saw it.
type callSplit struct{ toExecute, source, normalize, total float64 }

// BenchmarkFirstCall measures the first tools/call after a page loaded under -open against the
// warm calls after it, and where each one's time goes (callSplit): each iteration starts
// webmcp-mcp on a new Chromium, lists the tools (which waits for the page), calls "stamp" once,
// then warm more times. The page's tool answers with the moment its execute started. It runs
// with an input schema on the tool (webmcp-mcp checks the arguments natively and says so through
// its door, so the page's module does not start for them) and without one.
// BenchmarkFirstCallExtension (internal/testing/browsertest) is its counterpart for -extension.
func BenchmarkFirstCall(b *testing.B) {
	skipWithoutBuild(b)
	base := serveSite(b)
	b.Run("schema", func(b *testing.B) { benchFirstCall(b, base+"/test/stamp.html") })
	b.Run("noschema", func(b *testing.B) { benchFirstCall(b, base+"/test/stamp.html?noschema") })
}

func benchFirstCall(b *testing.B, url string) {
	const warm = 20
	var first, hot []callSplit
	for range b.N {
		stderr := &lockedBuffer{}
		args := append([]string{"-v"}, serverArgs(b, true, 30*time.Second, url)...)
		cmd := exec.Command(buildBinary(b), args...)
		cmd.Stderr = stderr
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		client, _ := goClient()
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		require.NoError(b, err)
		_, err = cs.ListTools(ctx, nil)
		require.NoError(b, err)
		for i := 0; i <= warm; i++ {
			start := time.Now()
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "stamp", Arguments: map[string]any{"note": "x"}})
			total := time.Since(start)
			require.NoError(b, err)
			require.False(b, r.IsError)
			ms, err := strconv.ParseFloat(r.Content[0].(*mcp.TextContent).Text, 64)
			require.NoError(b, err)
			s := callSplit{toExecute: ms - float64(start.UnixNano())/1e6, total: msOf(total)}
			var logs [][]string
			require.Eventually(b, func() bool { // stderr is copied from a pipe: it may lag the answer
				logs = callLog.FindAllStringSubmatch(stderr.String(), -1)
				return len(logs) == i+1
			}, 5*time.Second, time.Millisecond, "one -v line per call: %s", stderr.String())
			s.source, s.normalize = msOfText(b, logs[i][1]), msOfText(b, logs[i][2])
			if i == 0 {
				first = append(first, s)
			} else {
				hot = append(hot, s)
			}
		}
		cs.Close()
		cancel()
	}
	report := func(prefix string, ss []callSplit) {
		med := func(f func(callSplit) float64) float64 {
			v := make([]float64, len(ss))
			for i, s := range ss {
				v[i] = f(s)
			}
			slices.Sort(v)
			return v[len(v)/2]
		}
		b.ReportMetric(med(func(s callSplit) float64 { return s.total }), prefix+"-ms")
		b.ReportMetric(med(func(s callSplit) float64 { return s.toExecute }), prefix+"-to-execute-ms")
		b.ReportMetric(med(func(s callSplit) float64 { return s.source }), prefix+"-source-ms")
		b.ReportMetric(med(func(s callSplit) float64 { return s.normalize }), prefix+"-normalize-ms")
	}
	report("first", first)
	report("warm", hot)
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// msOfText is a duration as slog writes it, in ms.
func msOfText(b *testing.B, s string) float64 {
	d, err := time.ParseDuration(s)
	require.NoError(b, err)
	return msOf(d)
}
