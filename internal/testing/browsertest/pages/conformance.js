// Checks of the WebMCP draft behaviours that the web-platform-tests webmcp/ suites cover for one
// document, written for this project (the WPT files are named, not copied). Each check says which
// WPT file it stands for, so that the Go tests can count, per file, what native Chromium and the
// fallback pass.
//
// runConformance() returns one {name, ok, error, wpt} per check the fallback must pass;
// runConformance({all: true}) adds the checks the fallback cannot pass by design (each with a
// `gap` that says why). The page picks the suite: conformance.html the imperative checks,
// declarative-conformance.html (data-suite="declarative", with declarative-conformance.js) the
// declarative ones; served with a sandboxing CSP (an opaque origin) or with document.domain
// enabled (Origin-Agent-Cluster: ?0), only the checks of that setting run.
"use strict";
const checks = [];
const SUITE = document.documentElement.dataset.suite || "imperative";
// The setting is the server's (see serveConformance): Firefox and WebKit enable document.domain in every document.
const SETTING = self.origin === "null" ? "opaque" : location.pathname.startsWith("/domain/") ? "document.domain" : "normal";
let currentWPT = "", currentSetting = "normal", currentGap = "", currentHang = "";
// check adds a check of the WPT file set by wpt(); gap names why the fallback cannot pass it.
const check = (name, fn) => checks.push({ name, fn, wpt: currentWPT, setting: currentSetting, gap: currentGap, hang: currentHang, suite: SUITE });
const wpt = (file, setting = "normal") => { currentWPT = file; currentSetting = setting; currentGap = ""; };
const gap = (why, f) => { currentGap = why; f(); currentGap = ""; };
// hangsNative marks checks that hang native Chromium's renderer: with native WebMCP they fail unrun.
const hangsNative = (why, f) => { currentHang = why; f(); currentHang = ""; };
const mc = () => document.modelContext;
const domainGap = "the fallback does not refuse documents with document.domain enabled: Firefox and Safari enable it in every document, and their users would have no WebMCP";
function assert(cond, msg) { if (!cond) throw new Error("assertion failed: " + msg); }
function eq(a, b, msg) { if (a !== b) throw new Error(`${msg}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`); }
const json = (v) => JSON.stringify(v);
async function rejects(p, test, msg) {
  try { await p; } catch (e) { test(e); return e; }
  throw new Error(msg + ": did not reject");
}
const isDOM = (name) => (e) => { assert(e instanceof DOMException, `a DOMException ${name}, got ${e && e.name}: ${e && e.message || e}`); eq(e.name, name, "DOMException name"); };
const rejectsAtOnce = async (p, name) => {
  const events = [];
  p.catch(() => events.push("rejection"));
  queueMicrotask(() => events.push("microtask"));
  await rejects(p, isDOM(name), "executeTool");
  eq(json(events), json(["rejection", "microtask"]), "order");
};
const isType = (e) => assert(e instanceof TypeError, `a TypeError, got ${e && e.name}: ${e && e.message}`);
const is = (v) => (e) => eq(e, v, "rejection");
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const defer = () => { let resolve, reject; const promise = new Promise((a, b) => { resolve = a; reject = b; }); return { promise, resolve, reject }; };
let n = 0;
const uniq = (p) => `${p}_${++n}`;
const find = async (name) => (await mc().getTools()).find((x) => x.name === name);
// reg registers a tool with a description, unregistered by c.abort(), and finds it in getTools().
async function reg(tool, options = {}) {
  const c = new AbortController();
  await mc().registerTool({ description: "d", ...tool }, { signal: c.signal, ...options });
  return { t: await find(tool.name), c };
}
const nextEvent = (target, type) => new Promise((r) => target.addEventListener(type, r, { once: true }));
window.conformanceKit = { domainGap, check, wpt, gap, hangsNative, mc, assert, eq, json, rejects, isDOM, isType, is, tick, defer, uniq, find, reg, nextEvent };

