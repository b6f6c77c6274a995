// Isolated-world content script: the only link between the extension and a page's bridge.
// At document_start it hands the MAIN-world bridge the module's location and a fresh per-page
// secret (in an attribute the bridge removes before page scripts run), then a private
// MessageChannel port. It forwards requests from the extension's own pages only, and only
// answers that carry the secret and the id of a request it sent.
"use strict";
(() => {
  const secret = crypto.getRandomValues(new Uint32Array(4)).join("-");
  document.documentElement.setAttribute("data-webmcp-bridge", JSON.stringify({ base: chrome.runtime.getURL("dist/"), secret }));
  const channel = new MessageChannel();
  const pending = new Map();
  let nextId = 1;
  channel.port1.onmessage = (e) => {
    const d = e.data || {};
    if (d.secret !== secret || !pending.has(d.id)) return;
    const respond = pending.get(d.id);
    pending.delete(d.id);
    delete d.secret;
    respond(d);
  };
  // Posted once the MAIN-world script has run (it is listed after this one, same run_at).
  setTimeout(() => window.postMessage({ webmcpBridgeRelay: true, secret }, "*", [channel.port2]));

  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    // Only the extension's own pages (the panel), never another content script or a web page.
    if (sender.id !== chrome.runtime.id || sender.tab || !sender.url || !sender.url.startsWith(chrome.runtime.getURL(""))) return false;
    if (!msg || msg.webmcpBridge !== true || (msg.op !== "list" && msg.op !== "call")) return false;
    if (msg.op === "call" && (typeof msg.name !== "string" || typeof msg.args !== "object" || msg.args === null)) return false;
    const id = nextId++;
    pending.set(id, sendResponse);
    channel.port1.postMessage({ id, secret, op: msg.op, name: msg.name, args: msg.args });
    return true; // answered asynchronously
  });
})();
