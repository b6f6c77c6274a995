// A page as the bridge's extension serves it (extension_test.go, extension_hostile_test.go):
// pages that never load the bridge themselves. Each export runs in the page and returns plain
// data for the Go test to check. (pages/js/panel.js runs in the extension's side panel.)

// until polls f every 20 ms and resolves true once f returns something truthy, or false after ms
// milliseconds.
const until = (f, ms = 5000) => new Promise((r) => {
  const t0 = Date.now();
  const t = setInterval(() => { const v = f(); if (v || Date.now() - t0 > ms) { clearInterval(t); r(!!v); } }, 20);
});

// plainResults calls plain.html's hello and rich tools through the browser's own executeTool and
// answers the CallToolResults their strings parse to.
export async function plainResults() {
  await window.registered;
  const tools = await document.modelContext.getTools();
  const run = async (n) => JSON.parse(await document.modelContext.executeTool(tools.find((t) => t.name === n), {}));
  return { hello: await run("hello"), rich: await run("rich") };
}

// forgedRelay offers the page a relay port with a guessed secret, as a page script could, and
// answers whether anything answered on it, and whether the page has chrome.runtime messaging.
export async function forgedRelay() {
  const ch = new MessageChannel();
  let answered = false;
  ch.port1.onmessage = () => { answered = true; };
  window.postMessage({ webmcpBridgeRelay: true, secret: "0-0-0-0" }, "*", [ch.port2]);
  ch.port1.postMessage({ id: 1, secret: "0-0-0-0", op: "list" });
  await new Promise((r) => setTimeout(r, 300));
  return { answered, runtime: !!(globalThis.chrome && chrome.runtime && chrome.runtime.sendMessage) };
}

// registerLater registers a tool named "later" after the panel has listed the page's tools.
export async function registerLater() {
  await document.modelContext.registerTool({ name: "later", description: "registered after the list", execute: () => "later" });
  return true;
}

// clobbered answers what clobber.html caught of the relay's hand-off (leaks, the secret's
// attribute, a stolen port) and whether window.WebMCPBridge is the bridge.
export async function clobbered() {
  await window.registered;
  return {
    leaks: window.leaks, attribute: window.attribute, stolen: "stolenPort" in window,
    bridge: typeof WebMCPBridge.agent === "object" && WebMCPBridge instanceof Element === false,
  };
}

// withoutModule answers, on csp-plain.html under a CSP without 'wasm-unsafe-eval', whether
// registration worked, the strings its hello and data tools resolve to, and the page's console
// warnings about the bridge (waiting up to 3 s for one).
export async function withoutModule() {
  const registered = await window.registered.then(() => "ok", (e) => "rejected: " + e);
  const tools = await document.modelContext.getTools();
  const hello = await document.modelContext.executeTool(tools.find((t) => t.name === "hello"), {});
  const data = await document.modelContext.executeTool(tools.find((t) => t.name === "data"), {});
  await until(() => window.warnings.some((w) => w.includes("webmcp-bridge")), 3000);
  return { registered, hello, data, warnings: window.warnings.filter((w) => w.includes("webmcp-bridge")) };
}

// underServiceWorker (sw.html, controlled by its service worker that answers every URL naming
// webmcp-bridge) calls rich through the browser's executeTool, registers a tool whose schema the
// bridge refuses on the page, and answers how ready ended, the call's outcome, how registerTool
// ended, every URL the service worker was asked, and whether a script of its own ran.
export async function underServiceWorker() {
  const step = (name, p) => Promise.race([p, new Promise((_, no) => setTimeout(() => no(new Error("no answer: " + name)), 10000))]);
  await window.controlled;
  await window.registered;
  const ready = await step("ready", WebMCPBridge.ready).then(() => "started", (e) => String(e.message || e));
  const tools = await document.modelContext.getTools();
  const rich = await step("rich", document.modelContext.executeTool(tools.find((t) => t.name === "rich"), {})).then(
    () => "answered", (e) => String(e.message || e));
  const refused = await document.modelContext.registerTool({ name: "nonsense", description: "d", execute: () => "x",
    inputSchema: { type: "object", properties: { q: { type: "nonsense-type" } } } }).then(() => "registered", (e) => e.name);
  const ch = new MessageChannel();
  const seen = new Promise((r) => (ch.port1.onmessage = (e) => r(e.data)));
  navigator.serviceWorker.controller.postMessage("seen", [ch.port2]);
  return { ready, rich, refused, seen: await step("seen", seen), forged: !!self.swForged, controlled: !!navigator.serviceWorker.controller };
}

// clobberedLoose is clobbered without waiting for the page's tool (in Firefox the page's first
// script may run before the bridge defines navigator.modelContext), after a moment for the
// hand-off to happen.
export async function clobberedLoose() {
  await new Promise((r) => setTimeout(r, 500));
  return {
    leaks: window.leaks, attribute: window.attribute, stolen: "stolenPort" in window,
    bridge: typeof WebMCPBridge === "object" && typeof WebMCPBridge.agent === "object",
  };
}
