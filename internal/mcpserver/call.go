//go:build !js

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
	"github.com/webmcp-bridge/webmcp-bridge/internal/refusal"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// addPageTool adds one page tool to the server. The SDK panics on a schema it refuses; that is
// an error here, since the schema comes from a page.
func (s *Server) addPageTool(w wantedTool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	s.server.AddTool(w.tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return s.runTool(ctx, req, w, req.Params.Arguments)
	})
	return nil
}

// runTool is the one way a page tool is called, under its own name or through
// webmcp_call_tool: the arguments are checked against its schema, the page is asked (the
// source confirms with the person where it must), and the answer is normalized and bounded. req
// gives the progress token and the session.
func (s *Server) runTool(
	ctx context.Context,
	req *mcp.CallToolRequest,
	w wantedTool,
	args json.RawMessage,
) (*mcp.CallToolResult, error) {
	c := ToolCall{Page: w.info.ID, Origin: w.info.Origin, Tool: w.page.Name, Args: args}
	if len(c.Args) == 0 || string(c.Args) == "null" {
		c.Args = json.RawMessage(`{}`)
	}
	var r *mcp.CallToolResult
	if refused := w.check(c.Args); refused != nil {
		r = refused
	} else {
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			defer s.progress(ctx, req.Session, tok, c)()
			c.Notify = func(msg string) {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Message: msg})
			}
		}
		var err error
		if r, err = s.callPageTool(ctx, c, req.Session); err != nil {
			return nil, err
		}
		r = boundResult(r)
	}
	if r.Meta == nil {
		r.Meta = mcp.Meta{}
	}
	r.Meta[metaPage] = pageMeta(s.pageAt(c.Page, w.info))
	return r, nil
}

// check validates a call's arguments against the tool's input schema, natively, before the page
// is asked: nil when they pass, else the isError result that says why (the same sentence as the
// page's bridge gives), or that the tool's calls are refused.
func (w wantedTool) check(args json.RawMessage) *mcp.CallToolResult {
	if w.schemaErr != "" {
		return ownError(
			"inputSchema",
			fmt.Sprintf("%q on page %s cannot be called: %s", w.page.Name, w.info.ID, w.schemaErr),
		)
	}
	err := w.schema.ValidateJSON(args)
	if err == nil {
		return nil
	}
	var ie *inputschema.InputError
	if errors.As(err, &ie) {
		return ownError("arguments", ie.Sentence())
	}
	return ownError("arguments", "invalid arguments: "+Clip(err.Error(), 300))
}

// pageAt is page id as last listed, or fallback when it is no longer listed.
func (s *Server) pageAt(id string, fallback Page) Page {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if p, ok := s.pages[id]; ok {
		return p
	}
	return fallback
}

