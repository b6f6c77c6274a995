// webmcp-bridge-worker.js: Go's wasm_exec.js (of the Go that built the module) and the module
// server (server.ts). In a Worker — the bridge's dedicated Worker — it answers the loader's
// requests, so that fetching, compiling, starting the module and every normalization happen off
// the page's main thread. Loaded with a script element where a Worker cannot start, it hands the
// server to the loader (host.ts) through the element, and the loader runs the module on the
// page's thread.
import "go:wasm_exec";
import { claimModuleGlobals, utf8Writer } from "./builtins.ts";
import { serveModule, type Request } from "./server.ts";

type Scope = Parameters<typeof serveModule>[0];
declare const WorkerGlobalScope: (abstract new () => object) | undefined;

if (typeof WorkerGlobalScope === "function" && self instanceof WorkerGlobalScope) {
  const globals = claimModuleGlobals(self);
  if (!globals) throw new Error("the module's globals are taken"); // the Worker's own scope: cannot happen
  globals.encodeInto = utf8Writer(); // before any other script of this scope runs
  const handle = serveModule(self as unknown as Scope, globals);
  self.onmessage = async (e: MessageEvent<Request & { id: number }>) => {
    const req = e.data;
    const a = await handle(req);
    a.id = req.id;
    self.postMessage(a);
  };
} else {
  const script = document.currentScript as
    (HTMLScriptElement & { webmcpBridgeServe?: (f: typeof serveModule) => void }) | null;
  const hand = script && script.webmcpBridgeServe;
  if (typeof hand === "function") hand(serveModule);
}
