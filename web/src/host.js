// The module host: starts the Go module on first need, in a dedicated Worker (worker.js) or, where
// a Worker cannot start (a CSP without worker-src for it, the extension's MAIN world), on this
// thread with the same requests: the Worker's script, loaded with a script element, hands over
// its module server (worker.js, server.js). Every request carries strings; answers are frames
// (a JSON head line, a newline, a body: see wasm/module.go).
//
// The module is replaceable. If it ends in a call (a fatal Go error, a trap, a stack overflow, a
// Worker that dies), that call fails with moduleCrashed, the Worker is terminated, and the
// requests queued behind it go to a new module, started with the page's configure() settings; a
// schema is compiled again where its key is unknown. A module whose memory grew past
// RETIRE_BYTES is replaced once its queue is empty, since WebAssembly memory never shrinks.
// Where the module cannot run at all (no 'wasm-unsafe-eval', no WebAssembly, a file missing),
// startModule rejects with moduleUnavailable, once and for all.
export const MAX_NESTING = 128; // bridge.MaxNesting: the start head says the same (a test checks)
const RETIRE_BYTES = 256 * 1024 * 1024;

export let policy = null; // the policy in force, as the module last answered it
export let unavailable = null; // the Error that says why the module cannot run on this page
export let version = "";

let assets = null; // {wasm, worker}: absolute URLs
let useWorker = true; // false: this thread only (the option, or a Worker failed to start)
let onUnavailable = () => {};
let module = null; // the running module: {mode, generation, request(req), end()}
let starting = null; // the start in progress
let compiled = null; // the WebAssembly.Module of the first start, reused by restarts
let generation = 0; // counts module starts
let configured = null; // the last accepted configure() settings (JSON), applied again after a restart
let schemaKeys = 0;

const ASSET_NAMES = { wasm: "webmcp-bridge.wasm", worker: "webmcp-bridge-worker.js" };

// setupHost sets where the module's files are (a base URL, or {wasm, worker}), whether
// to try a Worker, and what to do when the module cannot run on this page.
export function setupHost({ assets: where, worker = true, stepAside }) {
  assets = assetURLs(where);
  useWorker = worker;
  onUnavailable = stepAside;
}

// setAssets points the bridge at where its files are served, before the module first starts.
export function setAssets(where) {
  if (generation > 0 || starting) throw new DOMException("setAssets: the module has already started; call it before the first tool call, normalize or ready", "InvalidStateError");
  assets = assetURLs(where);
}

function assetURLs(where) {
  if (where && typeof where === "object" && !(where instanceof URL)) {
    const out = {};
    for (const k of Object.keys(ASSET_NAMES)) {
      if (where[k] == null) throw new TypeError(`setAssets: ${k} is missing (the URL of ${ASSET_NAMES[k]})`);
      out[k] = new URL(String(where[k]), document.baseURI).href;
    }
    return out;
  }
  const base = new URL(String(where), document.baseURI);
  if (!base.pathname.endsWith("/")) base.pathname = base.pathname.replace(/[^/]*$/, "");
  const out = {};
  for (const [k, name] of Object.entries(ASSET_NAMES)) out[k] = new URL(name, base).href;
  return out;
}

export const moduleInfo = () => ({ generation, mode: module ? module.mode : "", running: !!module });

export function startModule() {
  if (module) return Promise.resolve(module);
  if (unavailable) return Promise.reject(unavailable);
  if (!starting) {
    starting = launch().then((m) => { module = m; starting = null; return m; }, (e) => {
      starting = null;
      if (e && e.moduleUnavailable) {
        unavailable = e;
        onUnavailable(e);
      }
      throw e;
    });
  }
  return starting;
}

async function launch() {
  const init = { op: "start", wasm: assets.wasm, module: compiled, configured };
  let m = null, a = null;
  if (useWorker && typeof Worker === "function") {
    try {
      m = workerModule(generation + 1);
      a = await m.request(init);
      if (a.start === undefined) throw new Error(a.unavailable || a.crashed);
    } catch (e) {
      if (m) m.end();
      m = null;
      useWorker = false; // from now on this thread: the next start would fail the same way
    }
  }
  if (!m) {
    m = await threadModule(generation + 1);
    a = await m.request(init);
    if (a.start === undefined) {
      if (a.csp) throw cspError(a.unavailable);
      throw unavailableError(a.unavailable || `the module did not start (${a.crashed})`);
    }
  }
  generation++;
  compiled = a.module || compiled;
  let { head } = frameOf(a.start);
  if (head.maxNesting !== MAX_NESTING) console.warn(`webmcp-bridge: the module's nesting limit is ${head.maxNesting}, the loader's ${MAX_NESTING}`);
  version = head.version;
  if (a.configure) head = frameOf(a.configure).head;
  policy = head.policy;
  return m;
}

