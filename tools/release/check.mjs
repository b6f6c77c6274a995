// check.mjs tries a release in out/dist as a new user would (make dist-check runs it):
// SHA256SUMS; this platform's archive and its binary's -version; the MCP Bundle unpacked and its
// server run as an MCPB host runs it, answering an MCP client that lists and calls a page's tools
// (bundlecheck.mjs); the npm package installed into a fresh project and imported; the .xpi
// linted by web-ext. The extensions in a browser are the Go tests TestInstalled* (make
// dist-check runs them after this).
//
//	node tools/release/check.mjs out/dist 1.2.3
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { check, checkBundle } from "./bundlecheck.mjs";

const [distArg, version] = process.argv.slice(2);
if (!distArg || !version) throw new Error("usage: node check.mjs DIST_DIR VERSION");
const dist = resolve(distArg);
const work = mkdtempSync(join(tmpdir(), "webmcp-dist-check-"));
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: "utf8", ...opts });

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
await checkBundle(bundle, version);

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
const lint = JSON.parse(run(webExt, ["lint", "--source-dir", xpi, "--output", "json"]));
const { errors, warnings, notices } = lint.summary;
check(errors === 0 && warnings === 0, `web-ext lint of the .xpi: ${errors} errors, ${warnings} warnings, ${notices} notices`);
run("rm", ["-rf", work]);
