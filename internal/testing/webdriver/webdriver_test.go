//go:build linux

package webdriver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/websocket"
)

// These tests need no browser: the clients talk to fakes of the remote ends.

func TestMissingProgramsNameTheirDebianPackage(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("FIREFOX", "")
	t.Setenv("WEBKITWEBDRIVER", "")
	ctx := context.Background()

	_, err := StartFirefox(ctx, FirefoxOptions{ProfileDir: t.TempDir()})
	var missing *NotInstalledError
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, "firefox-esr", missing.Package)
	assert.Contains(t, err.Error(), "install Debian's 'firefox-esr' package")

	_, err = StartWebKit(ctx, WebKitOptions{ProfileDir: t.TempDir()})
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, "webkit2gtk-driver", missing.Package)

	// A driver is there, Xvfb is not.
	_, err = StartWebKit(ctx, WebKitOptions{Driver: "/bin/true", ProfileDir: t.TempDir()})
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, "xvfb", missing.Package)

	t.Setenv("FIREFOX", "/nonexistent/firefox")
	_, err = StartFirefox(ctx, FirefoxOptions{ProfileDir: t.TempDir()})
	assert.ErrorContains(t, err, `FIREFOX="/nonexistent/firefox"`)
}

func TestUserJS(t *testing.T) {
	dir := t.TempDir()
	require.NoError(
		t,
		writeUserJS(dir, map[string]any{"dom.modelcontext.enabled": false, "a.string": `q"uote`, "a.number": 3}),
	)
	b, err := os.ReadFile(filepath.Join(dir, "user.js"))
	require.NoError(t, err)
	s := string(b)
	assert.Contains(t, s, `user_pref("dom.modelcontext.enabled", false);`)
	assert.Contains(t, s, `user_pref("a.string", "q\"uote");`)
	assert.Contains(t, s, `user_pref("a.number", 3);`)
	assert.Contains(t, s, `user_pref("app.update.disabledForTesting", true);`)
	assert.Less(
		t,
		strings.Index(s, "app.update"),
		strings.Index(s, "a.number"),
		"the caller's prefs come last, so they win",
	)
}

func TestTailKeepsTheEndAndSplitsLines(t *testing.T) {
	var lines []string
	w := &tail{onLine: func(l string) { lines = append(lines, l) }}
	w.Write([]byte("one\r\ntw"))
	w.Write([]byte("o\nthree"))
	assert.Equal(t, []string{"one", "two"}, lines)
	w.Write([]byte(strings.Repeat("x", 2*tailSize)))
	assert.Len(t, w.String(), tailSize)
}

func TestStopEndsTheWholeProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child")
	// A child that ignores SIGTERM, as a browser's helper might.
	p, err := startProcess(
		"/bin/sh",
		[]string{"-c", `trap "" TERM; sleep 60 & echo $! > ` + pidFile + `; wait`},
		nil,
		nil,
	)
	require.NoError(t, err)
	var child int
	require.Eventually(t, func() bool {
		b, _ := os.ReadFile(pidFile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return child > 0
	}, 5*time.Second, 10*time.Millisecond)
	start := time.Now()
	p.stop(syscall.SIGTERM, 300*time.Millisecond)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.True(t, p.exited())
	// The child is gone (or a zombie of init's, which no longer runs).
	assert.Eventually(t, func() bool {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat")
		return err != nil || strings.Contains(string(b), ") Z")
	}, 5*time.Second, 10*time.Millisecond)
	p.stop(syscall.SIGTERM, time.Second) // a second stop does nothing
}

