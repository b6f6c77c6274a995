// check.mjs tries a release in out/dist as a new user would (make dist-check runs it): the MCP
// Bundle unpacked and its server started with the command and arguments its manifest gives this
// platform (as an MCPB host computes them, with mcpb's own getMcpConfigForManifest), answering
// -version and an MCP client's initialize and tools/list; this platform's archive's binary; the
// npm package installed into a fresh project and imported; the .xpi linted by web-ext; SHA256SUMS.
//
//	node tools/release/check.mjs out/dist 1.2.3
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";

const [distArg, version] = process.argv.slice(2);
if (!distArg || !version) throw new Error("usage: node check.mjs DIST_DIR VERSION");
const dist = resolve(distArg);
const work = mkdtempSync(join(tmpdir(), "webmcp-dist-check-"));
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: "utf8", ...opts });
const check = (ok, what) => {
  if (!ok) throw new Error(`dist-check: ${what}`);
  console.log(`ok  ${what}`);
};

// SHA256SUMS lists every file and each matches.
run("sha256sum", ["--check", "--strict", "SHA256SUMS"], { cwd: dist });
const listed = readFileSync(join(dist, "SHA256SUMS"), "utf8").trim().split("\n").length;
check(listed === readdirSync(dist).length - 1, `SHA256SUMS covers all ${listed} files`);

// This platform's archive: the binary says the release's version.
const goos = { darwin: "darwin", linux: "linux", win32: "windows" }[process.platform];
const goarch = { x64: "amd64", arm64: "arm64" }[process.arch];
const archive = join(dist, `webmcp-mcp_${version}_${goos}_${goarch}.tar.gz`);
const unpacked = join(work, "archive");
run("mkdir", ["-p", unpacked]);
run("tar", ["-xzf", archive, "-C", unpacked]);
check(
  ["LICENSE", "README.md", "THIRD_PARTY_NOTICES", "webmcp-mcp"].every((f) => readdirSync(unpacked).includes(f)),
  `${goos}/${goarch} archive has the binary, LICENSE, README.md and THIRD_PARTY_NOTICES`,
);
check(run(join(unpacked, "webmcp-mcp"), ["-version"]).trim() === `webmcp-mcp ${version}`, "archive's webmcp-mcp -version");

// The bundle, unpacked, started as its manifest says.
const bundle = join(work, "bundle");
run("unzip", ["-q", join(dist, `webmcp-bridge_${version}.mcpb`), "-d", bundle]);
const manifest = JSON.parse(readFileSync(join(bundle, "manifest.json"), "utf8"));
check(manifest.version === version, `bundle manifest version ${manifest.version}`);
const config = async (userConfig) =>
  getMcpConfigForManifest({ manifest, extensionPath: bundle, systemDirs: {}, userConfig, pathSeparator: "/" });
const own = await config({ extension: true });
const printed = run(own.command, [...own.args, "-version"]).trim();
check(printed === `webmcp-mcp ${version}`, `bundle server (${own.args.join(" ")}) -version: ${printed}`);

// An MCP client's first two requests to the bundle's server with the defaults (a Chromium of
// its own) and with the extension mode.
async function session(cfg, label) {
  const child = spawn(cfg.command, cfg.args, { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, ...cfg.env } });
  const lines = [];
  let buf = "";
  const waiters = [];
  child.stdout.on("data", (d) => {
    buf += d;
    for (let i; (i = buf.indexOf("\n")) >= 0; buf = buf.slice(i + 1)) {
      lines.push(JSON.parse(buf.slice(0, i)));
      waiters.splice(0).forEach((w) => w());
    }
  });
  const request = async (id, method, params) => {
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    const deadline = Date.now() + 30000;
    for (;;) {
      const found = lines.find((l) => l.id === id);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`${label}: no answer to ${method}`);
      await new Promise((r) => { waiters.push(r); setTimeout(r, 500); });
    }
  };
  const init = await request(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "dist-check", version },
  });
  check(init.result?.serverInfo?.version === version, `${label}: serverInfo.version ${init.result?.serverInfo?.version}`);
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  const tools = await request(2, "tools/list", {});
  const names = (tools.result?.tools ?? []).map((t) => t.name);
  check(names.includes("webmcp_open_page"), `${label}: tools/list has ${names.join(", ")}`);
  child.stdin.end();
  child.kill();
}
await session(own, "bundle, own browser's tabs");
if (process.env.CHROMIUM) await session(await config({}), "bundle, defaults (its own Chromium)");

// The npm package in a fresh project, imported by Node.
const proj = join(work, "npm");
run("mkdir", ["-p", proj]);
writeFileSync(join(proj, "package.json"), JSON.stringify({ name: "fresh", private: true, type: "module" }));
run("npm", ["install", "--no-audit", "--no-fund", join(dist, `webmcp-bridge-wasm-${version}.tgz`)], { cwd: proj });
const imported = run("node", ["--input-type=module", "-e",
  "const m = await import('webmcp-bridge-wasm'); console.log(Object.keys(m).sort().join(','))"], { cwd: proj }).trim();
check(imported.length > 0, `npm package imported in a fresh project: exports ${imported}`);

// The Firefox add-on as addons.mozilla.org's linter sees it.
const xpi = join(work, "xpi");
run("unzip", ["-q", join(dist, `webmcp-bridge-firefox_${version}.xpi`), "-d", xpi]);
const webExt = resolve(import.meta.dirname, "node_modules/.bin/web-ext");
console.log(run(webExt, ["lint", "--source-dir", xpi, "--warnings-as-errors"]).trim());
check(true, "web-ext lint of the .xpi: 0 errors, 0 warnings");
run("rm", ["-rf", work]);
