// The start-up yardstick: a dedicated Worker that loads Go's wasm_exec.js, fetches, compiles and
// runs cmd/webmcp-bench/minimal (the smallest Go program that uses syscall/js, same Go), and
// says so once its main runs — what the bridge's Worker does before its first call, without the
// bridge's code.
importScripts("/wasm-exec/wasm_exec.js");
self.__minimalStarted = () => postMessage("started");
const go = new Go();
WebAssembly.instantiateStreaming(fetch("/helpers/minimal.wasm"), go.importObject).then(({ instance }) => go.run(instance));
