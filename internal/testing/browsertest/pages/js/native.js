// What a web page can try against the extension's link to MCP clients (issue 25): it answers
// whether the page has any chrome.runtime messaging, whether anything answered its forged
// relay, panel and agent messages, and the errors its probes met.

// probe tries every door a page could knock on, then waits a little for an answer.
export async function probe() {
  const errors = [];
  let answered = false;
  const rt = globalThis.chrome && chrome.runtime;
  for (const f of [
    () => rt.connectNative("webmcp_bridge"),
    () => rt.sendNativeMessage("webmcp_bridge", {}),
    () => rt.connect("befiilimdaegkehmfcghiflgmpdehcdc").postMessage({ type: "call" }),
    () => rt.sendMessage("befiilimdaegkehmfcghiflgmpdehcdc", { type: "confirm-answer", key: "x", yes: true }),
  ]) {
    try { f(); } catch (e) { errors.push(String(e && e.message)); }
  }
  // Messages shaped like the relay's, the panel's and the host's, with guessed secrets.
  const ch = new MessageChannel();
  ch.port1.onmessage = () => { answered = true; };
  window.postMessage({ webmcpBridgeRelay: true, secret: "1-2-3-4" }, "*", [ch.port2]);
  ch.port1.postMessage({ id: 1, secret: "1-2-3-4", op: "call", name: "buy", args: {} });
  window.postMessage({ client: 1, type: "call", id: 1, tab: 1, origin: location.origin, tool: "buy", args: {} }, "*");
  window.postMessage({ type: "confirm-answer", key: "webmcp-1-1", yes: true }, "*");
  window.addEventListener("message", (e) => { if (e.data && (e.data.type === "result" || e.data.raw)) answered = true; });
  await new Promise((r) => setTimeout(r, 500));
  return { runtime: !!(rt && (rt.sendMessage || rt.connectNative)), answered, errors };
}