// callPageTool runs a page tool and normalizes what the page returned, natively and without
// trusting it; the whole of a text a limit cut is kept for session ss (keepWhole). It returns an
// error only when the client cancelled the call.
func (s *Server) callPageTool(ctx context.Context, c ToolCall, ss *mcp.ServerSession) (*mcp.CallToolResult, error) {
	timeout := s.timeout + s.confirmTime(c)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	ans, err := s.src.Call(cctx, c)
	asked := time.Now()
	info := s.pageAt(c.Page, Page{ID: c.Page})
	id, name := c.Page, c.Tool
	switch {
	case err == nil:
	case errors.Is(err, ErrNavigated):
		return ownError(
			"navigated",
			fmt.Sprintf(
				"page %s navigated during the call (it is now at %s), so the result of %q was lost; list the tools again",
				id,
				Clip(info.URL, maxURLChars),
				name,
			),
		), nil
	case errors.Is(err, ErrPageClosed) && err != ErrPageClosed:
		return ownError(
			"closed",
			fmt.Sprintf(
				"page %s was closed during the call to %q: %s",
				id,
				name,
				strings.TrimPrefix(err.Error(), ErrPageClosed.Error()+": "),
			),
		), nil
	case errors.Is(err, ErrPageClosed):
		return ownError("closed", fmt.Sprintf("page %s was closed, so %q cannot answer", id, name)), nil
	case errors.Is(err, ErrNoSuchTool):
		return ownError(
			"missing",
			fmt.Sprintf("page %s no longer has a tool named %q; list the tools again", id, name),
		), nil
	case ctx.Err() != nil:
		return nil, ctx.Err() // the client cancelled: the page's call was aborted, no one reads a result
	case cctx.Err() != nil:
		return ownError(
			"timeout",
			fmt.Sprintf("%q on page %s did not answer within %s (the call was aborted)", name, id, timeout),
		), nil
	default:
		return ownError(
			"call",
			fmt.Sprintf("calling %q on page %s failed: %s", name, id, strconv.Quote(Clip(err.Error(), 500))),
		), nil
	}
	switch {
	case ans.Decision != "":
		return s.decided(c, info, ans.Decision), nil
	case ans.TooLarge > 0:
		r, _ := refusal.Result(refusal.Reason{Limit: "maxResultBytes", Text: fmt.Sprintf(
			"the tool returned %d characters, over webmcp-mcp's limit of %s",
			ans.TooLarge,
			sanitize.FormatBytes(MaxOutputBytes),
		)})
		return mcpsdk.ToSDK(r), nil
	case ans.Error != nil:
		return pageError(id, name, ans), nil
	case ans.Output == nil:
		return ownError("call", fmt.Sprintf("%q on page %s returned nothing", name, id)), nil
	}
	p := outputPolicy(s.policy)
	p.PageURL = info.URL // relative links resolve as on the page
	r, vs := bridge.ParseToolOutput(*ans.Output, p)
	if len(vs) > 0 {
		s.log.Info("policy notices", "page", id, "tool", name, "count", len(vs), "first", vs[0].Notice)
	}
	s.keepWhole(ctx, ss, r, *ans.Output, p)
	// Where a call's time went, for -v: the source (browser round trip and the page), then here.
	s.log.Debug("tool call", "page", id, "tool", name, "source", asked.Sub(start),
		"normalize", time.Since(asked))
	if r.IsError {
		quotePageText(r, id, name)
	}
	return mcpsdk.ToSDK(r), nil
}

// progress sends notifications/progress for call c every few seconds (at most a quarter of
// -timeout) until the returned stop is called, so that clients which reset their timeout on
// progress wait for a slow page or for the person; each says the limit the call really has.
func (s *Server) progress(ctx context.Context, ss *mcp.ServerSession, token any, c ToolCall) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	every := min(5*time.Second, s.timeout/4)
	confirm := s.confirmTime(c)
	limit := s.timeout + confirm
	of := limit.String()
	if confirm > 0 {
		of += fmt.Sprintf(": -confirm-timeout %s for you to confirm in the browser, then -timeout %s for the page",
			confirm, s.timeout)
	}
	start := time.Now()
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				waited := time.Since(start).Round(time.Second)
				_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      waited.Seconds(),
					Total:         limit.Seconds(),
					Message:       fmt.Sprintf("waiting for %q on page %s (%s of at most %s)", c.Tool, c.Page, waited, of),
				})
			}
		}
	}()
	return cancel
}

// confirmTime is how long call c may wait for the person besides -timeout ([Confirmer]).
func (s *Server) confirmTime(c ToolCall) time.Duration {
	if cf, ok := s.src.(Confirmer); ok {
		return cf.ConfirmTime(c)
	}
	return 0
}

// decided is webmcp-mcp's notice that the person's browser did not run call c, and why.
func (s *Server) decided(c ToolCall, info Page, d Decision) *mcp.CallToolResult {
	where := fmt.Sprintf("%q on page %s (%s)", c.Tool, c.Page, Clip(info.Origin, maxURLChars))
	var msg string
	switch d {
	case Declined:
		msg = "you declined " + where + " in the browser; it did not run"
	case Unconfirmed:
		wait := s.confirmTime(c)
		msg = fmt.Sprintf("%s was not confirmed in the browser within %d s; it did not run (-confirm-timeout %s)",
			where, int(wait.Round(time.Second)/time.Second), wait)
	default:
		msg = where + " was cancelled before it was confirmed in the browser; it did not run"
	}
	return ownError("confirmation", msg)
}
