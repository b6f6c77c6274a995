// The official MCP TypeScript SDK's client against a webmcp-mcp over stdio: node extclient.mjs
// SDK_DIR TOOL COMMAND ARGS…. It waits for the page tool TOOL (its name ends with TOOL), calls it
// with {"text": "hello"}, then times tools/list and the call (ROUNDS times each), and prints
// {transcript, tools, result, listMs, callMs} as JSON: the transcript is every JSON-RPC message
// of the first list and call, each way.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, tool, command, ...args] = process.argv.slice(2);
const require = createRequire(join(sdkDir, "package.json"));
const load = (p) => import(pathToFileURL(require.resolve("@modelcontextprotocol/sdk/" + p)).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");

const transcript = [];
let recording = true;
const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" });
const send = transport.send.bind(transport);
transport.send = (m, o) => { if (recording) transcript.push({ to: "server", message: m }); return send(m, o); };
let onmessage;
Object.defineProperty(transport, "onmessage", {
  get: () => onmessage,
  set: (f) => { onmessage = (m) => { if (recording) transcript.push({ to: "client", message: m }); f(m); }; },
});
const client = new Client({ name: "extclient", version: "1.0.0" });
await client.connect(transport);

let name;
for (let i = 0; i < 300 && !name; i++) {
  const { tools } = await client.listTools();
  name = tools.map((t) => t.name).find((n) => n === tool || n.endsWith("_" + tool));
  if (!name) await new Promise((r) => setTimeout(r, 100));
}
if (!name) throw new Error("no tool " + tool + " listed");
transcript.length = 0; // the transcript shows one list and one call, once the tools are there
const { tools } = await client.listTools();
const result = await client.callTool({ name, arguments: { text: "hello" } });
recording = false;

const rounds = Number(process.env.ROUNDS || 20);
const time = async (f) => {
  const ms = [];
  for (let i = 0; i < rounds; i++) { const t0 = performance.now(); await f(); ms.push(performance.now() - t0); }
  return ms.sort((a, b) => a - b);
};
const listMs = await time(() => client.listTools());
const callMs = await time(() => client.callTool({ name, arguments: { text: "hello" } }));
await client.close();
console.log(JSON.stringify({ transcript, tools: tools.map((t) => t.name), result, listMs, callMs }));