if (SUITE === "imperative") {
  wpt("imperative/model_context.https.html");
  check("document.modelContext is a ModelContext, always the same object", () => {
    assert(typeof ModelContext === "function" && mc() instanceof ModelContext, "instanceof ModelContext");
    eq(document.modelContext, document.modelContext, "same object");
  });
  check("navigator.modelContext is document.modelContext", () => eq(navigator.modelContext, document.modelContext, "same object"));
  check("the ModelContext is an EventTarget with ontoolchange, ontoolactivated and ontoolcancel", () => {
    assert(mc() instanceof EventTarget, "EventTarget");
    for (const h of ["ontoolchange", "ontoolactivated", "ontoolcancel"]) assert(h in mc(), h);
  });
  gap("the fallback defines modelContext on Document.prototype in bridge.js, so every document of the realm answers the page's ModelContext", () => hangsNative("getTools() of such a document never settles and blocks the page in Chromium 156", () => {
    check("a document without a browsing context has its own ModelContext, which rejects with InvalidStateError", async () => {
      const other = document.implementation.createHTMLDocument();
      assert(other.modelContext && other.modelContext !== mc(), "a ModelContext of its own");
      await rejects(other.modelContext.getTools(), isDOM("InvalidStateError"), "getTools");
      await rejects(other.modelContext.registerTool({ name: uniq("inactive"), description: "d", execute: () => 1 }), isDOM("InvalidStateError"), "registerTool");
    });
  }));

  wpt("imperative/getTools.https.html");
  check("getTools lists tools sorted by name, whatever the registration order, also after one goes", async () => {
    const p = uniq("order"), names = [p + "_c", p + "_b", p + "_a"];
    const regs = [];
    for (const name of names) regs.push(await reg({ name, execute: () => 1 }));
    const mine = async () => (await mc().getTools()).map((x) => x.name).filter((x) => x.startsWith(p));
    eq(json(await mine()), json([p + "_a", p + "_b", p + "_c"]), "order");
    regs[1].c.abort();
    eq(json(await mine()), json([p + "_a", p + "_c"]), "order after unregistration");
    regs.forEach((r) => r.c.abort());
    const all = (await mc().getTools()).map((x) => x.name);
    eq(json(all), json([...all].sort()), "the whole list is sorted");
  });

  wpt("imperative/getTools-imperative-annotations.https.html");
  const annotated = async (annotations) => {
    const { t, c } = await reg({ name: uniq("ann"), annotations, execute: () => 1 });
    c.abort();
    return t;
  };
  check("explicit annotations come back as given", async () => {
    const t = await annotated({ readOnlyHint: true, untrustedContentHint: true, consequentialHint: false });
    for (const [k, v] of Object.entries({ readOnlyHint: true, untrustedContentHint: true, consequentialHint: false })) eq(t.annotations[k], v, k);
  });
  // The newest tests: every member the IDL defines, debugging among them, in its default.
  const members = (a) => json(Object.keys(a).sort().map((k) => [k, a[k]]));
  check("annotations omitted from a given annotations object default to false, debugging too", async () => {
    const t = await annotated({ readOnlyHint: true });
    eq(members(t.annotations), members({ readOnlyHint: true, untrustedContentHint: false, consequentialHint: false, debugging: false }), "hints");
  });
  check("an empty annotations object gives every hint false, debugging too", async () => {
    const t = await annotated({});
    eq(members(t.annotations), members({ readOnlyHint: false, untrustedContentHint: false, consequentialHint: false, debugging: false }), "hints");
  });
  check("omitted annotations stay undefined", async () => eq((await annotated(undefined)).annotations, undefined, "annotations"));

  wpt("imperative/getTools-imperative-schema.https.html");
  check("getTools gives the inputSchema as an object, a copy of what was registered", async () => {
    const inputSchema = { type: "object", properties: { query: { type: "string", description: "The query" }, limit: { type: "number" } }, required: ["query"] };
    const { t, c } = await reg({ name: uniq("schema"), inputSchema, execute: () => 1 });
    c.abort();
    eq(typeof t.inputSchema, "object", "inputSchema type");
    eq(json(t.inputSchema), json(inputSchema), "inputSchema");
    eq(t.inputSchema.properties.query.description, "The query", "property description");
  });
  check("a tool registered without inputSchema has none in getTools", async () => {
    const { t, c } = await reg({ name: uniq("noschema"), execute: () => 1 });
    c.abort();
    eq(t.inputSchema, undefined, "inputSchema");
  });

  wpt("imperative/register-tool-title.https.html");
  check("a title is kept; none gives an empty string", async () => {
    const a = await reg({ name: uniq("titled"), title: "My Title", execute: () => 1 });
    const b = await reg({ name: uniq("untitled"), execute: () => 1 });
    eq(a.t.title, "My Title", "title"); eq(b.t.title, "", "no title");
    a.c.abort(); b.c.abort();
  });
  check("a title with a lone surrogate comes back with U+FFFD (USVString)", async () => {
    const { t, c } = await reg({ name: uniq("surrogate"), title: "A \uD800 B", execute: () => 1 });
    c.abort();
    eq(t.title, "A \uFFFD B", "title");
  });

  wpt("imperative/register_tool_invalid_json_schema.https.html");
  const cyclic = () => { const o = {}; o.self = o; return o; };
  for (const [what, inputSchema] of [["a toJSON that returns undefined", { toJSON: () => undefined }], ["a cycle", cyclic()], ["a BigInt", 42n]]) {
    check(`registerTool rejects an inputSchema with ${what} with TypeError`, () =>
      rejects(mc().registerTool({ name: uniq("badjson"), description: "d", inputSchema, execute: () => 1 }), isType, what));
  }
  check("the inputSchema is checked before an already-aborted signal", () =>
    rejects(mc().registerTool({ name: uniq("badfirst"), description: "d", inputSchema: { type: "object", properties: { p: cyclic() } }, execute: () => 1 },
      { signal: AbortSignal.abort("aborted") }), isType, "cycle and aborted signal"));

  wpt("imperative/register_tool_name_validation.https.html");
  check("names of 1-128 letters, digits, _, . and - are accepted", async () => {
    const p = uniq("n");
    for (const name of [p + "a", p + "A", p + "0", p + "-valid", p + "_valid", p + ".valid", ("x" + p).padEnd(128, "z")]) {
      const c = new AbortController();
      await mc().registerTool({ name, description: "d", execute: () => 1 }, { signal: c.signal });
      c.abort();
    }
  });
  check("any other name rejects with InvalidStateError", async () => {
    for (const name of ["", "x".repeat(129), "with space", "ünï", ..."@#$%^&*()+=[]{}|\\:;\"'<>?/`~".split("").map((ch) => "name" + ch)])
      await rejects(mc().registerTool({ name, description: "d", execute: () => 1 }), isDOM("InvalidStateError"), json(name));
  });

  wpt("imperative/register_tool_no_schema.https.html");
  check("a tool with only name, description and execute registers", async () => (await reg({ name: uniq("plain"), execute: () => 1 })).c.abort());

  wpt("imperative/register_tool_with_empty_annotation.https.html");
  check("a tool with an empty annotations object registers", async () => (await reg({ name: uniq("emptyann"), annotations: {}, execute: () => 1 })).c.abort());

  wpt("imperative/register_tool_with_schema.https.html");
  check("a tool with an inputSchema and string annotations registers", async () =>
    (await reg({ name: uniq("withschema"), inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, annotations: { readOnlyHint: "true" }, execute: (a) => a.text })).c.abort());
  check("an inputSchema whose toJSON returns a string registers", async () => (await reg({ name: uniq("tojsonstring"), inputSchema: { toJSON: () => "undefined" }, execute: () => 1 })).c.abort());

  wpt("imperative/duplicate_tool_registration.https.html");
  check("registering a name twice rejects with InvalidStateError", async () => {
    const name = uniq("dup");
    const { c } = await reg({ name, execute: () => 1 });
    await rejects(mc().registerTool({ name, description: "d", execute: () => 2 }), isDOM("InvalidStateError"), "duplicate");
    c.abort();
  });

  wpt("imperative/register_tool_signal.https.html");
  check("aborting right after registerTool rejects it with AbortError", () => {
    const c = new AbortController();
    const p = mc().registerTool({ name: uniq("quick"), description: "d", execute: () => 1 }, { signal: c.signal });
    c.abort();
    return rejects(p, isDOM("AbortError"), "aborted registration");
  });
  check("aborting right after registerTool rejects it with the abort reason", () => {
    const c = new AbortController(), reason = new Error("abort error");
    const p = mc().registerTool({ name: uniq("quick"), description: "d", execute: () => 1 }, { signal: c.signal });
    c.abort(reason);
    return rejects(p, is(reason), "aborted registration");
  });
  check("an already-aborted signal rejects with its reason", () =>
    rejects(mc().registerTool({ name: uniq("aborted"), description: "d", execute: () => 1 }, { signal: AbortSignal.abort("why") }), is("why"), "aborted"));
  check("aborting the signal unregisters the tool and fires toolchange", async () => {
    const name = uniq("gone");
    const { c } = await reg({ name, execute: () => 1 });
    const changed = nextEvent(mc(), "toolchange");
    c.abort();
    assert(!(await find(name)), "tool gone");
    await Promise.race([changed, tick(1000).then(() => { throw new Error("no toolchange"); })]);
  });
  check("the name is free again after unregistration", async () => {
    const name = uniq("again");
    const first = await reg({ name, execute: () => 1 });
    first.c.abort();
    const second = await reg({ name, execute: () => 2 });
    eq(await mc().executeTool(second.t), "2", "second tool runs");
    second.c.abort();
  });

  wpt("imperative/register_tool_toolchange.https.html");
  check("toolchange fires before registerTool's promise resolves", async () => {
    const events = [];
    mc().addEventListener("toolchange", () => events.push("toolchange"), { once: true });
    const c = new AbortController();
    const p = mc().registerTool({ name: uniq("tc"), description: "d", execute: () => 1 }, { signal: c.signal });
    p.then(() => events.push("resolve"));
    await p;
    await Promise.resolve();
    c.abort();
    eq(json(events), json(["toolchange", "resolve"]), "order");
  });

  wpt("imperative/exposedTo-invalid-origins.https.html");
  for (const [origin, ok] of [["/", false], ["*", false], ["https://example:bogus", false], ["https://\uD800.com", false], ["http://example.com", false],
    ["ftp://example.com", false], ["about:blank", false], ["about:srcdoc", false], ["https://example.com", true], ["http://localhost:3000", true]]) {
    check(`exposedTo ${json(origin)} ${ok ? "is accepted" : "rejects with SecurityError"}`, async () => {
      const c = new AbortController();
      const p = mc().registerTool({ name: uniq("exposed"), description: "d", execute: () => 1 }, { signal: c.signal, exposedTo: [origin] });
      if (ok) await p; else await rejects(p, isDOM("SecurityError"), origin);
      c.abort();
    });
  }
  check("an aborted signal is checked before exposedTo", () =>
    rejects(mc().registerTool({ name: uniq("exposed"), description: "d", execute: () => 1 }, { signal: AbortSignal.abort("aborted"), exposedTo: ["about:blank#x"] }), is("aborted"), "aborted"));

  wpt("imperative/getTools-filtering.https.html");
  check("getTools rejects with SecurityError for an insecure origin in fromOrigins", () =>
    rejects(mc().getTools({ fromOrigins: ["http://insecure.example"] }), isDOM("SecurityError"), "insecure"));

  wpt("imperative/register_tool_invalid_subset_schema.tentative.https.html");
  const excluded = {
    "$ref": { type: "object", properties: { x: { $ref: "#/foo" } } },
    "format": { type: "object", properties: { x: { type: "string", format: "email" } } },
    "additionalProperties: true": { type: "object", additionalProperties: true },
    "additionalProperties schema": { type: "object", additionalProperties: { type: "string" } },
    "unevaluatedProperties": { type: "object", unevaluatedProperties: false },
    "dependentRequired": { type: "object", dependentRequired: { x: ["y"] } },
    "an invalid pattern": { type: "string", pattern: "[" },
    "$defs": { type: "object", properties: { x: { type: "string", $defs: {} } } },
    "contentEncoding": { type: "object", properties: { x: { type: "string", contentEncoding: "base64" } } },
  };
  for (const [what, inputSchema] of Object.entries(excluded)) {
    check(`registerTool rejects ${what} in inputSchema with TypeError`, () =>
      rejects(mc().registerTool({ name: uniq("schema"), description: "d", inputSchema, execute: () => 1 }), isType, what));
  }

  wpt("imperative/object-arguments.https.html");
  check("executeTool passes arrays, defaults a missing input to {}, and rejects primitives, null and toJSON→undefined with TypeError", async () => {
    let got;
    const { t, c } = await reg({ name: uniq("args"), execute: (a) => { got = a; return "Success"; } });
    eq(await mc().executeTool(t, [1, 2, 3]), "Success", "array");
    eq(json(got), "[1,2,3]", "array input");
    for (const bad of ["hello", "{}", 123, true, null, { toJSON: () => undefined }]) await rejects(mc().executeTool(t, bad), isType, json(bad));
    eq(await mc().executeTool(t), "Success", "no input"); eq(json(got), "{}", "default input");
    eq(await mc().executeTool(t, undefined), "Success", "undefined input"); eq(json(got), "{}", "undefined input");
    c.abort();
  });

  wpt("imperative/executeTool-invalid-dictionary.https.html");
  check("executeTool with a tool dictionary missing origin rejects with TypeError", async () => {
    const { t, c } = await reg({ name: uniq("noorigin"), execute: () => 1 });
    await rejects(mc().executeTool({ name: t.name, description: t.description, window }, {}), isType, "no origin");
    c.abort();
  });
  check("executeTool with an unknown tool rejects with UnknownError", () =>
    rejects(mc().executeTool({ name: "non-existent", description: "d", window, origin: self.origin }, {}), isDOM("UnknownError"), "unknown"));

  wpt("imperative/executeTool-error-window-onerror.https.html");
  for (const [what, execute] of [["throws", async () => { throw new Error("secret"); }], ["returns a cyclic object", () => { const o = {}; o.o = o; return o; }]]) {
    check(`a tool that ${what} rejects with UnknownError and fires no error event`, async () => {
      let errors = 0;
      const onError = () => errors++;
      window.addEventListener("error", onError);
      const { t, c } = await reg({ name: uniq("fails"), execute });
      await rejects(mc().executeTool(t, {}), isDOM("UnknownError"), what);
      await tick();
      window.removeEventListener("error", onError);
      c.abort();
      eq(errors, 0, "error events");
    });
  }

  wpt("imperative/executeTool-input-validation.tentative.https.html");
  const validation = [
    ["missing required", { type: "object", properties: { field: { type: "string" } }, required: ["field"] }, {}, "/field", "required", "/required"],
    ["enum", { type: "object", properties: { color: { type: "string", enum: ["red", "green"] } } }, { color: "blue" }, "/color", "enum", "/enum"],
    ["pattern", { type: "object", properties: { code: { type: "string", pattern: "^[a-z]+$" } } }, { code: "ABC123" }, "/code", "pattern", "/pattern"],
    ["type", { type: "object", properties: { age: { type: "integer", minimum: 0 } } }, { age: "old" }, "/age", "type", "/type"],
  ];
  for (const [what, inputSchema, args, path, reason, schemaPath] of validation) {
    check(`invalid arguments (${what}) reject with DataError naming path, reason and schemaPath; execute is not called`, async () => {
      let called = false;
      const { t, c } = await reg({ name: uniq("valid"), inputSchema, execute: () => { called = true; return "x"; } });
      const e = await rejects(mc().executeTool(t, args), isDOM("DataError"), what);
      const m = JSON.parse(e.message);
      eq(m.path, path, "path"); eq(m.reason, reason, "reason"); eq(m.schemaPath, schemaPath, "schemaPath");
      eq(called, false, "execute called");
      c.abort();
    });
  }
  check("a valid enum value runs the tool", async () => {
    const { t, c } = await reg({ name: uniq("enum"), inputSchema: { type: "object", properties: { color: { type: "string", enum: ["red", "green"] } } }, execute: ({ color }) => json({ ok: color }) });
    eq(await mc().executeTool(t, { color: "red" }), json({ ok: "red" }), "result");
    c.abort();
  });
  check("a valid complex schema (prefixItems, items, additionalProperties:false) runs the tool", async () => {
    const inputSchema = { type: "object", properties: { count: { type: "integer", minimum: 1, maximum: 10 }, name: { type: "string", minLength: 1, maxLength: 20 },
      tags: { type: "array", prefixItems: [{ type: "string" }], items: { type: "string" } }, mode: { type: "string", enum: ["a", "b"] } }, required: ["count", "name", "tags"], additionalProperties: false };
    const { t, c } = await reg({ name: uniq("complex"), inputSchema, execute: (a) => json(a) });
    eq(JSON.parse(await mc().executeTool(t, { count: 5, name: "hello", tags: ["x", "y"], mode: "a" })).count, 5, "count");
    c.abort();
  });
  check("after a DataError, corrected arguments run the tool once", async () => {
    let calls = 0;
    const { t, c } = await reg({ name: uniq("retry"), inputSchema: { type: "object", properties: { age: { type: "integer", minimum: 0, maximum: 120 } }, required: ["age"] },
      execute: ({ age }) => { calls++; return json({ age }); } });
    await rejects(mc().executeTool(t, { age: "old" }), isDOM("DataError"), "invalid");
    eq(calls, 0, "calls after the invalid input");
    eq(JSON.parse(await mc().executeTool(t, { age: 30 })).age, 30, "age");
    eq(calls, 1, "calls");
    c.abort();
  });

  wpt("imperative/executeTool-events.https.html");
  check("toolactivated and toolcancel fire at the ModelContext (and window) during a run and its cancellation", async () => {
    const name = uniq("slow");
    const seen = [];
    const onWin = (e) => seen.push("window " + e.type);
    const onMc = (e) => seen.push("mc " + e.type);
    for (const type of ["toolactivated", "toolcancel"]) { window.addEventListener(type, onWin); mc().addEventListener(type, onMc); }
    const { t, c } = await reg({ name, execute: () => new Promise(() => {}) });
    const ctl = new AbortController();
    const activated = nextEvent(mc(), "toolactivated"), cancelled = nextEvent(mc(), "toolcancel");
    const p = mc().executeTool(t, {}, { signal: ctl.signal });
    const e = await activated;
    assert(e instanceof ToolActivatedEvent, "a ToolActivatedEvent");
    eq(e.type, "toolactivated", "type"); eq(e.toolName, name, "toolName"); eq(e.target, mc(), "target");
    assert(!e.bubbles && !e.cancelable && !e.composed, "a plain event");
    ctl.abort();
    await rejects(p, isDOM("AbortError"), "aborted");
    assert((await cancelled) instanceof ToolCancelEvent, "a ToolCancelEvent");
    for (const type of ["toolactivated", "toolcancel"]) { window.removeEventListener(type, onWin); mc().removeEventListener(type, onMc); }
    c.abort();
    eq(seen.filter((s) => s.startsWith("mc")).join(), "mc toolactivated,mc toolcancel", "events at the ModelContext, once each");
  });
  gap("events a script dispatches are never trusted", () => {
    check("toolactivated is a trusted event", async () => {
      const { t, c } = await reg({ name: uniq("trusted"), execute: () => "x" });
      const activated = nextEvent(mc(), "toolactivated");
      await mc().executeTool(t, {});
      const e = await activated;
      c.abort();
      assert(e.isTrusted, "isTrusted");
    });
  });

  wpt("imperative/executeTool-abort.https.html");
  check("the tool gets a non-aborted AbortSignal when the caller passes none", async () => {
    let s;
    const { t, c } = await reg({ name: uniq("sig"), execute: (a, o) => { s = o.signal; return "ok"; } });
    eq(await mc().executeTool(t), "ok", "result");
    assert(s instanceof AbortSignal && !s.aborted, "signal");
    c.abort();
  });
  check("caller abort: rejection with the caller's reason, then the tool's AbortError, then toolcancel at the ModelContext", async () => {
    const name = uniq("abort");
    const events = [], started = defer();
    let toolReason;
    const { t, c } = await reg({ name, execute: (a, o) => new Promise(() => { o.signal.onabort = () => { toolReason = o.signal.reason; events.push("signal_aborted"); }; events.push("tool started"); started.resolve(); }) });
    const activated = [], cancelledEvents = [];
    const onAct = (e) => { activated.push(e); events.push("toolactivated"); };
    const cancelled = defer();
    const onCancel = (e) => { cancelledEvents.push(e); events.push("toolcancel"); cancelled.resolve(); };
    mc().addEventListener("toolactivated", onAct);
    mc().addEventListener("toolcancel", onCancel);
    const ctl = new AbortController();
    const p = mc().executeTool(t, {}, { signal: ctl.signal });
    await started.promise;
    while (!activated.length) await tick();
    ctl.abort("custom cancellation reason");
    let reason;
    await Promise.all([p.catch((e) => { reason = e; events.push("execution_rejected"); }), cancelled.promise]);
    mc().removeEventListener("toolactivated", onAct);
    mc().removeEventListener("toolcancel", onCancel);
    c.abort();
    eq(json(events), json(["tool started", "toolactivated", "execution_rejected", "signal_aborted", "toolcancel"]), "order");
    eq(activated.length, 1, "toolactivated once"); eq(cancelledEvents.length, 1, "toolcancel once");
    assert(cancelledEvents[0] instanceof ToolCancelEvent && cancelledEvents[0].toolName === name && cancelledEvents[0].target === mc(), "a ToolCancelEvent at the ModelContext");
    eq(reason, "custom cancellation reason", "reason");
    assert(toolReason instanceof DOMException && toolReason.name === "AbortError", "the tool's signal aborts with AbortError");
  });
  check("an already-aborted call signal rejects before the next microtask, without running the tool", async () => {
    const { t, c } = await reg({ name: uniq("pre"), execute: () => { throw new Error("must not run"); } });
    let got = null;
    mc().executeTool(t, {}, { signal: AbortSignal.abort("already aborted") }).catch((e) => (got = e));
    await Promise.resolve();
    eq(got, "already aborted", "reason");
    c.abort();
  });
  check("a call stays rejected with AbortError when the tool resolves after the abort", async () => {
    const late = defer();
    const { t, c } = await reg({ name: uniq("late"), execute: (a, o) => { o.signal.onabort = () => late.resolve("late"); return late.promise; } });
    const ctl = new AbortController();
    const p = mc().executeTool(t, {}, { signal: ctl.signal });
    ctl.abort();
    await rejects(p, isDOM("AbortError"), "late");
    eq(await Promise.race([late.promise, tick(2000).then(() => "the tool never ran")]), "late", "late value");
    c.abort();
  });
  check("concurrent calls of one tool have independent signals", async () => {
    const signals = [], started = [defer(), defer()], second = defer(), aborted1 = defer();
    const { t, c } = await reg({ name: uniq("conc"), execute: (a, o) => {
      const i = signals.push(o.signal) - 1;
      started[i].resolve();
      if (i === 0) { o.signal.onabort = aborted1.resolve; return new Promise(() => {}); }
      return second.promise;
    } });
    const c1 = new AbortController(), c2 = new AbortController();
    const p1 = mc().executeTool(t, {}, { signal: c1.signal });
    const p2 = mc().executeTool(t, {}, { signal: c2.signal });
    await Promise.all(started.map((d) => d.promise));
    c1.abort("cancel 1");
    await rejects(p1, is("cancel 1"), "first");
    await aborted1.promise;
    assert(signals[0].aborted && !signals[1].aborted, "independent");
    second.resolve("exec2 result");
    eq(await p2, "exec2 result", "second result");
    c.abort();
  });
  for (const when of ["synchronously", "asynchronously"]) {
    check(`a tool that ${when} aborts the caller's signal gets its own signal aborted, and toolcancel fires`, async () => {
      const name = uniq("selfcancel"), ctl = new AbortController(), aborted = defer();
      const cancelled = new Promise((r) => mc().addEventListener("toolcancel", function f(e) { if (e.toolName === name) { mc().removeEventListener("toolcancel", f); r(); } }));
      const { t, c } = await reg({ name, execute: async (a, o) => {
        o.signal.addEventListener("abort", aborted.resolve);
        if (when === "asynchronously") await tick();
        ctl.abort(when + " self-cancel");
        return new Promise(() => {});
      } });
      await rejects(mc().executeTool(t, {}, { signal: ctl.signal }), is(when + " self-cancel"), "self-cancel");
      await Promise.all([aborted.promise, cancelled]);
      c.abort();
    });
  }

  wpt("imperative/executeTool-reentrant-cancellation.https.html");
  check("a caller's abort cascades through a tool that calls another tool with its own signal", async () => {
    const inner = uniq("inner"), outer = uniq("outer"), innerStarted = defer(), outerAborted = defer(), innerAborted = defer();
    const i = await reg({ name: inner, execute: (a, o) => { o.signal.addEventListener("abort", innerAborted.resolve); innerStarted.resolve(); return new Promise(() => {}); } });
    const o = await reg({ name: outer, execute: async (a, opts) => { opts.signal.addEventListener("abort", outerAborted.resolve); return mc().executeTool(await find(inner), {}, { signal: opts.signal }); } });
    const ctl = new AbortController();
    const p = mc().executeTool(o.t, {}, { signal: ctl.signal });
    await innerStarted.promise;
    ctl.abort("cascade abort");
    await rejects(p, is("cascade abort"), "outer");
    await Promise.all([outerAborted.promise, innerAborted.promise]);
    i.c.abort(); o.c.abort();
  });
  check("an inner tool that aborts the outer caller's controller cancels both calls", async () => {
    const inner = uniq("inner"), outer = uniq("outer"), ctl = new AbortController(), outerAborted = defer(), innerAborted = defer();
    const i = await reg({ name: inner, execute: (a, o) => { o.signal.addEventListener("abort", innerAborted.resolve); ctl.abort("inner aborted outer controller"); return new Promise(() => {}); } });
    const o = await reg({ name: outer, execute: async (a, opts) => { opts.signal.addEventListener("abort", outerAborted.resolve); return mc().executeTool(await find(inner), {}, { signal: opts.signal }); } });
    await rejects(mc().executeTool(o.t, {}, { signal: ctl.signal }), is("inner aborted outer controller"), "outer");
    await Promise.all([outerAborted.promise, innerAborted.promise]);
    i.c.abort(); o.c.abort();
  });

  wpt("imperative/executeTool-self-unregistration.https.html");
  check("a tool that unregisters itself mid-run still delivers its result", async () => {
    const name = uniq("self"), ac = new AbortController();
    await mc().registerTool({ name, description: "d", execute: async () => { ac.abort(); return { status: "resolved" }; } }, { signal: ac.signal });
    eq(await mc().executeTool(await find(name)), '{"status":"resolved"}', "result");
    assert(!(await find(name)), "unregistered");
  });
  check("a tool that unregisters another tool mid-run is unaffected", async () => {
    const other = await reg({ name: uniq("bystander"), execute: () => "b" });
    const self_ = await reg({ name: uniq("unregisters"), execute: async () => { other.c.abort(); return { status: "resolved" }; } });
    eq(await mc().executeTool(self_.t), '{"status":"resolved"}', "result");
    const names = (await mc().getTools()).map((x) => x.name);
    assert(!names.includes(other.t.name) && names.includes(self_.t.name), "only the bystander is gone");
    self_.c.abort();
  });

  wpt("imperative/unregister-during-executeTool.https.html");
  check("a call in flight resolves although its tool is unregistered meanwhile, and its signal does not abort", async () => {
    const started = defer(), finish = defer();
    let aborted = false;
    const { t, c } = await reg({ name: uniq("inflight"), execute: (a, o) => new Promise((r) => { o.signal.onabort = () => (aborted = true); started.resolve(); finish.promise.then(() => r("same_doc_result")); }) });
    const p = mc().executeTool(t);
    await started.promise;
    c.abort();
    assert(!(await find(t.name)), "unregistered");
    finish.resolve();
    eq(await p, "same_doc_result", "result");
    eq(aborted, false, "tool signal aborted");
  });
  check("a tool that unregisters itself synchronously can still be cancelled by its caller", async () => {
    const started = defer(), aborted = defer(), regCtl = new AbortController(), name = uniq("syncunreg");
    await mc().registerTool({ name, description: "d", execute: (a, o) => { o.signal.addEventListener("abort", aborted.resolve); regCtl.abort(); started.resolve(); return new Promise(() => {}); } }, { signal: regCtl.signal });
    const t = await find(name), ctl = new AbortController();
    const p = mc().executeTool(t, {}, { signal: ctl.signal });
    await started.promise;
    ctl.abort("caller_cancelled");
    await rejects(p, is("caller_cancelled"), "cancelled");
    await aborted.promise;
  });
  check("nested calls settle although both tools are unregistered meanwhile", async () => {
    const inner = uniq("inner"), outer = uniq("outer"), started = defer(), finish = defer();
    let aborted = 0;
    const i = await reg({ name: inner, execute: async (a, o) => { o.signal.onabort = () => aborted++; oReg.c.abort(); i.c.abort(); started.resolve(); await finish.promise; return "inner_done"; } });
    const oReg = await reg({ name: outer, execute: async (a, o) => { o.signal.onabort = () => aborted++; return "outer:" + await mc().executeTool(await find(inner)); } });
    const p = mc().executeTool(oReg.t);
    await started.promise;
    assert(!(await find(inner)) && !(await find(outer)), "both unregistered");
    finish.resolve();
    eq(await p, "outer:inner_done", "result");
    eq(aborted, 0, "signals aborted");
  });

  wpt("imperative/executeTool-unregister-resolution-race.https.html");
  gap("this older test expects UnknownError where the newer executeTool-self-unregistration and unregister-during-executeTool tests (and native Chromium) deliver the result: the fallback follows the newer ones", () => {
    check("a tool unregistered synchronously right after its promise resolves rejects with UnknownError", async () => {
      const ac = new AbortController(), name = uniq("racy");
      await mc().registerTool({ name, description: "d", execute: async () => new Promise((r) => { r({ status: "resolved" }); ac.abort(); }) }, { signal: ac.signal });
      await rejects(mc().executeTool(await find(name), {}), isDOM("UnknownError"), "racy");
    });
  });
}

