// Checks CallToolResults with the official MCP TypeScript SDK's CallToolResultSchema.
//   node tsschema.mjs SDK_DIR < results.json     ({name: result, …})
// prints {checked, errors: [{name, error}]}.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir] = process.argv.slice(2);
const require = createRequire(join(sdkDir, "package.json"));
const { CallToolResultSchema } = await import(pathToFileURL(require.resolve("@modelcontextprotocol/sdk/types.js")).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input);
const out = { checked: 0, errors: [] };
for (const [name, r] of Object.entries(results)) {
  out.checked++;
  const p = CallToolResultSchema.safeParse(r);
  if (!p.success) out.errors.push({ name, error: String(p.error) });
}
process.stdout.write(JSON.stringify(out));
