//go:build !js

package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Run serves one client over stdio (newline-delimited JSON-RPC on stdin and stdout) until the
// client goes away (nil) or ctx ends.
func (s *Server) Run(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	err := s.server.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: dropCancelledWriter{stdout}})
	if err != nil && (errors.Is(err, io.EOF) || ctx.Err() != nil) {
		return nil
	}
	return err
}

// ListenAndServe serves streamable HTTP at /mcp on addr ([Server.Handler]) until ctx ends, and
// says where on stderr (and warns there when addr is not a loopback address).
func (s *Server) ListenAndServe(ctx context.Context, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("-http: %w", err)
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(
			stderr,
			"webmcp-mcp: warning: %s is not a loopback address; anyone who reaches it can drive the browser\n",
			host,
		)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "webmcp-mcp: streamable HTTP on http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// statelessFrom is the first protocol version served statelessly over HTTP.
const statelessFrom = "2026-07-28"

// Handler is the server as streamable HTTP, with the SDK's DNS-rebinding protection (on by
// default) and cross-origin protection. Both protocol generations are served: a request that
// names statelessFrom or later in its MCP-Protocol-Version header goes to the stateless handler
// (per-request _meta, server/discover, subscriptions/listen; cancelling is closing the request),
// every other to the stateful one (initialize, sessions, the GET stream).
func (s *Server) Handler() http.Handler {
	get := func(*http.Request) *mcp.Server { return s.server }
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Logger: s.log})
	stateless := mcp.NewStreamableHTTPHandler(
		get,
		&mcp.StreamableHTTPOptions{Logger: s.log, Stateless: true, PropagateRequestCancellation: true},
	)
	route := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("MCP-Protocol-Version"); v >= statelessFrom {
			stateless.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), statelessKey{}, true)))
			return
		}
		stateful.ServeHTTP(w, r)
	})
	return http.NewCrossOriginProtection().Handler(dropCancelledHTTP(route))
}
