// Checks of the WebMCP draft behaviours that the web-platform-tests webmcp/imperative suite
// covers for one document, written for this project. runConformance() returns one
// {name, ok, error} per check; the Go browser test reports each as a subtest.
"use strict";
const checks = [];
const check = (name, fn) => checks.push({ name, fn });
const mc = () => document.modelContext;
function assert(cond, msg) { if (!cond) throw new Error("assertion failed: " + msg); }
function eq(a, b, msg) { if (a !== b) throw new Error(`${msg}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`); }
async function rejects(p, test, msg) {
  try { await p; } catch (e) { test(e); return e; }
  throw new Error(msg + ": did not reject");
}
const isDOM = (name) => (e) => { assert(e instanceof DOMException, `a DOMException, got ${e}`); eq(e.name, name, "DOMException name"); };
const isType = (e) => assert(e instanceof TypeError, `a TypeError, got ${e && e.name}: ${e && e.message}`);
let n = 0;
const uniq = (p) => `${p}_${++n}`;
async function reg(tool, signal) {
  const c = new AbortController();
  await mc().registerTool({ description: "d", ...tool }, { signal: signal || c.signal });
  const t = (await mc().getTools()).find((x) => x.name === tool.name);
  return { t, c };
}

check("navigator.modelContext is document.modelContext", () => eq(navigator.modelContext, document.modelContext, "same object"));
check("the ModelContext is an EventTarget", () => assert(mc() instanceof EventTarget, "EventTarget"));

check("registerTool resolves undefined and getTools lists the tool", async () => {
  const name = uniq("listed");
  const c = new AbortController();
  const r = await mc().registerTool({ name, title: "T", description: "desc", inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, execute: () => "x" }, { signal: c.signal });
  eq(r, undefined, "registerTool result");
  const t = (await mc().getTools()).find((x) => x.name === name);
  eq(t.title, "T", "title"); eq(t.description, "desc", "description");
  eq(JSON.parse(t.inputSchema).type, "object", "inputSchema is JSON text");
  eq(t.window, window, "window"); eq(t.origin, location.origin, "origin");
  eq(t.annotations.readOnlyHint, true, "annotations");
  c.abort();
});

for (const bad of ["", "a b", "x".repeat(129), "ünï", "a/b"]) {
  check(`registerTool rejects the name ${JSON.stringify(bad.length > 20 ? bad.slice(0, 8) + "…" : bad)} with InvalidStateError`, () =>
    rejects(mc().registerTool({ name: bad, description: "d", execute: () => 1 }), isDOM("InvalidStateError"), "bad name"));
}
check("registerTool accepts a 128-character name of the allowed characters", async () => {
  const name = ("Az09_.-" + "x".repeat(200)).slice(0, 128);
  const c = new AbortController();
  await mc().registerTool({ name, description: "d", execute: () => 1 }, { signal: c.signal });
  c.abort();
});
check("registerTool rejects a duplicate name with InvalidStateError", async () => {
  const name = uniq("dup");
  const { c } = await reg({ name, execute: () => 1 });
  await rejects(mc().registerTool({ name, description: "d", execute: () => 2 }), isDOM("InvalidStateError"), "duplicate");
  c.abort();
});
check("registerTool with an already-aborted signal rejects with its reason", () =>
  rejects(mc().registerTool({ name: uniq("aborted"), description: "d", execute: () => 1 }, { signal: AbortSignal.abort("why") }), (e) => eq(e, "why", "reason"), "aborted"));
check("aborting the registration signal unregisters the tool and fires toolchange", async () => {
  const name = uniq("gone");
  const { c } = await reg({ name, execute: () => 1 });
  let changes = 0;
  const h = () => changes++;
  mc().addEventListener("toolchange", h);
  c.abort();
  mc().removeEventListener("toolchange", h);
  eq(changes, 1, "toolchange events");
  assert(!(await mc().getTools()).some((x) => x.name === name), "tool gone");
  await mc().registerTool({ name, description: "d", execute: () => 1 }, { signal: AbortSignal.abort() }).catch(() => {});
});
check("the name is free again after unregistration", async () => {
  const name = uniq("again");
  const first = await reg({ name, execute: () => 1 });
  first.c.abort();
  const second = await reg({ name, execute: () => 2 });
  eq(await mc().executeTool(second.t), "2", "second tool runs");
  second.c.abort();
});

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

