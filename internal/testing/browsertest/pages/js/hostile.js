// A hostile page against the module: output the module must refuse rather than die on, a module
// that dies anyway, and a page where the module cannot run at all. Each export runs in a page
// that loaded the bridge (tools.html, or csp.html under a CSP) and returns plain data for
// hostile_test.go to check; the test build's door gives the module's stats.

const door = () => WebMCPBridge[Symbol.for("webmcp-bridge.module")];

// goStats reads the test build's Go heap and goroutine counts.
const goStats = async () => JSON.parse(await door().call("stats"));

// deepOutput answers what output nested 9,500 levels deep becomes: as raw executeTool text (1,000
// calls through the agent side) and as a tool's JS value, and what the module's own decoder says
// of it; with the module's stats before and after, and whether it is still the same module.
export async function deepOutput() {
  await window.registered;
  const mc = document.modelContext;
  let value = [];
  for (let i = 0; i < 9500; i++) value = [value];
  await mc.registerTool({ name: "deep_value", description: "returns a deep value", execute: () => value });
  const M = door();
  const before = await goStats();
  const gen = M.info().generation;
  mc.executeTool = async () => "[".repeat(9500) + "]".repeat(9500);
  let raw;
  for (let i = 0; i < 1000; i++) raw = await WebMCPBridge.agent.callTool("text", {});
  delete mc.executeTool;
  const end = await goStats();
  const deep = await WebMCPBridge.agent.callTool("deep_value", {});
  const direct = await M.call("normalize", "[".repeat(9500) + "]".repeat(9500), "", [], false);
  const after = await WebMCPBridge.agent.callTool("text", {});
  return {
    Raw: raw.content[0].text, RawError: raw.isError === true, Value: deep.content[0].text, ValueError: deep.isError === true,
    Direct: direct, After: after.content[0].text, Before: before, End: end, SameModule: gen === M.info().generation,
  };
}

// oversizedOutput calls tools whose results are far over maxResultBytes or maxImageBytes, and
// raw executeTool text of 20 MiB, and answers each result with the time it took to refuse it,
// the module's stats before and after, and whether it is still the same module.
export async function oversizedOutput() {
  await window.registered;
  const mc = document.modelContext;
  const big = {
    accents: () => ({ a: "é".repeat(100e6) }),
    sparse: () => new Array(1e7),
    blob: () => new Blob([new Uint8Array(100e6)], { type: "image/png" }),
    blobInArray: () => [new Blob([new Uint8Array(100e6)], { type: "image/png" }), "caption"],
  };
  for (const [name, execute] of Object.entries(big)) await mc.registerTool({ name, description: name, execute });
  const M = door();
  const before = await goStats();
  const gen = M.info().generation;
  const Results = {}, Ms = {};
  for (const name of Object.keys(big)) {
    const t0 = performance.now();
    const r = await WebMCPBridge.agent.callTool(name, {});
    Ms[name] = performance.now() - t0;
    Results[name] = { isError: r.isError === true, text: r.content[0].text };
  }
  mc.executeTool = async () => "x".repeat(20 << 20);
  const t0 = performance.now();
  const r = await WebMCPBridge.agent.callTool("text", {});
  Ms.rawText = performance.now() - t0;
  Results.rawText = { isError: r.isError === true, text: r.content[0].text };
  delete mc.executeTool;
  return { Results, Ms, Before: before, End: await goStats(), SameModule: gen === M.info().generation };
}

// restartAfterCrash makes the module die in a call (the test build's crashForTest stands in for
// normalize) under a page policy of maxTableRows 1, and answers the crashed call, the calls after
// it, and the module generations; then it does it once more.
export async function restartAfterCrash() {
  await window.registered;
  await WebMCPBridge.configure({ maxTableRows: 1 });
  const M = door();
  const first = M.info().generation;
  await M.call("alias", "normalize", "crashForTest"); // the next normalize ends the module
  const crashed = await WebMCPBridge.agent.callTool("data", {});
  const after = await WebMCPBridge.agent.callTool("data", {});
  const truncated = (await WebMCPBridge.normalize({ type: "table", headers: ["a"], rows: [[1], [2]] })).content.map((c) => c.text).find((t) => t && t.startsWith("[table"));
  const valid = await WebMCPBridge.agent.callTool("typed", { color: "red" });
  const invalid = await WebMCPBridge.agent.callTool("typed", { color: "blue" });
  const second = M.info().generation;
  await M.call("alias", "normalize", "crashForTest");
  await WebMCPBridge.agent.callTool("data", {});
  const third = await WebMCPBridge.agent.callTool("data", {});
  return {
    Crashed: crashed, After: after, Truncated: truncated, Valid: valid, Invalid: invalid,
    MaxTableRows: WebMCPBridge.policy.maxTableRows, NewModule: first !== second,
    SecondAlive: !third.isError && second !== M.info().generation, Mode: M.info().mode,
  };
}