// The checks of documents with an opaque origin (a CSP sandbox without allow-same-origin).
wpt("imperative/opaque-origin-tools.https.html", "opaque");
if (SUITE === "imperative") {
  // The newest tests: NotSupportedError, before the next microtask.
  check("an opaque-origin document registers tools, but running them rejects with NotSupportedError at once", async () => {
    eq(self.origin, "null", "origin");
    const { t, c } = await reg({ name: uniq("opaque"), execute: async () => "success" });
    eq(t.origin, "null", "the tool's origin");
    await rejectsAtOnce(mc().executeTool(t, {}), "NotSupportedError");
    c.abort();
  });
}
wpt("imperative/opaque-origin-tools.https.html"); // its check of a normal document
if (SUITE === "imperative") {
  check("a tool object whose origin is no tuple origin is not run: NotSupportedError at once", async () => {
    const { t, c } = await reg({ name: uniq("notuple"), execute: async () => "success" });
    for (const origin of ["null", "not a URL", "data:text/plain,x"]) await rejectsAtOnce(mc().executeTool({ ...t, origin }, {}), "NotSupportedError");
    c.abort();
  });
}

// The checks of documents with document.domain enabled (Origin-Agent-Cluster: ?0).
wpt("imperative/document-domain-enabled.https.html", "document.domain");
if (SUITE === "imperative") gap(domainGap, () => {
  check("registerTool rejects with SecurityError when document.domain is enabled", () =>
    rejects(mc().registerTool({ name: "test_tool", description: "d", execute: () => "x" }), isDOM("SecurityError"), "registerTool"));
  check("getTools rejects with SecurityError when document.domain is enabled", () => rejects(mc().getTools(), isDOM("SecurityError"), "getTools"));
  check("executeTool rejects with SecurityError when document.domain is enabled", () =>
    rejects(mc().executeTool({ name: "dummy", description: "d", window, origin: self.origin }, {}), isDOM("SecurityError"), "executeTool"));
});

// runConformance runs the checks of this page's suite and setting, each within 5 s.
window.runConformance = async ({ all = false } = {}) => {
  if (SETTING === "normal") await WebMCPBridge.ready; // the module checks schemas; elsewhere it may not run
  const out = [];
  for (const { name, fn, wpt: file, setting, gap: why, hang, suite } of checks) {
    if (suite !== SUITE || setting !== SETTING || why && !all) continue;
    const r = { name, wpt: file };
    if (why) r.gap = why;
    if (hang && WebMCPBridge.native) { out.push(Object.assign(r, { ok: false, error: "not run: " + hang })); continue; }
    try {
      await Promise.race([fn(), new Promise((_, rej) => setTimeout(() => rej(new Error("timed out after 5 s")), 5000))]);
      r.ok = true;
    } catch (e) {
      r.ok = false;
      r.error = String(e && e.stack || e);
    }
    out.push(r);
  }
  return out;
};
