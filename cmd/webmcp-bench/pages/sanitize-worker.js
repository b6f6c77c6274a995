// Runs cmd/webmcp-bench/sanitizeonly (built by the bench with the same Go as the bridge) and, for
// {stages: json, runs}, times each stage of normalizing that html result inside WebAssembly.
importScripts("/wasm-exec/wasm_exec.js");
const started = new Promise((r) => (self.__sanitizeOnlyStarted = r));
const go = new Go();
const ready = WebAssembly.instantiateStreaming(fetch("/helpers/sanitizeonly.wasm"), go.importObject).then(({ instance }) => { go.run(instance); return started; });
self.onmessage = async (e) => {
  try {
    await ready;
    postMessage(self.__sanitizeOnly.stages(e.data.stages, e.data.runs));
  } catch (err) {
    postMessage({ error: String(err && err.message || err) });
  }
};
