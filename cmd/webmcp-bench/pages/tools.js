// The three tools of the benchmark, the same on every page: with the bridge, with native WebMCP
// only, and with MCP-B's @mcp-b/global. Their data is built on first call, so a page that
// registers them does no work at load beyond registerTool. No inputSchema unless the page sets
// window.benchSchema: with one, the bridge checks it on the page, without its module (see README,
// "In a page").
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
const once = (f) => { let v; return () => (v === undefined ? (v = f()) : v); };
const TEXT_1KB = once(() => "lorem ipsum ".repeat(86).slice(0, 1024));
const HTML_10KB = once(() => articleHTML(10 * 1024));
const PNG_100KB = once(() => noisyPNG(160, 160));
const SCHEMA = window.benchSchema ? { inputSchema: { type: "object", properties: {} } } : {};
window.benchRegistered = Promise.all([
  document.modelContext.registerTool({ name: "text_1kb", description: "1 KB of text", ...SCHEMA, execute: () => ({ type: "text", text: TEXT_1KB() }) }),
  document.modelContext.registerTool({ name: "html_10kb", description: "10 KB of HTML", ...SCHEMA, execute: () => ({ type: "html", html: HTML_10KB() }) }),
  document.modelContext.registerTool({ name: "png_100kb", description: "a 100 KB PNG", ...SCHEMA, execute: () => ({ type: "image", data: PNG_100KB(), mimeType: "image/png" }) }),
]);