check("executeTool with no input passes {} and a string result passes through", async () => {
  let got;
  const { t, c } = await reg({ name: uniq("noinput"), execute: (a) => { got = a; return "Success"; } });
  eq(await mc().executeTool(t), "Success", "result");
  eq(JSON.stringify(got), "{}", "input");
  eq(await mc().executeTool(t, undefined), "Success", "undefined input");
  c.abort();
});
check("executeTool accepts arrays and rejects primitives, null and toJSON→undefined with TypeError", async () => {
  let got;
  const { t, c } = await reg({ name: uniq("args"), execute: (a) => { got = a; return "Success"; } });
  eq(await mc().executeTool(t, [1, 2, 3]), "Success", "array");
  eq(JSON.stringify(got), "[1,2,3]", "array input");
  for (const bad of ["hello", 123, true, null, { toJSON: () => undefined }]) await rejects(mc().executeTool(t, bad), isType, JSON.stringify(bad));
  c.abort();
});
check("an object result is JSON-stringified", async () => {
  const { t, c } = await reg({ name: uniq("obj"), execute: () => ({ ok: 1 }) });
  eq(await mc().executeTool(t), '{"ok":1}', "result");
  c.abort();
});
check("a throwing tool rejects with UnknownError", async () => {
  const { t, c } = await reg({ name: uniq("throws"), execute: () => { throw new Error("secret"); } });
  await rejects(mc().executeTool(t), isDOM("UnknownError"), "throws");
  c.abort();
});
check("executeTool with a tool object missing origin rejects with TypeError", async () => {
  const { t, c } = await reg({ name: uniq("noorigin"), execute: () => 1 });
  await rejects(mc().executeTool({ name: t.name, description: t.description, window }, {}), isType, "no origin");
  c.abort();
});
check("executeTool with an unknown tool rejects with UnknownError", () =>
  rejects(mc().executeTool({ name: "non-existent", description: "d", window, origin: location.origin }, {}), isDOM("UnknownError"), "unknown"));

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
check("a valid complex schema (prefixItems, items, additionalProperties:false) runs the tool", async () => {
  const inputSchema = { type: "object", properties: { count: { type: "integer", minimum: 1, maximum: 10 }, name: { type: "string", minLength: 1, maxLength: 20 },
    tags: { type: "array", prefixItems: [{ type: "string" }], items: { type: "string" } }, mode: { type: "string", enum: ["a", "b"] } }, required: ["count", "name", "tags"], additionalProperties: false };
  const { t, c } = await reg({ name: uniq("complex"), inputSchema, execute: (a) => JSON.stringify(a) });
  eq(JSON.parse(await mc().executeTool(t, { count: 5, name: "hello", tags: ["x", "y"], mode: "a" })).count, 5, "count");
  c.abort();
});

