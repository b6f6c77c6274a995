//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// What the relay comparison reads from the servers beside their answers: the size of their
// tools/list (listRecorder), and from webmcp-mcp -v's log how long each call waited for the
// browser (sourceTimes).

// withSourceTimes runs webmcp-mcp with -v, its log read by a sourceTimes.
func withSourceTimes(cmd *exec.Cmd) *exec.Cmd {
	cmd.Args = append(cmd.Args[:1], append([]string{"-v"}, cmd.Args[1:]...)...)
	cmd.Stderr = &sourceTimes{}
	return cmd
}

// sourceTimes reads webmcp-mcp -v's log for how long each tool call waited for its source
// (mcpserver's "tool call" line): of a warm call's time, the browser's share.
type sourceTimes struct {
	mu    sync.Mutex
	line  []byte
	times []time.Duration
}

var sourceField = regexp.MustCompile(`msg="tool call" .*\bsource=(\S+)`)

func (s *sourceTimes) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line = append(s.line, p...)
	for {
		i := bytes.IndexByte(s.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		if m := sourceField.FindSubmatch(s.line[:i]); m != nil {
			if d, err := time.ParseDuration(string(m[1])); err == nil {
				s.times = append(s.times, d)
			}
		}
		s.line = s.line[i+1:]
	}
}

// take is the times read since the last take.
func (s *sourceTimes) take() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.times
	s.times = nil
	return t
}

// listRecorder wraps a client transport and keeps the size of the last tools/list result, as it
// came over the wire.
type listRecorder struct {
	mcp.Transport
	mu        sync.Mutex
	size      int
	modelSize int // of what clients give the model: each tool's name, title, description and inputSchema
}

func (r *listRecorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	return &listConn{c, r}, err
}

func (r *listRecorder) lastList() (size, modelSize int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.size, r.modelSize
}

type listConn struct {
	mcp.Connection
	r *listRecorder
}

func (c *listConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if resp, ok := m.(*jsonrpc.Response); ok && bytes.HasPrefix(bytes.TrimSpace(resp.Result), []byte(`{`)) &&
		bytes.Contains(resp.Result, []byte(`"tools":[`)) {
		c.r.mu.Lock()
		c.r.size = len(resp.Result)
		c.r.modelSize, _ = mcpserver.ModelVisibleBytes(resp.Result)
		c.r.mu.Unlock()
		if os.Getenv("WEBMCP_COMPARE_DUMP") != "" {
			fmt.Fprintf(os.Stderr, "tools/list: %s\n", resp.Result)
		}
	}
	return m, err
}