// fakeBiDi is a WebDriver BiDi remote end that answers with answer and sends an event before
// every reply (which the client must skip).
func fakeBiDi(t *testing.T, answer func(method string, params map[string]any) (result any, errCode string)) string {
	srv := httptest.NewServer(websocket.Handler(func(ws *websocket.Conn) {
		for {
			var raw string
			if websocket.Message.Receive(ws, &raw) != nil {
				return
			}
			var cmd struct {
				ID     int64          `json:"id"`
				Method string         `json:"method"`
				Params map[string]any `json:"params"`
			}
			require.NoError(t, json.Unmarshal([]byte(raw), &cmd))
			websocket.JSON.Send(
				ws,
				map[string]any{"type": "event", "method": "log.entryAdded", "params": map[string]any{}},
			)
			result, code := answer(cmd.Method, cmd.Params)
			if code != "" {
				websocket.JSON.Send(
					ws,
					map[string]any{"type": "error", "id": cmd.ID, "error": code, "message": "no " + cmd.Method},
				)
				continue
			}
			websocket.JSON.Send(ws, map[string]any{"type": "success", "id": cmd.ID, "result": result})
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/session"
}

func TestBiDiPage(t *testing.T) {
	var expressions []string
	url := fakeBiDi(t, func(method string, params map[string]any) (any, string) {
		switch method {
		case "session.new":
			return map[string]any{
				"sessionId":    "s",
				"capabilities": map[string]any{"browserName": "firefox", "browserVersion": "153.0"},
			}, ""
		case "browsingContext.getTree":
			return map[string]any{"contexts": []any{map[string]any{"context": "ctx1"}}}, ""
		case "browsingContext.navigate":
			assert.Equal(t, "ctx1", params["context"])
			assert.Equal(t, "complete", params["wait"])
			return map[string]any{"navigation": "n", "url": params["url"]}, ""
		case "browsingContext.captureScreenshot":
			return map[string]any{"data": "iVBORw0K"}, ""
		case "script.evaluate":
			expr := params["expression"].(string)
			expressions = append(expressions, expr)
			assert.Equal(t, true, params["awaitPromise"])
			assert.Equal(t, map[string]any{"context": "ctx1"}, params["target"])
			if strings.Contains(expr, "throw") {
				return map[string]any{"type": "exception", "exceptionDetails": map[string]any{"text": "TypeError: boom",
					"stackTrace": map[string]any{
						"callFrames": []any{
							map[string]any{
								"functionName": "f",
								"url":          "http://localhost/",
								"lineNumber":   2,
								"columnNumber": 4,
							},
						},
					}}}, ""
			}
			return map[string]any{
				"type":   "success",
				"result": map[string]any{"type": "string", "value": `{"a":[1,2]}`},
			}, ""
		}
		return nil, "unknown command"
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := dialBiDi(ctx, url)
	require.NoError(t, err)
	defer conn.close()
	p, err := newBiDiPage(ctx, conn)
	require.NoError(t, err)
	assert.Equal(t, "firefox 153.0", p.Browser())
	require.NoError(t, p.Open(ctx, "http://localhost/x"))

	var got map[string][]int
	require.NoError(t, p.Eval(ctx, "return {a: [1, 2]} // a comment", &got))
	assert.Equal(t, map[string][]int{"a": {1, 2}}, got)
	assert.Equal(
		t,
		"(async () => {\nreturn {a: [1, 2]} // a comment\n})().then((v) => JSON.stringify(v === undefined ? null : v))",
		expressions[0],
	)

	err = p.Eval(ctx, `throw new TypeError("boom")`, &got)
	var evalErr *EvalError
	require.ErrorAs(t, err, &evalErr)
	assert.Equal(t, "TypeError: boom\n    at f (http://localhost/:3:5)", evalErr.Message)

	png, err := p.Screenshot(ctx)
	require.NoError(t, err)
	assert.Equal(t, []byte("\x89PNG\r\n"), png)

	err = p.SetViewport(ctx, 10, 10)
	var bidiErr *BiDiError
	require.ErrorAs(t, err, &bidiErr)
	assert.Equal(t, "unknown command", bidiErr.Code)

	conn.close()
	assert.ErrorContains(
		t,
		p.Open(ctx, "http://localhost/"),
		"connection ended",
		"a closed connection fails every later command",
	)
}

func TestBiDiCallHonoursItsContext(t *testing.T) {
	release := make(chan struct{}) // the reply waits for the end of the test: it never comes in time
	url := fakeBiDi(t, func(method string, params map[string]any) (any, string) {
		<-release
		return map[string]any{}, ""
	})
	defer close(release)
	conn, err := dialBiDi(context.Background(), url)
	require.NoError(t, err)
	defer conn.close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err = conn.call(ctx, "session.status", nil, nil)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
}

// fakeWebDriver is a classic WebDriver remote end for one session.
func fakeWebDriver(t *testing.T) *classic {
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, status int, value any) {
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"value": value})
	}
	mux.HandleFunc("POST /session", func(w http.ResponseWriter, r *http.Request) {
		reply(
			w,
			200,
			map[string]any{
				"sessionId":    "abc",
				"capabilities": map[string]any{"browserName": "MiniBrowser", "browserVersion": "2.50.6"},
			},
		)
	})
	mux.HandleFunc("POST /session/abc/timeouts", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, nil) })
	mux.HandleFunc("POST /session/abc/url", func(w http.ResponseWriter, r *http.Request) {
		var body map[string]string
		json.NewDecoder(r.Body).Decode(&body)
		if body["url"] == "bad" {
			reply(w, 400, map[string]any{"error": "invalid argument", "message": "bad url"})
			return
		}
		reply(w, 200, nil)
	})
	mux.HandleFunc("POST /session/abc/execute/async", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Script string `json:"script"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		switch {
		case strings.Contains(body.Script, "syntax"):
			reply(w, 500, map[string]any{"error": "javascript error", "message": "Unexpected identifier"})
		case strings.Contains(body.Script, "throw"):
			reply(w, 200, map[string]any{"error": "TypeError: boom\n@\nf@http://localhost/:1:2"})
		default:
			reply(w, 200, map[string]any{"json": `[true]`})
		}
	})
	mux.HandleFunc(
		"GET /session/abc/screenshot",
		func(w http.ResponseWriter, r *http.Request) { reply(w, 200, "iVBORw0K") },
	)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &classic{base: srv.URL, http: srv.Client()}
}

func TestClassicPage(t *testing.T) {
	ctx := context.Background()
	p, err := newClassicPage(ctx, fakeWebDriver(t), map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, "MiniBrowser 2.50.6", p.Browser())
	require.NoError(t, p.Open(ctx, "http://localhost/"))
	var wdErr *WebDriverError
	require.ErrorAs(t, p.Open(ctx, "bad"), &wdErr)
	assert.Equal(t, "invalid argument", wdErr.Code)

	var got []bool
	require.NoError(t, p.Eval(ctx, "return [true]", &got))
	assert.Equal(t, []bool{true}, got)
	var evalErr *EvalError
	require.ErrorAs(t, p.Eval(ctx, "throw 1", &got), &evalErr)
	assert.Equal(t, "TypeError: boom\nf@http://localhost/:1:2", evalErr.Message, "bare @ frames are dropped")
	require.ErrorAs(t, p.Eval(ctx, "syntax error", &got), &evalErr)
	assert.Equal(t, "Unexpected identifier", evalErr.Message)

	png, err := p.Screenshot(ctx)
	require.NoError(t, err)
	assert.Equal(t, []byte("\x89PNG\r\n"), png)
	assert.Contains(
		t,
		asyncScript("return 1"),
		"const done = arguments[arguments.length - 1];\n(async () => {\nreturn 1\n})()",
	)
}
