// The official MCP TypeScript SDK as a client that probes webmcp-mcp step by step, for the Go
// tests of hostile pages.
//
//   node tsprobe.mjs SDK_DIR stdio COMMAND ARG…   (spawns webmcp-mcp)
//   node tsprobe.mjs SDK_DIR http URL
//
// $STEPS is a JSON array; each step adds one entry to "steps" in the output:
//   {op: "wait", tools: [names]}        waits until every named tool is listed → {found, tools}
//   {op: "list"}                        tools/list → {tools: [...], meta: its _meta, bytes}
//   {op: "call", name, args, progress}  tools/call → {result, bytes, progress: n, changed: n}
//                                       or {error}; progress: true asks for progress
//                                       notifications; changed counts tools/list_changed
//                                       received during the call, ms how long it took
//   {op: "read"}                        resources/read of the first resource_link of the last
//                                       call's result → {result, bytes} or {error}
// The output is one JSON document: {serverInfo, steps, closed, alive}: closed says the
// connection closed under the client; alive that tools/list still answered at the end.
import { connect } from "./tsconnect.mjs";

const [sdkDir, mode, ...rest] = process.argv.slice(2);
let changed = 0;
const out = { serverInfo: null, steps: [], closed: false, alive: false };
let closing = false;
const { client, transport } = await connect(sdkDir, mode, rest, "webmcp-bridge-probe", async (c, load) => {
  const { ToolListChangedNotificationSchema } = await load("types.js");
  c.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed++; });
  c.onclose = () => { if (!closing) out.closed = true; };
});
out.serverInfo = client.getServerVersion();
// Record the size of every response on the wire before the SDK parses it.
const raw = new Map();
const onmessage = transport.onmessage;
transport.onmessage = (m, extra) => {
  if (m && m.id !== undefined && m.result) raw.set(m.id, { result: m.result, bytes: JSON.stringify(m).length });
  onmessage(m, extra);
};
const lastResponse = (before) => raw.get([...raw.keys()].find((k) => !before.has(k))) || {};
let lastLink = "";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

for (const step of JSON.parse(process.env.STEPS || "[]")) {
  const entry = { op: step.op, name: step.name };
  out.steps.push(entry);
  try {
    if (step.op === "wait") {
      for (let i = 0; i < 600 && !entry.found; i++) {
        entry.tools = (await client.listTools()).tools.map((t) => t.name);
        entry.found = step.tools.every((n) => entry.tools.includes(n));
        if (!entry.found) await sleep(100);
      }
    } else if (step.op === "list") {
      const before = new Set(raw.keys());
      const list = await client.listTools();
      entry.tools = list.tools;
      entry.meta = list._meta;
      entry.bytes = lastResponse(before).bytes;
    } else if (step.op === "call") {
      const before = new Set(raw.keys());
      const changedBefore = changed;
      let progress = 0;
      const opts = step.progress ? { onprogress: () => { progress++; }, timeout: 120000 } : { timeout: 120000 };
      const started = Date.now();
      await client.callTool({ name: step.name, arguments: step.args || {} }, undefined, opts);
      const r = lastResponse(before);
      Object.assign(entry, { result: r.result, bytes: r.bytes, progress, changed: changed - changedBefore, ms: Date.now() - started });
      const link = ((r.result && r.result.content) || []).find((c) => c.type === "resource_link");
      lastLink = link ? link.uri : "";
    } else if (step.op === "read") {
      const before = new Set(raw.keys());
      entry.name = lastLink;
      await client.readResource({ uri: lastLink });
      const r = lastResponse(before);
      Object.assign(entry, { result: r.result, bytes: r.bytes });
    }
  } catch (e) {
    entry.error = String(e && e.message || e);
  }
}
try {
  await client.listTools();
  out.alive = !out.closed;
} catch (e) {
  out.alive = false;
}
closing = true;
await client.close();
process.stdout.write(JSON.stringify(out));
