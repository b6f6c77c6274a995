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
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, mode, ...rest] = process.argv.slice(2);
const require = createRequire(join(sdkDir, "package.json"));
const load = (p) => import(pathToFileURL(require.resolve("@modelcontextprotocol/sdk/" + p)).href);
const { Client } = await load("client/index.js");
const { CallToolResultSchema, ToolListChangedNotificationSchema } = await load("types.js");

let transport;
if (mode === "stdio") {
  const { StdioClientTransport } = await load("client/stdio.js");
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
} else {
  const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(rest[0]));
}
const client = new Client({ name: "webmcp-bridge-tests", version: "1.0.0" });
let listChanged = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => { listChanged++; });
await client.connect(transport);
// Record every result on the wire before the SDK parses it.
const raw = new Map();
const onmessage = transport.onmessage;
transport.onmessage = (m, extra) => { if (m && m.id !== undefined && m.result) raw.set(m.id, m.result); onmessage(m, extra); };

const out = { protocol: transport.protocolVersion || null, tools: [], results: {}, schemaErrors: [], listChanged: false, toolsAfter: [] };
out.tools = (await client.listTools()).tools.map((t) => t.name);
const calls = JSON.parse(process.env.CALLS || "{}");
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
  await client.callTool({ name: "register_more", arguments: {} });
  for (let i = 0; i < 100 && !listChanged; i++) await new Promise((r) => setTimeout(r, 50));
  out.listChanged = listChanged > 0;
  out.toolsAfter = (await client.listTools()).tools.map((t) => t.name);
}
await client.close();
process.stdout.write(JSON.stringify(out));