// workerModule starts the bridge's Worker: from its URL where that is this page's origin, else
// from a blob: URL that imports it (a Worker's script must be same-origin).
function workerModule(gen) {
  let w;
  if (new URL(assets.worker).origin === location.origin) w = new Worker(assets.worker);
  else {
    const src = `importScripts(${JSON.stringify(assets.worker)});`;
    const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
    try { w = new Worker(url); } finally { setTimeout(() => URL.revokeObjectURL(url), 10000); }
  }
  const pending = new Map(); // id → {req, resolve, reject}, in the order sent
  let nextId = 1;
  const m = {
    mode: "worker", generation: gen, retiring: false, pending,
    request(req) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { req, resolve, reject });
        w.postMessage(Object.assign({ id }, req));
      });
    },
    end() {
      w.terminate();
      const why = new Error("the bridge's Worker could not start");
      for (const p of pending.values()) p.reject(why);
      pending.clear();
    },
  };
  w.onmessage = (e) => {
    const a = e.data, p = pending.get(a.id);
    if (!p) return;
    pending.delete(a.id);
    if (a.crashed && p.req.op !== "start") return crashed(m, p, a.crashed, () => w.terminate());
    p.resolve(a);
    if (a.memory > RETIRE_BYTES) retire(m);
    if (m.retiring && !pending.size) w.terminate();
  };
  // A Worker that cannot load its script, or dies (out of memory), reports an error event: the
  // call it was running (the oldest sent) is the one that fails.
  w.onerror = w.onmessageerror = (e) => {
    if (e && e.preventDefault) e.preventDefault();
    const first = pending.entries().next().value;
    if (!first) { retire(m); w.terminate(); return; }
    pending.delete(first[0]);
    if (first[1].req.op === "start") return first[1].reject(new Error(String(e && e.message || "the Worker failed")));
    crashed(m, first[1], String(e && e.message || "the Worker stopped"), () => w.terminate());
  };
  return m;
}

// threadModule runs the module on this thread, with the server of the Worker's script loaded by
// a script element (once).
let serveHere = null;
async function threadModule(gen) {
  if (!serveHere) {
    serveHere = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = assets.worker;
      s.onload = () => (typeof globalThis.__webmcpBridgeServe === "function" ? resolve(globalThis.__webmcpBridgeServe) : reject(new Error("it defined no module server")));
      s.onerror = () => reject(new Error("it did not load"));
      (document.head || document.documentElement).appendChild(s);
    }).catch((e) => {
      serveHere = null;
      throw unavailableError(`cannot load ${assets.worker} (${e.message})`);
    });
  }
  const handle = (await serveHere)(globalThis);
  const m = {
    mode: "main", generation: gen, retiring: false, pending: new Map(),
    async request(req) {
      const a = await handle(req);
      if (a.crashed && req.op !== "start") {
        return new Promise((resolve, reject) => crashed(m, { req, resolve, reject }, a.crashed, () => {}));
      }
      if (a.memory > RETIRE_BYTES) retire(m);
      return a;
    },
    end() {},
  };
  return m;
}

// crashed fails the request p of module m, which died in it, ends m and sends what was queued
// behind it to a new module.
function crashed(m, p, why, end) {
  retire(m, `the module stopped in ${why}`);
  const queued = [...m.pending.values()];
  m.pending.clear();
  end();
  p.reject(Object.assign(new Error(`the bridge's module stopped while handling this call (${why}); a new one starts on the next call`), { moduleCrashed: true }));
  for (const q of queued) request(q.req).then(q.resolve, q.reject);
}

function retire(m, why) {
  m.retiring = true;
  if (module !== m) return;
  module = null;
  if (why) console.warn(`webmcp-bridge: ${why}; a new module starts on the next call`);
}

// request sends req to the running module (starting one if needed) and returns its answer.
async function request(req) {
  const m = await startModule();
  return m.request(req);
}

// callGo calls an export of the module: {head, body}. A head {"error": …} is thrown as that error.
export async function callGo(name, ...args) {
  return frameOf((await request({ op: "call", name, args })).out);
}

// testCall is the test build's door into the module: an export by name, or {alias: [name, to]}.
export async function testCall(name, ...args) {
  if (name === "alias") return (await request({ op: "alias", name: args[0], to: args[1] })).out;
  return (await request({ op: "call", name, args })).out;
}

export async function configure(json) {
  const { head } = await callGo("configure", json);
  configured = json;
  policy = head.policy;
  return policy;
}

// newSchema is a tool's input schema as the host keeps it: its JSON text and a key that names it
// in every module.
export const newSchema = (json) => ({ json, key: ++schemaKeys });

// compileSchema compiles schema in the running module; a schema the bridge cannot enforce
// throws the TypeError that says where and why.
export async function compileSchema(schema) {
  frameOf((await request({ op: "compile", key: schema.key, json: schema.json })).out);
}

// checkInput validates a call's arguments (JSON text) against schema: null when they pass, else
// the isError result (JSON text) and the DataError message.
export async function checkInput(schema, args) {
  const { head, body } = frameOf((await request({ op: "validate", key: schema.key, json: schema.json, args })).out);
  return head.invalid ? { body, message: head.message } : null;
}

export function releaseSchema(schema) {
  if (module && schema) module.request({ op: "release", key: schema.key }).catch(() => {});
}

export function frameOf(out) {
  const nl = out.indexOf("\n");
  const head = JSON.parse(nl < 0 ? out : out.slice(0, nl));
  if (head && head.error) throw typedError(head.error);
  return { head, body: nl < 0 ? "" : out.slice(nl + 1) };
}

// typedError turns an error the module reports into the JS error it names, message unchanged;
// the setting or schema path it names rides along.
function typedError({ name, message, ...detail }) {
  let e;
  if (name === "TypeError") e = new TypeError(message);
  else if (name === "Error" || !name) e = new Error(message);
  else e = new DOMException(message, name);
  return Object.assign(e, detail);
}

function unavailableError(why) {
  return Object.assign(new Error(`webmcp-bridge: ${why}; tools work as the page wrote them, without the bridge's checks`), { moduleUnavailable: true });
}
function cspError(cause) {
  return Object.assign(unavailableError("this page's Content Security Policy does not allow WebAssembly (add 'wasm-unsafe-eval' to script-src)"), { cause });
}
