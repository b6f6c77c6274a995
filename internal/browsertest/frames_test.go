//go:build !js

package browsertest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

// serveTwoOrigins serves web/ (the built loader in /dist/, the test pages in /test/) on two
// loopback ports, answered as http://localhost:A and http://127.0.0.1:B: two origins, both
// potentially trustworthy, as WebMCP needs.
func serveTwoOrigins(t *testing.T) (string, string) {
	t.Helper()
	web, err := filepath.Abs(filepath.Join("..", "..", "web"))
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/", serve.Handler(web))
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(filepath.Join(web, "dist"))))
	mux.Handle("/test/", http.StripPrefix("/test/", serve.Handler("pages")))
	var urls []string
	for _, host := range []string{"localhost", "127.0.0.1"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		srv := &http.Server{Handler: mux}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		urls = append(urls, fmt.Sprintf("http://%s:%d", host, ln.Addr().(*net.TCPAddr).Port))
	}
	return urls[0], urls[1]
}

// frameScenarios are what a page and its frames (pages/frames-parent.html, frames-child.html)
// do with each other's tools: a script run in the parent (OTHER is the second origin) and the
// JSON it must answer (SELF and OTHER replaced by the origins).
var frameScenarios = []struct{ name, js, want string }{
	{"a same-origin child's tool is the parent's, runs there, and goes with toolchange", `
		const f = await addFrame(location.origin);
		const changed = nextToolchange();
		await f.send("register", { tool: { name: "child_tool", description: "child" } });
		await within(changed, 3000, "toolchange in the parent");
		const t = (await mc().getTools()).find((t) => t.name === "child_tool");
		const out = { origin: t.origin, window: t.window === f.win, result: await mc().executeTool(t, {}) };
		const gone = nextToolchange();
		await f.send("unregister", { name: "child_tool" });
		await within(gone, 3000, "toolchange on unregistration");
		out.after = (await names()).includes("child_tool");
		f.el.remove();
		return out;`,
		`{"origin":"SELF","window":true,"result":"hello from SELF","after":false}`},
	{"the parent's tools are a same-origin child's, and run for it", `
		const c = new AbortController();
		await mc().registerTool({ name: "parent_tool", description: "p", inputSchema: { type: "object", properties: { q: { type: "string" } } }, execute: async () => "hello from parent" }, { signal: c.signal });
		const f = await addFrame(location.origin);
		const seen = (await f.send("getTools", {})).filter((t) => t.name === "parent_tool");
		const result = await f.send("execute", { name: "parent_tool" });
		c.abort();
		await tick(200);
		const after = (await f.send("getTools", {})).map((t) => t.name);
		f.el.remove();
		return { seen, result, after };`,
		`{"seen":[{"name":"parent_tool","origin":"SELF","description":"p","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},"parent":true}],"result":"hello from parent","after":[]}`},
	{"a cross-origin child's tool exposed to the parent is listed with fromOrigins, and runs", `
		const f = await addFrame(OTHER, "tools *");
		const changed = nextToolchange();
		await f.send("register", { tool: { name: "x_tool", description: "x" }, options: { exposedTo: [location.origin] } });
		await within(changed, 3000, "toolchange");
		const plain = (await names()).includes("x_tool");
		const t = (await mc().getTools({ fromOrigins: [OTHER] })).find((t) => t.name === "x_tool");
		const result = await mc().executeTool(t, {});
		f.el.remove();
		return { plain, origin: t.origin, window: t.window === f.win, result };`,
		`{"plain":false,"origin":"OTHER","window":true,"result":"hello from OTHER"}`},
	{"the caller's abort reaches a cross-origin tool: its signal aborts and toolcancel fires there", `
		const f = await addFrame(OTHER, "tools *");
		const changed = nextToolchange();
		await f.send("register", { tool: { name: "hang_tool", description: "h" }, options: { exposedTo: [location.origin] }, behavior: "hang" });
		await within(changed, 3000, "toolchange");
		const t = (await mc().getTools({ fromOrigins: [OTHER] })).find((t) => t.name === "hang_tool");
		const ctl = new AbortController();
		const p = mc().executeTool(t, {}, { signal: ctl.signal });
		const started = !!(await waitEvent((e) => e.event === "started" && e.name === "hang_tool"));
		ctl.abort("parent reason");
		let reason = null;
		try { await p; } catch (e) { reason = e; }
		const aborted = await waitEvent((e) => e.event === "aborted" && e.name === "hang_tool");
		const cancelled = !!(await waitEvent((e) => e.event === "toolcancel" && e.name === "hang_tool" && e.from === OTHER));
		f.el.remove();
		return { started, reason, aborted: aborted && aborted.reason, cancelled };`,
		`{"started":true,"reason":"parent reason","aborted":"AbortError","cancelled":true}`},
	{"a cross-origin child's tool not exposed to the parent is neither listed nor run", `
		const f = await addFrame(OTHER, "tools *");
		await f.send("register", { tool: { name: "private_tool", description: "p" } });
		await tick(300);
		const listed = (await names({ fromOrigins: [OTHER] })).includes("private_tool");
		let error = null;
		try { await mc().executeTool({ name: "private_tool", description: "p", window: f.win, origin: OTHER }, {}); } catch (e) { error = e.name; }
		f.el.remove();
		return { listed, error };`,
		`{"listed":false,"error":"UnknownError"}`},
	{"a cross-origin child without allow=tools shares nothing with its parent (natively its calls fail with NotAllowedError)", `
		const c = new AbortController();
		await mc().registerTool({ name: "offered_tool", description: "o", execute: async () => "no" }, { signal: c.signal, exposedTo: [OTHER] });
		const f = await addFrame(OTHER);
		let registered = "ok", childSees;
		try { await f.send("register", { tool: { name: "denied_tool", description: "d" }, options: { exposedTo: [location.origin] } }); } catch (e) { registered = e.name; }
		await tick(300);
		const listed = (await names({ fromOrigins: [OTHER] })).includes("denied_tool");
		try { childSees = (await f.send("getTools", { options: { fromOrigins: [location.origin] } })).map((t) => t.name).filter((n) => n !== "denied_tool"); } catch (e) { childSees = e.name; }
		c.abort();
		f.el.remove();
		return { listed, registered, childSees };`,
		`{"listed":false,"registered":"ok","childSees":[]}`},
	{"a parent tool exposed to a cross-origin child is its with fromOrigins, and runs for it; others are not", `
		const c = new AbortController();
		await mc().registerTool({ name: "shared_tool", description: "s", execute: async () => "hello from parent" }, { signal: c.signal, exposedTo: [OTHER] });
		await mc().registerTool({ name: "unshared_tool", description: "u", execute: async () => "no" }, { signal: c.signal });
		const f = await addFrame(OTHER, "tools *");
		const plain = (await f.send("getTools", {})).map((t) => t.name);
		const seen = (await f.send("getTools", { options: { fromOrigins: [location.origin] } })).map((t) => t.name + " " + t.origin);
		const result = await f.send("execute", { name: "shared_tool", options: { fromOrigins: [location.origin] } });
		c.abort();
		f.el.remove();
		return { plain, seen, result };`,
		`{"plain":[],"seen":["shared_tool SELF"],"result":"hello from parent"}`},
	{"a call rejects with UnknownError when the frame that runs the tool goes", `
		const f = await addFrame(location.origin);
		const changed = nextToolchange();
		await f.send("register", { tool: { name: "doomed_tool", description: "d" }, behavior: "hang" });
		await within(changed, 3000, "toolchange");
		const t = (await mc().getTools()).find((t) => t.name === "doomed_tool");
		const p = mc().executeTool(t, {});
		await waitEvent((e) => e.event === "started" && e.name === "doomed_tool");
		f.el.remove();
		let error = null;
		try { await within(p, 3000, "the call"); } catch (e) { error = e.name; }
		return { error, listed: (await names()).includes("doomed_tool") };`,
		`{"error":"UnknownError","listed":false}`},
	{"a tool's signal aborts, with toolcancel, when the frame that called it goes", `
		let started, aborted = null, cancelled = false;
		const running = new Promise((r) => (started = r));
		const c = new AbortController();
		await mc().registerTool({ name: "long_tool", description: "l", execute: (a, { signal }) => { started(); signal.addEventListener("abort", () => (aborted = signal.reason && signal.reason.name)); return new Promise(() => {}); } }, { signal: c.signal });
		mc().addEventListener("toolcancel", (e) => { if (e.toolName === "long_tool") cancelled = true; });
		const f = await addFrame(location.origin);
		f.send("execute", { name: "long_tool" }).catch(() => {});
		await within(running, 3000, "the tool started");
		f.el.remove();
		for (let i = 0; i < 150 && !(aborted && cancelled); i++) await tick(20);
		c.abort();
		return { aborted, cancelled };`,
		`{"aborted":"AbortError","cancelled":true}`},
	{"a same-origin child's form is the parent's tool, and its response comes back", `
		const f = await addFrame(location.origin);
		const changed = nextToolchange();
		await f.send("form", { html: '<form toolname="child_form" tooldescription="A form" toolautosubmit><input name="q"></form>', respond: "form" });
		await within(changed, 3000, "toolchange");
		const t = (await mc().getTools()).find((t) => t.name === "child_form");
		const result = await mc().executeTool(t, { q: "hi" });
		f.el.remove();
		return { schema: t.inputSchema, result };`,
		`{"schema":{"type":"object","properties":{"q":{"type":"string"}},"required":[]},"result":"form:hi"}`},
	{"forged messages change nothing: a denied frame's tool list, another frame's results", `
		const bad = await addFrame(OTHER);
		await bad.send("forge", { message: { webmcpBridge: "tools", tools: [{ name: "forged_tool", description: "f", title: "" }] } });
		const good = await addFrame(location.origin);
		const changed = nextToolchange();
		await good.send("register", { tool: { name: "slow_tool", description: "s" }, behavior: "hang" });
		await within(changed, 3000, "toolchange");
		const ally = await addFrame(OTHER, "tools *");
		const t = (await mc().getTools()).find((t) => t.name === "slow_tool");
		let settled = "pending";
		mc().executeTool(t, {}).then((v) => (settled = "resolved " + v), (e) => (settled = "rejected " + e.name));
		await waitEvent((e) => e.event === "started" && e.name === "slow_tool");
		for (let id = 0; id < 20; id++) await ally.send("forge", { message: { webmcpBridge: "result", id, value: "forged" } });
		await tick(300);
		const out = { forgedListed: (await names({ fromOrigins: [OTHER] })).includes("forged_tool"), settled };
		for (const f of [bad, good, ally]) f.el.remove();
		return out;`,
		`{"forgedListed":false,"settled":"pending"}`},
}

