// The official MCP TypeScript SDK as a client of webmcp-mcp, for the Go tests.
//
//   node tsclient.mjs SDK_DIR stdio COMMAND ARG…   (spawns webmcp-mcp)
//   node tsclient.mjs SDK_DIR http URL
//
// It lists the tools, calls each tool named in $CALLS (a JSON object {name: args}), then calls
// register_more and waits for tools/list_changed. Every message the server sends is recorded
// before the SDK reads it; every tools/call result is checked with the SDK's own
// CallToolResultSchema. It prints one JSON document: {tools, results: {name: raw result},
// schemaErrors: [..], listChanged, toolsAfter}.
import { connect } from "./tsconnect.mjs";

const [sdkDir, mode, ...rest] = process.argv.slice(2);
let listChanged = 0;
let CallToolResultSchema;
const { client, transport } = await connect(sdkDir, mode, rest, "webmcp-bridge-tests", async (c, load) => {
  const types = await load("types.js");
  CallToolResultSchema = types.CallToolResultSchema;
  c.setNotificationHandler(types.ToolListChangedNotificationSchema, () => { listChanged++; });
});
// Record every result on the wire before the SDK parses it.
const raw = new Map();
const onmessage = transport.onmessage;
transport.onmessage = (m, extra) => { if (m && m.id !== undefined && m.result) raw.set(m.id, m.result); onmessage(m, extra); };

const out = { protocol: transport.protocolVersion || null, tools: [], results: {}, schemaErrors: [], listChanged: false, toolsAfter: [] };
const calls = JSON.parse(process.env.CALLS || "{}");
// Pages open while the server already answers: wait until every tool to call (and
// register_more) is listed.
for (let i = 0; i < 600; i++) {
  out.tools = (await client.listTools()).tools.map((t) => t.name);
  if ([...Object.keys(calls), "register_more"].every((n) => out.tools.includes(n))) break;
  await new Promise((r) => setTimeout(r, 100));
}
for (const [name, args] of Object.entries(calls)) {
  const before = new Set(raw.keys());
  const r = await client.callTool({ name, arguments: args });
  const id = [...raw.keys()].find((k) => !before.has(k));
  const wire = raw.get(id);
  out.results[name] = wire;
  const parsed = CallToolResultSchema.safeParse(wire);
  if (!parsed.success) out.schemaErrors.push({ name, error: String(parsed.error) });
  if (!r || !Array.isArray(r.content)) out.schemaErrors.push({ name, error: "the SDK's callTool gave no content" });
}
if (out.tools.includes("register_more")) {
  listChanged = 0;
  await client.callTool({ name: "register_more", arguments: {} });
  for (let i = 0; i < 200 && !out.toolsAfter.includes("later"); i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (listChanged) out.toolsAfter = (await client.listTools()).tools.map((t) => t.name);
  }
  out.listChanged = listChanged > 0;
}
await client.close();
process.stdout.write(JSON.stringify(out));
