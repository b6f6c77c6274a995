// Run in a second installed extension's service worker (extension_other_test.go): it tries each
// way to reach webmcp-bridge's extension (id) and its native host, and answers what each gave.
export async function reachBridge(id) {
  const settle = (start, ms) => new Promise((res) => { start(res); setTimeout(() => res("no answer, no refusal"), ms); });
  const message = await chrome.runtime.sendMessage(id, { type: "confirm-waiting" }).then(
    (v) => "answered " + JSON.stringify(v), (e) => "refused: " + e.message);
  const connect = await settle((res) => {
    const p = chrome.runtime.connect(id);
    p.onMessage.addListener((m) => res("heard " + JSON.stringify(m)));
    p.onDisconnect.addListener(() => res("refused: " + (chrome.runtime.lastError?.message || "disconnected")));
    p.postMessage({ type: "confirm-answer", key: "webmcp-1-1", yes: true });
  }, 2000);
  const native = await settle((res) => {
    const p = chrome.runtime.connectNative("webmcp_bridge");
    p.onMessage.addListener((m) => res("heard " + JSON.stringify(m)));
    p.onDisconnect.addListener(() => res("refused: " + (chrome.runtime.lastError?.message || "disconnected")));
  }, 3000);
  const nativeMessage = await chrome.runtime.sendNativeMessage("webmcp_bridge", { client: 1, type: "call" }).then(
    (v) => "answered " + JSON.stringify(v), (e) => "refused: " + e.message);
  return { message, connect, native, nativeMessage };
}
