// webmcp-bridge-worker.js: Go's wasm_exec.js (of the Go that built the module) and the module
// server (server.js). In a Worker — the bridge's dedicated Worker — it answers the loader's
// requests, so that fetching, compiling, starting the module and every normalization happen off
// the page's main thread. Loaded with a script element where a Worker cannot start, it only
// hands the server to the loader (host.js), which then runs the module on the page's thread.
import "go:wasm_exec";
import { serveModule } from "./server.js";

if (typeof WorkerGlobalScope === "function" && self instanceof WorkerGlobalScope) {
  const handle = serveModule(self);
  self.onmessage = async (e) => {
    const req = e.data;
    const a = await handle(req);
    a.id = req.id;
    self.postMessage(a);
  };
} else {
  globalThis.__webmcpBridgeServe = serveModule;
}
