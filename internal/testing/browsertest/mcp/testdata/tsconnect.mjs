// connect starts the official MCP TypeScript SDK's client (installed in sdkDir) against
// webmcp-mcp: mode "stdio" spawns rest[0] with the arguments rest[1:], mode "http" connects to
// the streamable HTTP URL rest[0]. It returns {client, transport, load} (load imports a module
// of the SDK) with handlers set before the connection starts (setup(client, load)).
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export async function connect(sdkDir, mode, rest, name, setup) {
  const require = createRequire(join(sdkDir, "package.json"));
  const load = (p) => import(pathToFileURL(require.resolve("@modelcontextprotocol/sdk/" + p)).href);
  const { Client } = await load("client/index.js");
  let transport;
  if (mode === "stdio") {
    const { StdioClientTransport } = await load("client/stdio.js");
    // $PROBE_CWD: the directory the server starts in (default: this process's).
    transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit", cwd: process.env.PROBE_CWD || undefined });
  } else {
    const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
    transport = new StreamableHTTPClientTransport(new URL(rest[0]));
  }
  const client = new Client({ name, version: "1.0.0" });
  await setup(client, load);
  await client.connect(transport);
  return { client, transport, load };
}
