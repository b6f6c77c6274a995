// Benchmark page helpers (bridge.html and native.html, after tools.js): the same tools on a page
// with the bridge and on a page with native WebMCP only, so executeTool round trips compare; the
// sanitizers side by side; the ~500 KB HTML calls of the main-thread row; the memory and restart
// run.
"use strict";
const SMALL_HTML = `<p>Hello <b>there</b>, see <a href="https://example.com/a?b=1">this</a>.</p>`;
window.benchRegistered = Promise.all([
  window.benchRegistered,
  document.modelContext.registerTool({ name: "html_small", description: "a small HTML result (through Go)", execute: () => ({ type: "html", html: SMALL_HTML }) }),
  document.modelContext.registerTool({ name: "html_500kb", description: "~500 KB of HTML", execute: () => ({ type: "html", html: window.bigDoc }) }),
]);
const moduleDoor = () => WebMCPBridge[Symbol.for("webmcp-bridge.module")];
const toolNamed = async (name) => { await window.benchRegistered; return (await document.modelContext.getTools()).find((t) => t.name === name); };

// perCall times n sequential executeTool round trips of one tool and returns µs per call.
window.perCall = async (name, n) => {
  const tool = await toolNamed(name);
  await document.modelContext.executeTool(tool, {}); // warm
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await document.modelContext.executeTool(tool, {});
  return ((performance.now() - t0) / n) * 1000;
};

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// linkTableHTML is a link- and table-heavy document of at least n bytes, like a long list page
// of an encyclopedia: tables whose cells are links, navigation lists, few words of prose, and
// URLs a sanitizer must check (relative, mailto:, javascript:).
function linkTableHTML(n) {
  let out = "", s = 0;
  while (out.length < n) {
    s++;
    let rows = "";
    for (let i = 1; i <= 12; i++) {
      const k = s * 100 + i;
      rows += `<tr><td>${i}</td><td><a href="https://en.example.org/wiki/Item_${k}" title="Item ${k}">Item ${k}</a></td>` +
        `<td><a href="https://cdn.example.net/src?id=${k}&amp;ref=list#top">source</a> · <a href="/wiki/Talk:Item_${k}">talk</a></td>` +
        `<td style="text-align:right">${(k * 7919) % 100000}</td><td><a href="${i % 6 === 0 ? "javascript:alert(1)" : `mailto:editor${k}@example.org`}">contact</a></td></tr>`;
    }
    out += `<h2 id="s${s}">Section ${s}</h2><p>See also <a href="https://en.example.org/wiki/Topic_${s}">Topic ${s}</a> and <a href="#s${s - 1}">the previous section</a>.</p>` +
      `<table class="wikitable sortable"><thead><tr><th>#</th><th>Name</th><th>Links</th><th>Value</th><th>Contact</th></tr></thead><tbody>${rows}</tbody></table>` +
      `<ul class="nav"><li><a href="https://en.example.org/wiki/A_${s}">A</a></li><li><a href="https://en.example.org/wiki/B_${s}">B</a></li><li><a href="https://en.example.org/wiki/C_${s}">C</a></li></ul>`;
  }
  return out;
}
window.docs = { article: () => articleHTML(500 * 1024), linktable: () => linkTableHTML(500 * 1024) };

let soWorker = null;

// stagesInWasm times each stage of normalizing an html result inside WebAssembly (sanitizeonly's
// stages, in its Worker): ms per stage, medians of runs.
function stagesInWasm(json, runs) {
  if (!soWorker) soWorker = new Worker("sanitize-worker.js");
  return new Promise((resolve, reject) => {
    soWorker.onmessage = (e) => (e.data.error ? reject(new Error(e.data.error)) : resolve(e.data));
    soWorker.postMessage({ stages: json, runs });
  });
}

