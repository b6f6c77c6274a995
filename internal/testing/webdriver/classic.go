//go:build linux

package webdriver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// WebDriverError is an error a classic WebDriver remote end answered to a command.
type WebDriverError struct {
	// Command is the method and path, e.g. "POST /session/…/url".
	Command string
	// Status is the HTTP status.
	Status int
	// Code is the WebDriver error code, e.g. "javascript error".
	Code string
	// Message is the remote end's explanation.
	Message string
}

// Error gives the command, the HTTP status, the error code and the message.
func (e *WebDriverError) Error() string {
	return fmt.Sprintf("%s: %d %s: %s", e.Command, e.Status, e.Code, e.Message)
}

// classic is a classic WebDriver client (W3C WebDriver over HTTP and JSON) for one remote end.
type classic struct {
	base string // e.g. http://127.0.0.1:4444
	http *http.Client
}

// do sends method path with the JSON of body (nil: no body for GET and DELETE, {} otherwise)
// and decodes the reply's "value" into out (when not nil).
func (c *classic) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if method == http.MethodPost {
		if body == nil {
			body = struct{}{}
		}
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	var reply struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return fmt.Errorf("%s %s: %d, not WebDriver JSON: %.200q", method, path, resp.StatusCode, raw)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(reply.Value, &e)
		return &WebDriverError{Command: method + " " + path, Status: resp.StatusCode, Code: e.Error, Message: e.Message}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(reply.Value, out)
}

// classicPage is a Page over a classic WebDriver session.
type classicPage struct {
	c       *classic
	session string // "/session/ID"
	browser string
}

// newClassicPage starts a session with the capabilities in alwaysMatch.
func newClassicPage(ctx context.Context, c *classic, alwaysMatch map[string]any) (*classicPage, error) {
	var s struct {
		SessionID    string `json:"sessionId"`
		Capabilities struct {
			BrowserName    string `json:"browserName"`
			BrowserVersion string `json:"browserVersion"`
		} `json:"capabilities"`
	}
	body := map[string]any{"capabilities": map[string]any{"alwaysMatch": alwaysMatch}}
	if err := c.do(ctx, http.MethodPost, "/session", body, &s); err != nil {
		return nil, err
	}
	p := &classicPage{
		c:       c,
		session: "/session/" + s.SessionID,
		browser: s.Capabilities.BrowserName + " " + s.Capabilities.BrowserVersion,
	}
	// Scripts may run as long as the caller's context allows: 10 minutes is the ceiling.
	timeouts := map[string]any{"script": 600_000, "pageLoad": 120_000}
	if err := c.do(ctx, http.MethodPost, p.session+"/timeouts", timeouts, nil); err != nil {
		_ = p.end(ctx)
		return nil, err
	}
	return p, nil
}

func (p *classicPage) end(ctx context.Context) error {
	return p.c.do(ctx, http.MethodDelete, p.session, nil, nil)
}

// Open implements [Page.Open] with Navigate To (POST /session/{id}/url).
func (p *classicPage) Open(ctx context.Context, url string) error {
	return p.c.do(ctx, http.MethodPost, p.session+"/url", map[string]string{"url": url}, nil)
}

// asyncScript is the Execute Async Script body for a wrapped function body: it settles with
// {json} or {error} so that the page's own errors come back whole, name, message and stack.
func asyncScript(body string) string {
	return "const done = arguments[arguments.length - 1];\n" + wrapBody(body) + `.then(
  (json) => done({json: json === undefined ? "null" : json}),
  (e) => done({error: e instanceof Error ? String(e) + (e.stack ? "\n" + e.stack : "") : String(e)}));`
}

// tidyStack drops the frames WebKit prints as a bare "@" (anonymous functions without a source).
func tidyStack(msg string) string {
	lines := strings.Split(msg, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "@" && t != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// Eval implements [Page.Eval] with Execute Async Script (POST /session/{id}/execute/async).
func (p *classicPage) Eval(ctx context.Context, body string, out any) error {
	var r struct {
		JSON  *string `json:"json"`
		Error *string `json:"error"`
	}
	err := p.c.do(
		ctx,
		http.MethodPost,
		p.session+"/execute/async",
		map[string]any{"script": asyncScript(body), "args": []any{}},
		&r,
	)
	if err != nil {
		if e, ok := err.(*WebDriverError); ok && e.Code == "javascript error" {
			return &EvalError{Message: e.Message}
		}
		return err
	}
	if r.Error != nil {
		return &EvalError{Message: tidyStack(*r.Error)}
	}
	if r.JSON == nil {
		return fmt.Errorf("the page's result is not JSON")
	}
	return decode(*r.JSON, out)
}

// SetViewport implements [Page.SetViewport] with Set Window Rect: it sizes the window.
func (p *classicPage) SetViewport(ctx context.Context, width, height int) error {
	return p.c.do(ctx, http.MethodPost, p.session+"/window/rect", map[string]int{"width": width, "height": height}, nil)
}

// Screenshot implements [Page.Screenshot] with Take Screenshot: the viewport.
func (p *classicPage) Screenshot(ctx context.Context) ([]byte, error) {
	var png []byte // base64 in JSON
	err := p.c.do(ctx, http.MethodGet, p.session+"/screenshot", nil, &png)
	return png, err
}

// Browser implements [Page.Browser]: the session's browserName and browserVersion.
func (p *classicPage) Browser() string { return p.browser }