// withoutModule answers, on csp.html under a CSP without 'wasm-unsafe-eval', how ready settles,
// whether registration worked, what three tools answer through executeTool, and what the page was
// told (its console warnings about the bridge, its violations).
export async function withoutModule() {
  const ready = await WebMCPBridge.ready.then(() => "resolved", (e) => e.message);
  const registered = await window.registered.then(() => "ok", (e) => "rejected: " + e);
  const mc = document.modelContext;
  const tools = await mc.getTools();
  const run = (name, args) => mc.executeTool(tools.find((t) => t.name === name), args);
  return {
    Ready: ready, Registered: registered, Hello: await run("hello", {}), Data: await run("data", {}),
    Typed: await run("typed", { color: "red" }),
    Warnings: window.warnings.filter((w) => w.includes("webmcp-bridge")), Violations: window.violations,
  };
}

// tenRestarts makes ten modules die in a call, one after another, and answers whether each call
// was an isError result, the generation after, and the first and the last module's stats (-1
// goroutines if the last module's call failed).
export async function tenRestarts() {
  await window.registered;
  const M = door();
  await WebMCPBridge.ready;
  const first = await goStats();
  const crashed = [];
  for (let i = 0; i < 10; i++) {
    await M.call("alias", "normalize", "crashForTest");
    crashed.push((await WebMCPBridge.agent.callTool("data", {})).isError === true);
  }
  const after = await WebMCPBridge.agent.callTool("data", {});
  const last = await goStats();
  return {
    Crashed: crashed, Gen: M.info().generation, FirstHeap: first.heapAlloc, LastHeap: last.heapAlloc,
    First: first.goroutines, Last: after.isError ? -1 : last.goroutines,
  };
}

// whereModuleRuns answers how ready settles, where the module runs ("worker" or "main"), a
// result that needs it, and the page's console warnings about the bridge (csp.html).
export async function whereModuleRuns() {
  await window.registered;
  const ready = await WebMCPBridge.ready.then(() => "resolved", (e) => e.message);
  const data = await WebMCPBridge.agent.callTool("data", {});
  return { Ready: ready, Where: door().info().mode, Data: data, Warnings: window.warnings.filter((w) => w.includes("webmcp-bridge")) };
}

// schemaRefused registers a tool whose schema the bridge cannot enforce (a lookahead pattern)
// and answers the rejection, whether the tool is listed, and the result of a tool that returns
// [a PNG Blob, "a black square"].
export async function schemaRefused() {
  await window.registered;
  const mc = document.modelContext;
  let error = "";
  await mc.registerTool({
    name: "lookahead", description: "d", inputSchema: { type: "object", properties: { p: { type: "string", pattern: "^(?=.*\\d)\\w+$" } } },
    execute: () => "x",
  }).catch((e) => { error = e.name + ": " + e.message; });
  const listed = (await mc.getTools()).some((t) => t.name === "lookahead");
  await mc.registerTool({
    name: "captioned", description: "d", execute: async () => {
      const c = document.createElement("canvas"); c.width = 4; c.height = 4; c.getContext("2d").fillRect(0, 0, 4, 4);
      return [await new Promise((r) => c.toBlob(r, "image/png")), "a black square"];
    },
  });
  const r = await WebMCPBridge.agent.callTool("captioned", {});
  return { Error: error, Listed: listed, Caption: r.content };
}

