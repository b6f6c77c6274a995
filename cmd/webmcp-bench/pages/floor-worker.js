// The per-call floor: a Worker that runs cmd/webmcp-bench/bluemondayonly (bluemonday's UGCPolicy
// alone, same Go) and answers each HTML document the page sends with the sanitized markup — the
// same page → Worker → page trip the bridge's Worker makes with a result.
importScripts("/wasm-exec/wasm_exec.js");
const started = new Promise((r) => (self.__bluemondayOnlyStarted = r));
const go = new Go();
const ready = WebAssembly.instantiateStreaming(fetch("/helpers/bluemondayonly.wasm"), go.importObject).then(({ instance }) => { go.run(instance); return started; });
self.onmessage = async (e) => {
  try {
    await ready;
    postMessage({ id: e.data.id, html: self.__bluemondayOnly.sanitize(e.data.doc) });
  } catch (err) {
    postMessage({ id: e.data.id, error: String(err && err.message || err) });
  }
};
