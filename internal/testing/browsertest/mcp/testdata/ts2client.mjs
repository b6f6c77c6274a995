// The official MCP TypeScript SDK 2.x client (@modelcontextprotocol/client, installed in
// sdkDir) with version negotiation on: it asks for 2026-07-28 with server/discover.
//
//   node ts2client.mjs SDK_DIR stdio COMMAND ARG…   (spawns webmcp-mcp)
//   node ts2client.mjs SDK_DIR http URL
//
// It lists the tools, calls $TOOL with $ARGS (JSON), and prints one JSON document:
// {version, tools: [names], result}.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, mode, ...rest] = process.argv.slice(2);
const require = createRequire(join(sdkDir, "package.json"));
const load = (p) => import(pathToFileURL(require.resolve(p)).href);
const { Client, StreamableHTTPClientTransport } = await load("@modelcontextprotocol/client");
let transport;
if (mode === "stdio") {
  const { StdioClientTransport } = await load("@modelcontextprotocol/client/stdio");
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
} else {
  transport = new StreamableHTTPClientTransport(new URL(rest[0]));
}
const client = new Client({ name: "webmcp-bridge-ts2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
await client.connect(transport);
const out = { version: client.getNegotiatedProtocolVersion() };
out.tools = (await client.listTools()).tools.map((t) => t.name);
out.result = await client.callTool({ name: process.env.TOOL, arguments: JSON.parse(process.env.ARGS || "{}") });
await client.close();
process.stdout.write(JSON.stringify(out));
