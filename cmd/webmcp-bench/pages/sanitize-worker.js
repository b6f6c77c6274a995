// Runs cmd/webmcp-bench/sanitizeonly (built by the bench with the same Go as the bridge) and
// times sanitize.HTML (bluemonday alone) and sanitize.SanitizeHTML inside this Worker; or, for
// {stages: json}, each stage of normalizing that html result inside WebAssembly.
importScripts("/wasm-exec/wasm_exec.js");
const started = new Promise((r) => (self.__sanitizeOnlyStarted = r));
const go = new Go();
const ready = WebAssembly.instantiateStreaming(fetch("/helpers/sanitizeonly.wasm"), go.importObject).then(({ instance }) => { go.run(instance); return started; });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
self.onmessage = async (e) => {
  try {
    await ready;
    if (e.data.stages) {
      postMessage(self.__sanitizeOnly.stages(e.data.stages, e.data.runs));
      return;
    }
    const { doc, runs } = e.data, out = {};
    for (const name of ["sanitize", "bluemonday"]) {
      const f = self.__sanitizeOnly[name], ts = [];
      f(doc);
      for (let i = 0; i < runs; i++) { const t0 = performance.now(); f(doc); ts.push(performance.now() - t0); }
      out[name] = median(ts);
    }
    postMessage(out);
  } catch (err) {
    postMessage({ error: String(err && err.message || err) });
  }
};
