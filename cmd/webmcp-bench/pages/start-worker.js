// The start-up yardstick: a dedicated Worker that loads Go's wasm_exec.js, fetches, compiles and
// runs a Go WebAssembly program (its URL: ?wasm=…), and says so once the program's main calls
// globalThis[?started=…] — for cmd/webmcp-bench/minimal (the smallest Go program that uses
// syscall/js, same Go) what the bridge's Worker does before its first call, without the bridge's
// code; for the module itself, its start without the loader. It posts how long the compile took
// and how long the run to main then took, in ms.
importScripts("/wasm-exec/wasm_exec.js");
const params = new URL(self.location.href).searchParams;
const t0 = performance.now();
let compiled = 0;
self[params.get("started")] = () => postMessage({ compile: compiled - t0, main: performance.now() - compiled });
const go = new Go();
WebAssembly.compileStreaming(fetch(params.get("wasm")))
  .then((module) => {
    compiled = performance.now();
    return WebAssembly.instantiate(module, go.importObject);
  })
  .then((instance) => go.run(instance));
