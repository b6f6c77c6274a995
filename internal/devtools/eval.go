//go:build !js

package devtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// worldName names webmcp-mcp's isolated world in each page.
const worldName = "webmcp-mcp"

// evalIsolated evaluates expr, which yields a string, in webmcp-mcp's isolated world of the
// tab's main frame (Page.createIsolatedWorld, once per document, with reader.js in it).
func (t *tab) evalIsolated(ctx context.Context, expr string) (string, error) {
	t.mu.Lock()
	world, of, gen := t.world, t.worldOf, t.gen
	t.mu.Unlock()
	if world == 0 || of != gen {
		tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return "", err
		}
		if tree.FrameTree == nil || tree.FrameTree.Frame == nil {
			return "", errors.New("the page has no main frame")
		}
		w, err := chromedp.Call(
			ctx,
			page.CreateIsolatedWorld,
			page.CreateIsolatedWorldParams{FrameID: tree.FrameTree.Frame.ID, WorldName: worldName},
		)
		if err != nil {
			return "", err
		}
		world = w.ExecutionContextID
		if _, err := evalIn(ctx, world, t.src.reader+`;""`); err != nil {
			return "", err
		}
		t.mu.Lock()
		if t.gen == gen {
			t.world, t.worldOf = world, gen
		}
		t.mu.Unlock()
	}
	return evalIn(ctx, world, expr)
}

// evalIn evaluates expr in the execution context id (0: the page's own world) and returns the
// string it yields (awaited when a promise).
func evalIn(ctx context.Context, id runtime.ExecutionContextID, expr string) (string, error) {
	yes := true
	res, err := chromedp.Call(
		ctx,
		runtime.Evaluate,
		runtime.EvaluateParams{Expression: expr, ContextID: id, ReturnByValue: &yes, AwaitPromise: &yes},
	)
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		msg := res.ExceptionDetails.Text
		if e := res.ExceptionDetails.Exception; e != nil && e.Description != "" {
			msg = e.Description
		}
		return "", errors.New(mcpserver.Clip(msg, 500))
	}
	var s string
	if res.Result == nil || json.Unmarshal([]byte(res.Result.Value), &s) != nil {
		return "", errors.New("the evaluation did not yield a string")
	}
	return s, nil
}

// evalMain evaluates expr in the page's own world: only for the bridge's ModelContext where the
// browser has none, and only for the page's own data.
func evalMain(ctx context.Context, expr string) (string, error) { return evalIn(ctx, 0, expr) }

// callAnswer is what __webmcpMcp.call answers (reader.js).
type callAnswer struct {
	Raw       *string `json:"raw"`
	TooLarge  int     `json:"tooLarge"`
	Error     *string `json:"error"`
	ErrorCut  int     `json:"errorCut"`
	Name      string  `json:"name"`
	Missing   bool    `json:"missing"`
	Navigated string  `json:"navigated"`
}

// call runs one tool call in the page: executeTool with an AbortSignal that ctx's end (the MCP
// client's cancellation) aborts. It returns the page's answer, [mcpserver.ErrNavigated] when the
// document changed under the call, [mcpserver.ErrPageClosed] when the tab went away,
// [mcpserver.ErrNoSuchTool], or ctx's error.
func (t *tab) call(ctx context.Context, origin, name string, args json.RawMessage) (mcpserver.ToolAnswer, error) {
	a, err := t.run(ctx, origin, name, args)
	switch {
	case err != nil:
		return mcpserver.ToolAnswer{}, err
	case a.Missing:
		return mcpserver.ToolAnswer{}, mcpserver.ErrNoSuchTool
	}
	return mcpserver.ToolAnswer{Output: a.Raw, TooLarge: a.TooLarge, Error: a.Error, ErrorCut: a.ErrorCut, ErrorName: a.Name}, nil
}

// run is call with the page's answer as reader.js gives it.
func (t *tab) run(ctx context.Context, origin, name string, args json.RawMessage) (callAnswer, error) {
	info, gen, closed := t.snapshot()
	if closed {
		return callAnswer{}, mcpserver.ErrPageClosed
	}
	if info.Origin != origin { // the browser says the tab is elsewhere now
		return callAnswer{}, mcpserver.ErrNavigated
	}
	t.mu.Lock()
	native := t.native
	var schema map[string]any
	for _, tool := range t.info.Tools {
		if tool.Name == name {
			schema = tool.InputSchema
		}
	}
	t.mu.Unlock()
	// The arguments checked here against the tool's schema as listed: through webmcp-mcp's door
	// (reader.js, inject.js) the page's bridge learns it need not start its module to check them.
	claim := "null"
	if c := t.src.checker.Claim(schema, args); c != nil {
		b, _ := json.Marshal(c)
		claim = string(b)
	}
	id := fmt.Sprintf("c%d", t.src.nextCall.Add(1))
	js := func(claim string) string {
		return fmt.Sprintf(
			`__webmcpMcp.call(%s, %s, %s, %s, %s)`,
			jsString(id),
			jsString(origin),
			jsString(name),
			jsString(string(args)),
			claim,
		)
	}
	cctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	var s string
	var err error
	switch {
	case native:
		s, err = t.evalIsolated(cctx, js(claim))
	case claim != "null":
		// The bridge's own ModelContext answers in the page's world, which has no door: the
		// claim goes through the isolated world's first.
		if _, err = t.evalIsolated(cctx, fmt.Sprintf(`__webmcpMcp.arm(%s, %s)`, jsString(name), claim)); err == nil {
			s, err = evalMain(cctx, "window."+js("null"))
		}
	default:
		s, err = evalMain(cctx, "window."+js("null"))
	}
	if err != nil {
		_, genNow, closedNow := t.snapshot()
		switch {
		case ctx.Err() != nil:
			t.abort(id)
			return callAnswer{}, ctx.Err()
		case closedNow || t.ctx.Err() != nil:
			if why := t.crashReason(); why != "" {
				return callAnswer{}, fmt.Errorf("%w: %s", mcpserver.ErrPageClosed, why)
			}
			return callAnswer{}, mcpserver.ErrPageClosed
		case genNow != gen || isContextGone(err):
			return callAnswer{}, mcpserver.ErrNavigated
		}
		return callAnswer{}, err
	}
	if _, genNow, _ := t.snapshot(); genNow != gen {
		return callAnswer{}, mcpserver.ErrNavigated
	}
	var a callAnswer
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		msg := "the page answered something that is not the answer of a tool call"
		return callAnswer{Error: &msg}, nil
	}
	if a.Navigated != "" {
		return a, mcpserver.ErrNavigated
	}
	return a, nil
}

// abort asks the page to abort call id (its AbortSignal), without waiting long.
func (t *tab) abort(id string) {
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	defer cancel()
	t.mu.Lock()
	native := t.native
	t.mu.Unlock()
	expr := `String(__webmcpMcp.abort(` + jsString(id) + `))`
	var err error
	if native {
		_, err = t.evalIsolated(ctx, expr)
	} else {
		_, err = evalMain(ctx, "window.__webmcpMcp && "+expr)
	}
	if err != nil {
		t.src.log.Debug("aborting a call", "page", t.id, "err", err)
	}
}

func isContextGone(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Execution context was destroyed") ||
		strings.Contains(s, "Inspected target navigated") ||
		strings.Contains(s, "Cannot find context")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
