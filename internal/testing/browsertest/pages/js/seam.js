// The typed seam between the page and the module, as a page (and an attacker on it) sees it.
// Each export runs in a page that loaded the bridge (blank.html) and returns plain data for the
// Go test (seam_test.go) to check.

const door = () => WebMCPBridge[Symbol.for("webmcp-bridge.module")];
const stats = async () => JSON.parse((await door().call("stats")).split("\n")[0]);
const GLOBALS = ["__webmcpBridgeGo", "__webmcpBridgeStarted", "__webmcpBridgeServe"];

// reach is what a page script can reach of the module once it runs: the door symbol, and what
// it reads in the globals the module and its server use to start.
export async function reach() {
  await WebMCPBridge.ready;
  await WebMCPBridge.normalize({ type: "html", html: "<b>x</b>" });
  return {
    door: Object.getOwnPropertySymbols(WebMCPBridge).map(String),
    // The bridge keeps the module's globals defined (non-configurable, so no script can take
    // them); what a script can read through them is nothing.
    globals: GLOBALS.filter((g) => globalThis[g] !== undefined),
  };
}

// testDoor is the test build's door at work: its stats export answers.
export async function testDoor() {
  await WebMCPBridge.ready;
  return { schemas: (await stats()).schemas, mode: door().info().mode };
}

// releaseCycles registers a tool with an inputSchema, calls it once (which compiles the schema
// in the module) and aborts it, n times over: the module holds no schema after.
export async function releaseCycles(n) {
  const mc = document.modelContext;
  const schema = { type: "object", properties: { q: { type: "string" } } };
  for (let i = 0; i < n; i++) {
    const ac = new AbortController();
    await mc.registerTool({ name: "cycle", description: "d", inputSchema: schema, execute: ({ q }) => "got " + q }, { signal: ac.signal });
    const r = await WebMCPBridge.agent.callTool("cycle", { q: String(i) });
    if (r.content[0].text !== "got " + i) throw new Error("cycle " + i + ": " + JSON.stringify(r));
    ac.abort();
  }
  await new Promise((r) => setTimeout(r, 50)); // releases are sent without waiting
  return { schemas: (await stats()).schemas, listed: (await mc.getTools()).some((t) => t.name === "cycle") };
}

// crossings counts the requests into the module for one call of each kind: through executeTool
// (as an agent of the browser calls) and through the agent side.
export async function crossings() {
  const mc = document.modelContext;
  const schema = { type: "object", properties: { n: { type: "integer" } } };
  const html = { type: "html", html: "<p>Hi<script>x()</script></p>" };
  await mc.registerTool({ name: "plain", description: "d", execute: () => "hello" });
  await mc.registerTool({ name: "page", description: "d", inputSchema: schema, execute: () => html });
  await mc.registerTool({ name: "fails", description: "d", inputSchema: schema, execute: () => { throw new Error("no"); } });
  await WebMCPBridge.ready;
  const count = async (f) => { const before = door().info().crossings; await f(); return door().info().crossings - before; };
  const tool = async (name) => (await mc.getTools()).find((t) => t.name === name);
  const page = await tool("page"), plain = await tool("plain");
  return {
    plainExecute: await count(() => mc.executeTool(plain, {})),
    schemaExecute: await count(() => mc.executeTool(page, { n: 1 })),
    invalidExecute: await count(() => mc.executeTool(page, { n: "one" })),
    agentCall: await count(() => WebMCPBridge.agent.callTool("page", { n: 1 })),
    agentInvalid: await count(() => WebMCPBridge.agent.callTool("page", { n: "one" })),
    agentFails: await count(() => WebMCPBridge.agent.callTool("fails", {})),
    agentModelInput: await count(async () => WebMCPBridge.agent.toModelInput(await WebMCPBridge.agent.callTool("page", { n: 2 }))),
  };
}

// noisePNG is a PNG of w×h random pixels (barely compressible), as a Blob.
async function noisePNG(w, h) {
  const c = new OffscreenCanvas(w, h), g = c.getContext("2d"), img = g.createImageData(w, h);
  const chunk = new Uint8Array(65536);
  for (let i = 0; i < img.data.length; i += chunk.length) {
    crypto.getRandomValues(chunk);
    img.data.set(chunk.subarray(0, Math.min(chunk.length, img.data.length - i)), i);
  }
  for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
  g.putImageData(img, 0, 0);
  return c.convertToBlob({ type: "image/png" });
}

// bigBinary registers a tool that returns a PNG Blob of 4–5 MB and calls it through the agent
// side, counting what the page's thread does meanwhile: calls of btoa and String.fromCharCode
// (base64 on this thread), and the longest gap between the turns of a ticker.
export async function bigBinary() {
  const blob = await noisePNG(1330, 1000);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  await document.modelContext.registerTool({ name: "chart", description: "a big PNG", execute: () => blob });
  await WebMCPBridge.ready;
  const counts = { btoa: 0, fromCharCode: 0 };
  const btoa = window.btoa, fromCharCode = String.fromCharCode;
  window.btoa = function (...a) { counts.btoa++; return btoa.apply(this, a); };
  String.fromCharCode = function (...a) { counts.fromCharCode++; return fromCharCode.apply(this, a); };
  let last = performance.now(), maxGap = 0, ticking = true;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    if (ticking) channel.port2.postMessage(0);
  };
  channel.port2.postMessage(0);
  let r;
  try {
    r = await WebMCPBridge.agent.callTool("chart", {});
  } finally {
    ticking = false;
    window.btoa = btoa;
    String.fromCharCode = fromCharCode;
  }
  const img = r.content.find((c) => c.type === "image");
  let same = false;
  if (img) {
    const bin = atob(img.data);
    same = bin.length === bytes.length && [0, 1, 2, bytes.length >> 1, bytes.length - 1].every((i) => bin.charCodeAt(i) === bytes[i]);
  }
  return { size: bytes.length, counts, maxGap, mimeType: img && img.mimeType, same, isError: !!r.isError };
}

// longStrings hands the module values that hold a long string of each kind (ASCII, Latin-1,
// CJK, emoji, lone surrogates) and a short one: each comes back as the page's string (lone
// surrogates as U+FFFD); it counts the strings the module read through its server's writer.
export async function longStrings() {
  await WebMCPBridge.ready;
  const kinds = {
    ascii: '<a href="https://example.com/x">y</a> '.repeat(200),
    latin: "naïve café · ".repeat(200),
    cjk: "漢字かな".repeat(600),
    emoji: "😀👍🏽".repeat(400),
    lone: "a\ud800b\udc00".repeat(400) + "\ud800",
    short: "short ☃",
  };
  const before = (await stats()).utf8Strings ?? 0;
  const same = {};
  for (const [kind, s] of Object.entries(kinds)) {
    const r = await WebMCPBridge.normalize({ value: s });
    same[kind] = r.structuredContent?.value === s.toWellFormed();
  }
  return { same, long: ((await stats()).utf8Strings ?? 0) - before, mode: door().info().mode };
}
