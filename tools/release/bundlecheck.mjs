// bundlecheck.mjs tries an unpacked MCP Bundle as an MCPB host runs it: its server started with
// the command, arguments and environment that mcpb's own getMcpConfigForManifest computes from
// the manifest and the user's settings on this platform. It answers -version and an MCP
// client's initialize and tools/list in both modes, and with its defaults (a Chromium of its
// own, $CHROMIUM) and a page to open on loopback given as the "pages" setting, the client lists
// the page's tools and calls them: a plain text result, and HTML that comes back sanitized.
// check.mjs runs it on the packed bundle; `make installed` on the Linux pieces alone:
//
//	node tools/release/bundlecheck.mjs BUNDLE_DIR 1.2.3
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";

/** check fails the run with what when ok is false, and prints it otherwise. */
export function check(ok, what) {
  if (!ok) throw new Error(`dist-check: ${what}`);
  console.log(`ok  ${what}`);
}

// The page the bundle's server opens: the browser tests' page that registers tools with plain
// WebMCP and never loads the bridge (the server brings it).
const pagePath = resolve(import.meta.dirname, "../../internal/testing/browsertest/pages/plain.html");

/** servePage serves the page on loopback and gives its URL and a function that stops serving. */
async function servePage() {
  const html = readFileSync(pagePath);
  const server = createServer((req, res) => {
    res.writeHead(req.url === "/plain.html" ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    res.end(req.url === "/plain.html" ? html : "not found");
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/plain.html`, close: () => server.close() };
}

/** A Session is an MCP client of a server started as cfg says, over stdio (newline-delimited JSON-RPC). */
class Session {
  constructor(cfg, cwd, label) {
    this.label = label;
    // Run as a host runs it: from the bundle's folder, not the checkout, whose web/dist the
    // server would find and serve (-assets).
    const env = { ...process.env, ...cfg.env };
    delete env.WEBMCP_BRIDGE_ASSETS;
    this.child = spawn(cfg.command, cfg.args, { cwd, stdio: ["pipe", "pipe", "inherit"], env });
    this.messages = [];
    this.waiters = [];
    this.nextID = 1;
    let buf = "";
    this.child.stdout.on("data", (d) => {
      buf += d;
      for (let i; (i = buf.indexOf("\n")) >= 0; buf = buf.slice(i + 1)) {
        this.messages.push(JSON.parse(buf.slice(0, i)));
        this.waiters.splice(0).forEach((w) => w());
      }
    });
  }

  /** request sends method and waits (60 s at most) for its answer's result; an error answer throws. */
  async request(method, params) {
    const id = this.nextID++;
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    const deadline = Date.now() + 60000;
    for (;;) {
      const found = this.messages.find((m) => m.id === id);
      if (found?.error) throw new Error(`${this.label}: ${method}: ${JSON.stringify(found.error)}`);
      if (found) return found.result;
      if (Date.now() > deadline) throw new Error(`${this.label}: no answer to ${method}`);
      await new Promise((r) => {
        this.waiters.push(r);
        setTimeout(r, 500);
      });
    }
  }

  /** initialize is the client's handshake; it gives the server's serverInfo. */
  async initialize(version) {
    const init = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "dist-check", version },
    });
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    return init.serverInfo;
  }

  close() {
    this.child.stdin.end();
    this.child.kill();
  }
}

/** toolNamed is the listed tool whose MCP name is name or ends in _name. */
const toolNamed = (tools, name) => tools.find((t) => t.name === name || t.name.endsWith(`_${name}`));

/** checkBundle checks the unpacked bundle in dir, of the release version. */
export async function checkBundle(dir, version) {
  const manifest = JSON.parse(readFileSync(resolve(dir, "manifest.json"), "utf8"));
  check(manifest.version === version, `bundle manifest version ${manifest.version}`);
  const config = async (userConfig) =>
    getMcpConfigForManifest({ manifest, extensionPath: dir, systemDirs: {}, userConfig, pathSeparator: "/" });

  const own = await config({ extension: true });
  const printed = execFileSync(own.command, [...own.args, "-version"], { encoding: "utf8" }).trim();
  check(printed === `webmcp-mcp ${version}`, `bundle server (${own.args.join(" ")}) -version: ${printed}`);
  const ownSession = new Session(own, dir, "bundle, own browser's tabs");
  try {
    const info = await ownSession.initialize(version);
    check(info?.version === version, `${ownSession.label}: serverInfo.version ${info?.version}`);
    const names = (await ownSession.request("tools/list", {})).tools.map((t) => t.name);
    check(names.includes("webmcp_list_pages"), `${ownSession.label}: tools/list has ${names.join(", ")}`);
  } finally {
    ownSession.close();
  }

  if (!process.env.CHROMIUM) throw new Error("dist-check: set CHROMIUM to the Chromium the bundle's server drives");
  const page = await servePage();
  const s = new Session(await config({ pages: page.url }), dir, "bundle, defaults (its own Chromium)");
  try {
    const info = await s.initialize(version);
    check(info?.version === version, `${s.label}: serverInfo.version ${info?.version}`);
    // The first tools/list waits for the pages to open (-ready-timeout); ask again a while if not.
    let tools = [];
    for (let deadline = Date.now() + 30000; !toolNamed(tools, "rich") && Date.now() < deadline; ) {
      tools = (await s.request("tools/list", {})).tools;
      if (!toolNamed(tools, "rich")) await new Promise((r) => setTimeout(r, 500));
    }
    const hello = toolNamed(tools, "hello");
    const rich = toolNamed(tools, "rich");
    check(hello && rich, `${s.label}: tools/list has the page's tools: ${tools.map((t) => t.name).join(", ")}`);

    const said = await s.request("tools/call", { name: hello.name, arguments: {} });
    const saidText = said.content?.find((c) => c.type === "text")?.text;
    check(!said.isError && saidText === "hello from a plain page", `${s.label}: ${hello.name} answers "${saidText}"`);

    const html = await s.request("tools/call", { name: rich.name, arguments: {} });
    const resource = html.content?.find((c) => c.type === "resource")?.resource;
    check(
      !html.isError && resource?.mimeType === "text/html" && resource.text.includes("<b>text</b>") &&
        !JSON.stringify(html).includes("alert(1)"),
      `${s.label}: ${rich.name} gives sanitized HTML: ${resource?.text}`,
    );
  } finally {
    s.close();
    page.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, version] = process.argv.slice(2);
  if (!dir || !version) throw new Error("usage: node bundlecheck.mjs BUNDLE_DIR VERSION");
  await checkBundle(resolve(dir), version);
}
