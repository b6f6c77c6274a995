//go:build !js

package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A request the client cancelled (notifications/cancelled) gets no response at all, as MCP
// requires. The SDK's JSON-RPC layer answers every request it handled, so the handler of a
// cancelled request returns errCancelled, and the writers under the transports (stdio's stdout,
// HTTP's response) drop the one response that carries it.

// errCancelled is what the handler of a request the client cancelled returns; its text is only
// ever seen by dropCancelled.
var errCancelled = errors.New("webmcp-mcp: the client cancelled this request; this response is never sent")

// answerCancelled is the middleware that turns the end of a request the client cancelled into
// errCancelled, whatever its handler returned.
func answerCancelled(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if ctx.Err() != nil {
			return nil, errCancelled
		}
		return res, err
	}
}

// isCancelledAnswer reports whether msg (one JSON-RPC message) is the response to a cancelled
// request: a top-level error whose message is errCancelled's. Only messages that contain its
// text are decoded.
func isCancelledAnswer(msg []byte) bool {
	if !bytes.Contains(msg, []byte(errCancelled.Error())) {
		return false
	}
	var r struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	return json.Unmarshal(msg, &r) == nil && r.ID != nil && r.Result == nil && r.Error != nil &&
		r.Error.Message == errCancelled.Error()
}

// dropCancelledWriter is stdout for the stdio transport, which writes one message per Write.
type dropCancelledWriter struct{ io.Writer }

func (w dropCancelledWriter) Write(p []byte) (int, error) {
	if isCancelledAnswer(bytes.TrimSpace(p)) {
		return len(p), nil
	}
	return w.Writer.Write(p)
}

func (dropCancelledWriter) Close() error { return nil }

// dropCancelledHTTP wraps the streamable HTTP handler: a response to a cancelled request, as
// one server-sent event or as a JSON body, is not written.
func dropCancelledHTTP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&dropCancelledResponse{ResponseWriter: w}, r)
	})
}

type dropCancelledResponse struct{ http.ResponseWriter }

func (w *dropCancelledResponse) Write(p []byte) (int, error) {
	msg := bytes.TrimSpace(p)
	if i := bytes.LastIndex(msg, []byte("\ndata: ")); i >= 0 { // an SSE event: the data line is its last
		msg = msg[i+len("\ndata: "):]
	} else if rest, ok := bytes.CutPrefix(msg, []byte("data: ")); ok {
		msg = rest
	}
	if isCancelledAnswer(msg) {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController flush the stream.
func (w *dropCancelledResponse) Unwrap() http.ResponseWriter { return w.ResponseWriter }