// floorCall sends doc to the floor's Worker (bluemonday's UGCPolicy alone) and resolves to the
// sanitized markup it sends back.
let floorWorker = null, floorId = 0;
const floorWaiting = new Map();
function floorCall(doc) {
  if (!floorWorker) {
    floorWorker = new Worker("floor-worker.js");
    floorWorker.onmessage = (e) => {
      const w = floorWaiting.get(e.data.id);
      floorWaiting.delete(e.data.id);
      if (e.data.error) w.reject(new Error(e.data.error)); else w.resolve(e.data.html);
    };
  }
  const id = ++floorId;
  return new Promise((resolve, reject) => { floorWaiting.set(id, { resolve, reject }); floorWorker.postMessage({ id, doc }); });
}

// againstFloor times one HTML document of about `bytes` (the article, or docs[which]) per call,
// page → Worker → page on every side, the three alternated call by call: executeTool of a tool
// returning the HTML (what a page's agent pays: the browser's executeTool, the bridge's wrapper,
// the module's normalize in the Worker, the result's JSON text back), the module's normalize
// export alone (the JSON text in, the result's JSON text back) and bluemonday's UGCPolicy alone
// in its own Worker (the markup in, the markup back). The ratio is executeTool's to bluemonday's,
// the median of the rounds'. With it, each stage timed inside WebAssembly. ms, medians.
window.againstFloor = async (which, bytes, runs) => {
  await WebMCPBridge.ready;
  const doc = which === "article" ? articleHTML(bytes) : window.docs[which]();
  const json = JSON.stringify({ type: "html", html: doc });
  const door = () => moduleDoor().call("normalize", json, location.href, [], false);
  window.floorDoc = doc;
  const tool = await toolNamed("html_floor");
  const execute = () => document.modelContext.executeTool(tool, {});
  await door(); await floorCall(doc); await execute(); await door(); await floorCall(doc); await execute();
  const bridge = [], floor = [], executed = [], ratios = [], normalizeRatios = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now(); await execute();
    const t1 = performance.now(); await door();
    const t2 = performance.now(); await floorCall(doc);
    const t3 = performance.now();
    executed.push(t1 - t0); bridge.push(t2 - t1); floor.push(t3 - t2);
    ratios.push((t1 - t0) / (t3 - t2)); normalizeRatios.push((t2 - t1) / (t3 - t2));
  }
  const out = {
    bytes: doc.length, bridge: median(bridge), floor: median(floor), executeTool: median(executed),
    ratio: median(ratios), normalizeRatio: median(normalizeRatios),
  };
  out.stages = await stagesInWasm(json, runs);
  return out;
};
window.benchRegistered = Promise.all([
  window.benchRegistered,
  document.modelContext.registerTool({ name: "html_floor", description: "the document of againstFloor", execute: () => ({ type: "html", html: window.floorDoc }) }),
]);

// alternated times each of cases (name → async function) runs times, in rounds of one call
// each, the order rotated round by round, every call after a full GC of the page (the bench's
// Chromium has --expose-gc) and a pause: no call pays for the garbage of the call before it
// (timed in blocks, normalize paid for DOMPurify's and setHTML's by tens of ms). It returns the
// medians in ms by name, and the median ratio of the first case to each other, round by round.
async function alternated(cases, runs) {
  const names = Object.keys(cases), ts = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) await cases[n]();
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(i + k) % names.length];
      if (globalThis.gc) gc();
      await new Promise((r) => setTimeout(r, 20));
      const t0 = performance.now(); await cases[n](); ts[n].push(performance.now() - t0);
    }
  }
  const out = { ratios: {} };
  for (const n of names) out[n] = median(ts[n]);
  for (const n of names.slice(1)) out.ratios[n] = median(ts[names[0]].map((t, i) => t / ts[n][i]));
  return out;
}

