//go:build linux

package webdriver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"golang.org/x/net/websocket"
)

// bidiOrigin is the Origin header the WebSocket handshake sends (golang.org/x/net/websocket
// always sends one); Firefox must be started with --remote-allow-origins naming it.
const bidiOrigin = "http://127.0.0.1"

// bidiConn is a WebDriver BiDi connection: commands go out with increasing ids and one reader
// goroutine hands each reply to the command waiting for it. Events are not subscribed to and
// are dropped.
type bidiConn struct {
	ws *websocket.Conn

	writeMu sync.Mutex

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan bidiMessage
	err     error // set once the reader stops; every later command fails with it
	done    chan struct{}
}

// bidiMessage is a message from the remote end: a command's reply (type "success" or "error")
// or an event.
type bidiMessage struct {
	Type    string          `json:"type"`
	ID      *int64          `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
	Method  string          `json:"method"`
}

// BiDiError is an error a WebDriver BiDi remote end answered to a command.
type BiDiError struct {
	// Method is the command, e.g. "browsingContext.navigate".
	Method string
	// Code is the error code, e.g. "unknown error".
	Code string
	// Message is the remote end's explanation.
	Message string
}

// Error gives the command, the error code and the message.
func (e *BiDiError) Error() string { return fmt.Sprintf("%s: %s: %s", e.Method, e.Code, e.Message) }

// dialBiDi opens a WebDriver BiDi WebSocket, e.g. ws://127.0.0.1:PORT/session.
func dialBiDi(ctx context.Context, wsURL string) (*bidiConn, error) {
	loc, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	origin, _ := url.Parse(bidiOrigin)
	cfg := &websocket.Config{Location: loc, Origin: origin, Version: websocket.ProtocolVersionHybi13}
	ws, err := cfg.DialContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("connecting to WebDriver BiDi at %s: %w", wsURL, err)
	}
	ws.MaxPayloadBytes = 256 << 20
	c := &bidiConn{ws: ws, pending: map[int64]chan bidiMessage{}, done: make(chan struct{})}
	go c.read()
	return c, nil
}

func (c *bidiConn) read() {
	var err error
	for {
		var raw []byte
		if err = websocket.Message.Receive(c.ws, &raw); err != nil {
			break
		}
		var m bidiMessage
		if json.Unmarshal(raw, &m) != nil || m.ID == nil || m.Type == "event" {
			continue
		}
		c.mu.Lock()
		ch := c.pending[*m.ID]
		delete(c.pending, *m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m // buffered: never blocks
		}
	}
	c.mu.Lock()
	c.err = fmt.Errorf("the WebDriver BiDi connection ended: %w", err)
	c.mu.Unlock()
	close(c.done)
}

// call sends method with params and decodes the reply's result into out (when not nil).
func (c *bidiConn) call(ctx context.Context, method string, params, out any) error {
	if params == nil {
		params = struct{}{}
	}
	ch := make(chan bidiMessage, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, c.err)
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}

	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		forget()
		return err
	}
	c.writeMu.Lock()
	err = websocket.Message.Send(c.ws, string(msg))
	c.writeMu.Unlock()
	if err != nil {
		forget()
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Type == "error" {
			return &BiDiError{Method: method, Code: m.Error, Message: m.Message}
		}
		if out == nil {
			return nil
		}
		return json.Unmarshal(m.Result, out)
	case <-c.done:
		c.mu.Lock()
		defer c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, c.err)
	case <-ctx.Done():
		forget()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// close closes the WebSocket and waits for the reader to stop.
func (c *bidiConn) close() {
	_ = c.ws.Close()
	<-c.done
}

// bidiPage is a Page over a BiDi connection: one browsing context (tab).
type bidiPage struct {
	conn    *bidiConn
	context string
	browser string
}

// Open implements [Page.Open] with browsingContext.navigate, waiting for "complete".
func (p *bidiPage) Open(ctx context.Context, url string) error {
	return p.conn.call(
		ctx,
		"browsingContext.navigate",
		map[string]any{"context": p.context, "url": url, "wait": "complete"},
		nil,
	)
}

// remoteValue is the part of a BiDi script.RemoteValue this package reads.
type remoteValue struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// evaluateResult is script.EvaluateResult: success or exception.
type evaluateResult struct {
	Type             string      `json:"type"`
	Result           remoteValue `json:"result"`
	ExceptionDetails struct {
		Text       string      `json:"text"`
		Exception  remoteValue `json:"exception"`
		StackTrace struct {
			CallFrames []struct {
				FunctionName string `json:"functionName"`
				URL          string `json:"url"`
				LineNumber   int    `json:"lineNumber"`
				ColumnNumber int    `json:"columnNumber"`
			} `json:"callFrames"`
		} `json:"stackTrace"`
	} `json:"exceptionDetails"`
}

// Eval implements [Page.Eval] with script.evaluate and awaitPromise.
func (p *bidiPage) Eval(ctx context.Context, body string, out any) error {
	var r evaluateResult
	err := p.conn.call(ctx, "script.evaluate", map[string]any{
		"expression": wrapBody(body), "target": map[string]any{"context": p.context},
		"awaitPromise": true, "resultOwnership": "none",
	}, &r)
	if err != nil {
		return err
	}
	if r.Type == "exception" {
		d := r.ExceptionDetails
		msg := d.Text
		for i, f := range d.StackTrace.CallFrames {
			if i == 8 {
				break
			}
			msg += fmt.Sprintf("\n    at %s (%s:%d:%d)", f.FunctionName, f.URL, f.LineNumber+1, f.ColumnNumber+1)
		}
		return &EvalError{Message: msg}
	}
	if r.Result.Type != "string" {
		return fmt.Errorf("the page's result is not JSON (a %s)", r.Result.Type)
	}
	var s string
	if err := json.Unmarshal(r.Result.Value, &s); err != nil {
		return err
	}
	return decode(s, out)
}

// SetViewport implements [Page.SetViewport] with browsingContext.setViewport.
func (p *bidiPage) SetViewport(ctx context.Context, width, height int) error {
	return p.conn.call(ctx, "browsingContext.setViewport", map[string]any{
		"context": p.context, "viewport": map[string]int{"width": width, "height": height},
	}, nil)
}

// Screenshot implements [Page.Screenshot] with browsingContext.captureScreenshot of the document.
func (p *bidiPage) Screenshot(ctx context.Context) ([]byte, error) {
	var r struct {
		Data []byte `json:"data"` // base64 in JSON
	}
	err := p.conn.call(
		ctx,
		"browsingContext.captureScreenshot",
		map[string]any{"context": p.context, "origin": "document"},
		&r,
	)
	return r.Data, err
}

// Browser implements [Page.Browser]: the session's browserName and browserVersion.
func (p *bidiPage) Browser() string { return p.browser }

// newBiDiPage starts a session on conn and takes its first top-level browsing context.
func newBiDiPage(ctx context.Context, conn *bidiConn) (*bidiPage, error) {
	var session struct {
		Capabilities struct {
			BrowserName    string `json:"browserName"`
			BrowserVersion string `json:"browserVersion"`
		} `json:"capabilities"`
	}
	// Prompts (alert, confirm) are left open rather than failing the next command; the pages
	// under test replace alert themselves.
	caps := map[string]any{
		"alwaysMatch": map[string]any{"unhandledPromptBehavior": map[string]string{"default": "ignore"}},
	}
	if err := conn.call(ctx, "session.new", map[string]any{"capabilities": caps}, &session); err != nil {
		return nil, err
	}
	var tree struct {
		Contexts []struct {
			Context string `json:"context"`
		} `json:"contexts"`
	}
	if err := conn.call(ctx, "browsingContext.getTree", map[string]any{"maxDepth": 0}, &tree); err != nil {
		return nil, err
	}
	if len(tree.Contexts) == 0 {
		return nil, errors.New("browsingContext.getTree: the browser has no tab")
	}
	return &bidiPage{conn: conn, context: tree.Contexts[0].Context,
		browser: session.Capabilities.BrowserName + " " + session.Capabilities.BrowserVersion}, nil
}
