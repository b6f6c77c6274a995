// Benchmark page helpers (served with cmd/webmcp-bench/pages/*.html). The same tools are registered on a page
// with the bridge and on a page with native WebMCP only, so executeTool round trips compare.
"use strict";
function articleHTML(n) {
  const chunk = `<h2>Section</h2><p>Some <b>bold</b> and <em>emphasised</em> text with <a href="https://example.com/page?id=1">a link</a> and <code>code()</code>.</p>` +
    `<ul><li>first item</li><li>second <i>item</i></li></ul><table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>` +
    `<img src="https://example.com/img.png" alt="figure" width="100"><p onclick="steal()">Click <script>alert(1)<\/script>here</p>` +
    `<div style="color:red">styled <span title="t">span</span></div><blockquote>quote</blockquote>`;
  return chunk.repeat(Math.ceil(n / chunk.length));
}
function noisyPNG(w, h) {
  const c = document.createElement("canvas"); c.width = w; c.height = h;
  const g = c.getContext("2d"); const img = g.createImageData(w, h);
  let x = 12345;
  for (let i = 0; i < img.data.length; i++) { x = (x * 1103515245 + 12345) & 0x7fffffff; img.data[i] = i % 4 === 3 ? 255 : x & 255; }
  g.putImageData(img, 0, 0);
  return c.toDataURL("image/png").split(",")[1];
}
const TEXT_1KB = "lorem ipsum ".repeat(86).slice(0, 1024);
const HTML_10KB = articleHTML(10 * 1024);
const PNG_100KB = noisyPNG(160, 160);
window.benchRegistered = Promise.all([
  document.modelContext.registerTool({ name: "text_1kb", description: "1 KB of text", execute: () => ({ type: "text", text: TEXT_1KB }) }),
  document.modelContext.registerTool({ name: "html_10kb", description: "10 KB of HTML", execute: () => ({ type: "html", html: HTML_10KB }) }),
  document.modelContext.registerTool({ name: "png_100kb", description: "a 100 KB PNG", execute: () => ({ type: "image", data: PNG_100KB, mimeType: "image/png" }) }),
]);

// perCall times n sequential executeTool round trips of one tool and returns µs per call.
window.perCall = async (name, n) => {
  await window.benchRegistered;
  const tool = (await document.modelContext.getTools()).find((t) => t.name === name);
  await document.modelContext.executeTool(tool, {}); // warm
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await document.modelContext.executeTool(tool, {});
  return ((performance.now() - t0) / n) * 1000;
};

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// sanitizers times the three sanitizers on the same ~500 KB document, median of runs, in ms.
window.sanitizers = async (runs) => {
  await WebMCPBridge.ready;
  const doc = articleHTML(500 * 1024);
  const out = { bytes: doc.length };
  const time = async (f) => { const ts = []; await f(); for (let i = 0; i < runs; i++) { const t0 = performance.now(); await f(); ts.push(performance.now() - t0); } return median(ts); };
  out.bridge = await time(() => WebMCPBridge.normalize({ type: "html", html: doc }));
  out.dompurify = typeof DOMPurify !== "undefined" ? await time(() => DOMPurify.sanitize(doc)) : null;
  out.setHTML = typeof Element.prototype.setHTML === "function" ? await time(() => { const d = document.createElement("div"); d.setHTML(doc); }) : null;
  return out;
};

// memory makes n calls through executeTool and reports JS and Go heaps before and after.
window.memory = async (n) => {
  await window.benchRegistered;
  const tool = (await document.modelContext.getTools()).find((t) => t.name === "text_1kb");
  const js = () => { if (globalThis.gc) gc(); return performance.memory ? performance.memory.usedJSHeapSize : null; };
  for (let i = 0; i < 100; i++) await document.modelContext.executeTool(tool, {});
  const goStats = () => (globalThis.__webmcpBridgeGo ? JSON.parse(__webmcpBridgeGo.stats()) : {}); // the test build's export
  const before = { js: js(), go: goStats() };
  for (let i = 0; i < n; i++) await document.modelContext.executeTool(tool, {});
  const after = { js: js(), go: goStats() };
  return { before, after };
};