check("the tool gets a non-aborted AbortSignal when the caller passes none", async () => {
  let s;
  const { t, c } = await reg({ name: uniq("sig"), execute: (a, o) => { s = o.signal; return "ok"; } });
  await mc().executeTool(t);
  assert(s instanceof AbortSignal && !s.aborted, "signal");
  c.abort();
});
check("caller abort: rejection with the caller's reason, then the tool's AbortError, then toolcancel", async () => {
  const name = uniq("abort");
  const events = [];
  let started, toolReason;
  const startedP = new Promise((r) => (started = r));
  const { t, c } = await reg({ name, execute: (a, o) => new Promise(() => { o.signal.onabort = () => { toolReason = o.signal.reason; events.push("signal_aborted"); }; events.push("tool started"); started(); }) });
  const activated = [];
  const onAct = (e) => { activated.push(e); events.push("toolactivated"); };
  window.addEventListener("toolactivated", onAct);
  let mcEvent;
  const onMc = (e) => { mcEvent = e; };
  mc().addEventListener("toolactivated", onMc);
  const cancelled = new Promise((r) => window.addEventListener("toolcancel", (e) => { eq(e.toolName, name, "toolcancel toolName"); events.push("toolcancel"); r(); }, { once: true }));
  const ctl = new AbortController();
  const p = mc().executeTool(t, {}, { signal: ctl.signal });
  await startedP;
  await new Promise((r) => setTimeout(r));
  window.removeEventListener("toolactivated", onAct);
  mc().removeEventListener("toolactivated", onMc);
  assert(mcEvent instanceof ToolActivatedEvent, "ToolActivatedEvent at the ModelContext");
  eq(mcEvent.target, mc(), "event target"); eq(mcEvent.toolName, name, "toolName");
  assert(!mcEvent.bubbles && !mcEvent.cancelable && !mcEvent.composed, "plain event");
  ctl.abort("custom cancellation reason");
  let reason;
  await Promise.all([p.catch((e) => { reason = e; events.push("execution_rejected"); }), cancelled]);
  eq(JSON.stringify(events), JSON.stringify(["tool started", "toolactivated", "execution_rejected", "signal_aborted", "toolcancel"]), "order");
  eq(reason, "custom cancellation reason", "reason");
  assert(toolReason instanceof DOMException && toolReason.name === "AbortError", "the tool's signal aborts with AbortError");
  c.abort();
});
check("an already-aborted call signal rejects before the next microtask", async () => {
  const { t, c } = await reg({ name: uniq("pre"), execute: () => { throw new Error("must not run"); } });
  let got = null;
  mc().executeTool(t, {}, { signal: AbortSignal.abort("already aborted") }).catch((e) => (got = e));
  await Promise.resolve();
  eq(got, "already aborted", "reason");
  c.abort();
});
check("a call stays rejected when the tool resolves after the abort", async () => {
  let resolveTool;
  const late = new Promise((r) => (resolveTool = r));
  const { t, c } = await reg({ name: uniq("late"), execute: (a, o) => { o.signal.onabort = () => resolveTool("late"); return late; } });
  const ctl = new AbortController();
  const p = mc().executeTool(t, {}, { signal: ctl.signal });
  await new Promise((r) => setTimeout(r));
  ctl.abort();
  await rejects(p, isDOM("AbortError"), "late");
  eq(await late, "late", "late value");
  c.abort();
});
check("concurrent calls of one tool have independent signals", async () => {
  const signals = [];
  let count = 0, done2;
  const second = new Promise((r) => (done2 = r));
  const { t, c } = await reg({ name: uniq("conc"), execute: (a, o) => { signals.push(o.signal); return ++count === 1 ? new Promise(() => {}) : second; } });
  const c1 = new AbortController(), c2 = new AbortController();
  const p1 = mc().executeTool(t, {}, { signal: c1.signal });
  const p2 = mc().executeTool(t, {}, { signal: c2.signal });
  await new Promise((r) => setTimeout(r, 10));
  c1.abort("cancel 1");
  await rejects(p1, (e) => eq(e, "cancel 1", "reason"), "first");
  await new Promise((r) => setTimeout(r));
  assert(signals[0].aborted && !signals[1].aborted, "independent");
  done2("exec2 result");
  eq(await p2, "exec2 result", "second result");
  c.abort();
});
check("a tool that unregisters itself mid-run still delivers its result", async () => {
  const name = uniq("self");
  const ac = new AbortController();
  await mc().registerTool({ name, description: "d", execute: async () => { ac.abort(); return { status: "resolved" }; } }, { signal: ac.signal });
  const t = (await mc().getTools()).find((x) => x.name === name);
  eq(await mc().executeTool(t), '{"status":"resolved"}', "result");
  assert(!(await mc().getTools()).some((x) => x.name === name), "unregistered");
});
check("a tool that unregisters another tool mid-run is unaffected", async () => {
  const other = await reg({ name: uniq("bystander"), execute: () => "b" });
  const self = await reg({ name: uniq("unregisters"), execute: async () => { other.c.abort(); return { status: "resolved" }; } });
  eq(await mc().executeTool(self.t), '{"status":"resolved"}', "result");
  const names = (await mc().getTools()).map((x) => x.name);
  assert(!names.includes(other.t.name) && names.includes(self.t.name), "only the bystander is gone");
  self.c.abort();
});

window.runConformance = async () => {
  await WebMCPBridge.ready;
  const out = [];
  for (const { name, fn } of checks) {
    try {
      await Promise.race([fn(), new Promise((_, rej) => setTimeout(() => rej(new Error("timed out after 5 s")), 5000))]);
      out.push({ name, ok: true });
    } catch (e) {
      out.push({ name, ok: false, error: String(e && e.stack || e) });
    }
  }
  return out;
};