// TestFrames runs frameScenarios with the fallback, where they must all hold, and with native
// WebMCP, which the fallback reproduces over postMessage: the log says where native Chromium
// answers otherwise.
func TestFrames(t *testing.T) {
	self, other := serveTwoOrigins(t)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			ctx := browser(t, m.native)
			open(t, ctx, self+"/test/frames-parent.html")
			passed := 0
			for _, s := range frameScenarios {
				want := strings.NewReplacer("SELF", self, "OTHER", other).Replace(s.want)
				var got any
				err := headless.Eval(ctx, fmt.Sprintf("const OTHER = %q;\n%s", other, s.js), &got)
				gotJSON := fmt.Sprint(err)
				if err == nil {
					gotJSON = mustJSON(t, got)
				}
				if m.native {
					if jsonEqual(gotJSON, want) {
						passed++
					} else {
						t.Logf("native Chromium: %s: got %s, the fallback gives %s", s.name, gotJSON, want)
					}
					continue
				}
				if assert.JSONEq(t, want, gotJSON, s.name) {
					passed++
				}
			}
			t.Logf("%s: %d of %d frame scenarios as the fallback does them", m.name, passed, len(frameScenarios))
		})
	}
}

// mustJSON is v as JSON.
func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// jsonEqual says whether two JSON texts hold the same value.
func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}