// sanitizers times, on the same ~500 KB document (docs[which]), in ms, alternated: the whole
// normalize as a page calls it (WebMCPBridge.normalize: JSON text to the Worker, the module's
// normalize, the result back and parsed), DOMPurify and Element.setHTML on this page. (The
// module against bluemonday alone is againstFloor's.)
window.sanitizers = async (which, runs) => {
  await WebMCPBridge.ready;
  const doc = window.docs[which]();
  const cases = { normalize: () => WebMCPBridge.normalize({ type: "html", html: doc }) };
  if (typeof DOMPurify !== "undefined") cases.dompurify = () => DOMPurify.sanitize(doc);
  if (typeof Element.prototype.setHTML === "function")
    cases.setHTML = () => { const d = document.createElement("div"); d.setHTML(doc); };
  return { bytes: doc.length, dompurify: null, setHTML: null, ...(await alternated(cases, runs)) };
};

window.bigNormalize = () => WebMCPBridge.normalize({ type: "html", html: window.bigDoc });
let bigTool = null; // looked up once: getTools is not part of what is measured
window.bigExecute = async () => document.modelContext.executeTool(bigTool || (bigTool = await toolNamed("html_500kb")), {});

// heaps: the page's JS heap after a GC (--js-flags=--expose-gc), and the module's Go heap and
// goroutines (the test build's stats export).
window.heaps = async () => {
  if (globalThis.gc) gc();
  const go = JSON.parse((await moduleDoor().call("stats")).split("\n")[0]);
  return { js: performance.memory ? performance.memory.usedJSHeapSize : 0, go, generation: moduleDoor().info().generation };
};

// calls makes n executeTool calls of a tool whose result goes through Go, `lanes` at a time,
// and returns the ms they took; every result must be a normalized one.
window.calls = async (n, lanes) => {
  const tool = await toolNamed("html_small");
  let left = n, bad = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (left > 0) {
      left--;
      const out = await document.modelContext.executeTool(tool, {});
      if (!out.includes('"resultType":"complete"') || out.includes('"isError":true')) bad++;
    }
  }));
  if (bad) throw new Error(`${bad} of ${n} calls did not give a normalized result`);
  return performance.now() - t0;
};

// restarts makes the module crash n times (crashForTest in place of normalize: the next
// normalize ends the module) and checks that the call after each gets a new module.
window.restarts = async (n) => {
  const tool = await toolNamed("html_small");
  const g0 = moduleDoor().info().generation;
  let crashed = 0;
  for (let i = 0; i < n; i++) {
    await moduleDoor().call("alias", "normalize", "crashForTest");
    const out = JSON.parse(await document.modelContext.executeTool(tool, {}));
    if (out.isError) crashed++;
    const again = JSON.parse(await document.modelContext.executeTool(tool, {}));
    if (again.isError) throw new Error("the call after a crash failed: " + JSON.stringify(again));
  }
  return { crashed, generations: moduleDoor().info().generation - g0 };
};

// wideCall calls a tool that returns an object of ~15 MiB of JSON made of many small members
// (under the default maxResultBytes of 16 MiB), and right behind it a small HTML call: ms until
// each answered, the value's JSON size, and whether the result was refused.
window.wideCall = async () => {
  const big = await toolNamed("wide_15mb"), small = await toolNamed("html_small");
  const t0 = performance.now();
  let bigMs = 0, smallMs = 0, refused = true;
  const bigCall = document.modelContext.executeTool(big, {}).then((out) => { bigMs = performance.now() - t0; refused = out.includes('"isError":true'); });
  const smallCall = document.modelContext.executeTool(small, {}).then(() => { smallMs = performance.now() - t0; });
  await Promise.all([bigCall, smallCall]);
  return { bigMs, smallMs, members: WIDE_MEMBERS, bytes: JSON.stringify(WIDE()).length, refused };
};
const WIDE_MEMBERS = 600000;
const WIDE = (() => { let v; return () => { if (!v) { v = {}; for (let i = 0; i < WIDE_MEMBERS; i++) v["member_" + i] = i % 3 === 0 ? "v" + i : i; } return v; }; })();
window.benchRegistered = Promise.all([
  window.benchRegistered,
  document.modelContext.registerTool({ name: "wide_15mb", description: "an object of ~15 MiB with many small members", execute: () => WIDE() }),
]);