// workerPatched patches what the loader's Worker path uses, after the loader ran and before the
// module starts (tools.html starts it on the first call), and answers what the html and typed
// tools give through executeTool and the agent side, and how often a patch was called: patch
// "data" rewrites MessageEvent.prototype.data, "postMessage" Worker.prototype.postMessage,
// "Worker" replaces window.Worker with a fake module, "addEventListener" rewrites every message
// listener a Worker gets. Each turns a refused argument into a valid one and sanitized HTML
// into an <img onerror>, when the loader goes through it.
export async function workerPatched(patch) {
  await window.registered;
  const forged = "<img src=x onerror=alert(1)>";
  let calls = 0;
  const forge = (a) => {
    if (!a || typeof a.out !== "string") return a;
    calls++;
    const out = a.out.includes('"invalid"') ? "{}\n" : a.out.replace("<p>Hi <b>there</b></p>", forged);
    return { ...a, out };
  };
  if (patch === "data") {
    const get = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data").get;
    Object.defineProperty(MessageEvent.prototype, "data", { configurable: true, get() { return forge(get.call(this)); } });
  } else if (patch === "postMessage") {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (req, transfer) {
      calls++;
      if (req && req.op === "validate") req = { ...req, args: "{}" };
      return post.call(this, req, transfer);
    };
  } else if (patch === "addEventListener") {
    const add = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (type, f, o) {
      if (this instanceof Worker && type === "message") {
        calls++;
        return add.call(this, type, (e) => f.call(this, { data: forge(e.data) }), o);
      }
      return add.call(this, type, f, o);
    };
    const set = Object.getOwnPropertyDescriptor(Worker.prototype, "onmessage").set;
    Object.defineProperty(Worker.prototype, "onmessage", { configurable: true, set(f) { calls++; set.call(this, (e) => f.call(this, { data: forge(e.data) })); } });
  } else if (patch === "Worker") {
    const Real = Worker;
    window.Worker = class extends Real {
      constructor(...a) { super(...a); calls++; }
      set onmessage(f) { calls++; super.onmessage = (e) => f.call(this, { data: forge(e.data) }); }
    };
  }
  const mc = document.modelContext;
  const tools = await mc.getTools();
  const exec = await mc.executeTool(tools.find((t) => t.name === "html"), {});
  const typed = await WebMCPBridge.agent.callTool("typed", { color: "blue" });
  const html = await WebMCPBridge.agent.callTool("html", {});
  return { Exec: exec, Typed: typed, HTML: JSON.stringify(html), Calls: calls, Mode: door().info().mode };
}

// preloaderPatched (preloader.html, the module on the page's thread) calls a tool through the
// agent side and answers its text, where the module ran, whether the module's global can be
// redefined or read now, and what the page's scripts before and after the loader caught.
export async function preloaderPatched() {
  await window.registered;
  const r = await WebMCPBridge.agent.callTool("text", {});
  let redefined = "refused";
  try {
    Object.defineProperty(globalThis, "__webmcpBridgeGo", { set() { caught.exports++; } });
    redefined = "redefined";
  } catch { /* non-configurable: the bridge's */ }
  return { Text: r.content[0].text, Mode: door().info().mode, Redefined: redefined, Read: String(globalThis.__webmcpBridgeGo), Caught: caught };
}

// costlyArguments (pagethread.html) calls tools with arguments that would stall the module or
// that hold a lone surrogate, and answers each result's text, where the module ran and how often
// a tool's execute ran; what a registerTool of a pattern with an absurd repetition product gives.
export async function costlyArguments() {
  await window.registered;
  const text = async (name, args) => {
    const t0 = performance.now();
    const r = await WebMCPBridge.agent.callTool(name, args);
    return { text: r.content[0].text, isError: r.isError === true, ms: performance.now() - t0 };
  };
  const short = await text("email", { e: "a@b" }); // first: the module starts in it
  const email = await text("email", { e: "a".repeat(100000) + "@b" });
  const huge = await text("email", { e: "x".repeat(2 << 20) });
  const many = await text("email", { e: "a@b", n: new Array(30000).fill(1) });
  const surrogate = await text("choice", { s: "ok\uD800" });
  const absurd = await document.modelContext.registerTool({
    name: "absurd", description: "d", execute: () => "x", inputSchema: { type: "object", properties: { p: { type: "string", pattern: "[a-z]{1000}!" } } },
  }).then(() => "registered", (e) => e.name + ": " + e.message);
  return { Email: email, Short: short, Huge: huge, Many: many, Surrogate: surrogate, Absurd: absurd, Executed: window.executed, Mode: door().info().mode };
}
