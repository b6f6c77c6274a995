// The module host: starts the Go module on first need, in a dedicated Worker (worker.ts) or, where
// a Worker cannot start (a CSP without worker-src for it, the extension's MAIN world), on this
// thread with the same requests: the Worker's script, loaded with a script element, hands over
// its module server (server.ts). Requests carry strings and transferred bytes; answers are frames
// (module-answer.ts).
//
// The module is replaceable. If it ends in a call (a fatal Go error, a trap, a stack overflow, a
// Worker that dies), that call fails with moduleCrashed, the Worker is terminated, and the
// requests queued behind it go to a new module, started with the page's configure() settings; a
// schema is compiled again where its key is unknown. A module whose memory grew past
// RETIRE_MEMORY_BYTES is replaced once its queue is empty, since WebAssembly memory never shrinks.
// Where the module cannot run at all (no 'wasm-unsafe-eval', no WebAssembly, a file missing),
// startModule rejects with moduleUnavailable, once and for all.
import {
  BINARIES_AT,
  MAX_NESTING,
  MESSAGE_PREFIX,
  RETIRE_MEMORY_BYTES,
  type Binary,
  type ExportArgs,
  type ExportName,
  type TestExportName,
} from "./generated/boundary.ts";
import type { Policy } from "./generated/policy.ts";
import { call, claimModuleGlobals, events, read, then, workers } from "./builtins.ts";
import type { Assets, Fallback } from "./types.ts";
import { frameOf, type Frame } from "./module-answer.ts";
import { wasmRefused, type Answer, type Request, type serveModule } from "./server.ts";
import { stringify } from "./builtins.ts";

interface AssetURLs {
  wasm: string;
  worker: string;
}

/** An error that says the module cannot run on this page. */
type UnavailableError = Error & { moduleUnavailable: true; why: string };

/** The state of the host, read by the other modules. */
export const state = {
  /** the policy in force, as the module last answered it (null before it first started) */
  policy: null as Policy | null,
  /** why the module cannot run on this page, once that is known */
  unavailable: null as UnavailableError | null,
  version: "",
};

interface RunningModule {
  mode: "worker" | "main";
  generation: number;
  retiring: boolean;
  pending: Record<number, Pending>; // by id, without a prototype: no page setter sees a request's resolve
  request(req: Request, transfer?: Transferable[]): Promise<Answer>;
  end(): void;
}
interface Pending {
  req: Request;
  resolve(a: Answer): void;
  reject(e: unknown): void;
}

let assets: AssetURLs = { wasm: "", worker: "" };
let useWorker = true; // false: this thread only (the option, or a Worker failed to start)
let fallback: Fallback = "raw";
let onUnavailable: (e: UnavailableError) => void = () => {};
let running: RunningModule | null = null;
let starting: Promise<RunningModule> | null = null;
let compiled: WebAssembly.Module | null = null; // the module of the first start, reused by restarts
let generation = 0; // counts module starts
let configured: string | null = null; // the last accepted configure() settings, applied after a restart
let schemaKeys = 0;

const ASSET_NAMES: AssetURLs = { wasm: "webmcp-bridge.wasm", worker: "webmcp-bridge-worker.js" };

/** setupHost sets where the module's files are, whether to try a Worker, and what to do when
 * the module cannot run on this page. */
export function setupHost(where: Assets, worker: boolean, stepAside: (e: UnavailableError) => void): void {
  pageGlobals = claimModuleGlobals(globalThis);
  assets = assetURLs(where);
  useWorker = worker;
  onUnavailable = stepAside;
}

// startGuard, set by the extension (setStartGuard), says why the module must not start now, or
// "". Only the builds without chunks have it (the script build drops it).
let startGuard: (() => string) | null = null;

/** setStartGuard sets what each start asks first: a reason makes the module unavailable. */
export function setStartGuard(guard: () => string): void {
  startGuard = guard;
}

/** setFallback sets what calls answer where the module cannot run (data-fallback). */
export function setFallback(mode: Fallback): void {
  if (mode !== "raw" && mode !== "refuse")
    throw new TypeError(`setFallback: "${String(mode)}" is neither "raw" nor "refuse"`);
  fallback = mode;
}

/** refusal is the isError result (JSON text) a call answers where the module cannot run and the
 * page refuses unchecked results; null where the module runs or the page takes raw results. */
export function refusal(): string | null {
  const e = state.unavailable;
  if (!e || fallback !== "refuse") return null;
  const text =
    `${MESSAGE_PREFIX}this page accepts only checked results (data-fallback="refuse"), ` +
    `and the bridge's module cannot run here: ${e.why}`;
  return stringify({ content: [{ type: "text", text }], isError: true, resultType: "complete" });
}

/** setAssets points the bridge at where its files are served, before the module first starts. */
export function setAssets(where: Assets): void {
  if (generation > 0 || starting)
    throw new DOMException(
      "setAssets: the module has already started; call it before the first tool call, normalize or ready",
      "InvalidStateError",
    );
  assets = assetURLs(where);
}

function assetURLs(where: Assets): AssetURLs {
  if (where && typeof where === "object" && !(where instanceof URL)) {
    const out = { wasm: "", worker: "" };
    for (const k of ["wasm", "worker"] as const) {
      if (where[k] == null) throw new TypeError(`setAssets: ${k} is missing (the URL of ${ASSET_NAMES[k]})`);
      out[k] = new URL(String(where[k]), document.baseURI).href;
    }
    return out;
  }
  const base = new URL(String(where), document.baseURI);
  if (!base.pathname.endsWith("/")) base.pathname = base.pathname.replace(/[^/]*$/, "");
  return { wasm: new URL(ASSET_NAMES.wasm, base).href, worker: new URL(ASSET_NAMES.worker, base).href };
}

/** Which module runs where, and how many requests crossed into a module: for the test build's
 * door and the benchmarks. */
export const moduleInfo = (): { generation: number; mode: string; running: boolean; crossings: number } => ({
  generation,
  mode: running ? running.mode : "",
  running: !!running,
  crossings,
});
let crossings = 0;

/** startModule resolves once a module runs, starting one where none does. */
export function startModule(): Promise<RunningModule> {
  if (running) return Promise.resolve(running);
  if (state.unavailable) return Promise.reject(state.unavailable);
  starting ??= launch().then(
    (m) => {
      running = m;
      starting = null;
      return m;
    },
    (e: unknown) => {
      starting = null;
      if (isUnavailable(e)) {
        state.unavailable = e;
        onUnavailable(e);
      }
      throw e;
    },
  );
  return starting;
}

const isUnavailable = (e: unknown): e is UnavailableError =>
  e instanceof Error && (e as Partial<UnavailableError>).moduleUnavailable === true;

async function launch(): Promise<RunningModule> {
  const refused = !__WEBMCP_CHUNKED__ && startGuard ? startGuard() : "";
  if (refused) throw unavailableError(refused);
  const init: Request = { op: "start", wasm: assets.wasm, module: compiled, configured };
  let m: RunningModule | null = null,
    a: Answer | null = null;
  if (useWorker && workers) {
    try {
      m = workerModule(generation + 1);
      a = await m.request(init);
      heard(a);
      if (a.start === undefined) throw new Error(a.unavailable || a.crashed);
    } catch {
      if (m) m.end();
      m = null;
      useWorker = false; // from now on this thread: the next start would fail the same way
      if (a && a.module) init.module = compiled = a.module; // compiled there: not fetched again
    }
  }
  if (!m) {
    // The page's own CSP decides whether this thread can run it: where it cannot, nothing is
    // loaded (neither the Worker's script nor the module).
    const refused = typeof WebAssembly === "object" ? wasmRefused() : null;
    if (refused !== null) throw cspError(refused);
    m = await threadModule(generation + 1);
    a = await m.request(init);
    heard(a);
    if (a.start === undefined) {
      if (a.csp) throw cspError(a.unavailable);
      throw unavailableError(a.unavailable || `the module did not start (${a.crashed})`);
    }
  }
  if (!a || a.start === undefined) throw unavailableError("the module did not start");
  generation++;
  compiled = a.module || compiled;
  let { head } = frameOf<{ version: string; maxNesting: number; policy: Policy }>(a.start);
  if (head.maxNesting !== MAX_NESTING)
    console.warn(`${MESSAGE_PREFIX}the module's nesting limit is ${head.maxNesting}, the loader's ${MAX_NESTING}`);
  state.version = head.version;
  if (a.configure) head = { ...head, ...frameOf<{ policy: Policy }>(a.configure).head };
  state.policy = head.policy;
  return m;
}

// heard tells the page, once each, what the module server warned of (a module served with the
// wrong type).
const warned = new Set<string>();
function heard(a: Answer): void {
  if (!a.warning || warned.has(a.warning)) return;
  warned.add(a.warning);
  console.warn(a.warning);
}

// workerModule starts the bridge's Worker: from its URL where that is this page's origin, else
// from a blob: URL that imports it (a Worker's script must be same-origin). It uses the Worker
// only through the built-ins captured at load (builtins.ts): a later script that patches Worker,
// postMessage, MessageEvent's data or addEventListener cannot read or rewrite the traffic.
function workerModule(gen: number): RunningModule {
  const W = workers as NonNullable<typeof workers>; // launch checked
  let w: Worker;
  if (new URL(assets.worker).origin === location.origin) w = new W.Worker(assets.worker);
  else {
    const src = `importScripts(${JSON.stringify(assets.worker)});`;
    const url = call(W.createObjectURL, URL, new W.Blob([src], { type: "text/javascript" }));
    try {
      w = new W.Worker(url);
    } finally {
      setTimeout(() => call(W.revokeObjectURL, URL, url), 10000);
    }
  }
  const pending = noProto<Pending>(); // by id: in the order sent
  let nextId = 1;
  const terminate = (): void => call(W.terminate, w);
  const m: RunningModule = {
    mode: "worker",
    generation: gen,
    retiring: false,
    pending,
    request(req, transfer = []) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending[id] = { req, resolve, reject };
        call(W.postMessage, w, { ...req, id }, transfer);
      });
    },
    end() {
      terminate();
      const why = new Error("the bridge's Worker could not start");
      for (const id in pending) {
        pending[id]?.reject(why);
        delete pending[id];
      }
    },
  };
  call(events.addEventListener, w, "message", (e: MessageEvent) => {
    const a = read(e, "data") as Answer,
      p = pending[a.id ?? -1];
    if (!p) return;
    delete pending[a.id ?? -1];
    if (a.crashed && p.req.op !== "start") return crashed(m, p, a.crashed, terminate);
    p.resolve(a);
    if ((a.memory ?? 0) > RETIRE_MEMORY_BYTES) retire(m);
    if (m.retiring && isEmpty(pending)) terminate();
  });
  // A Worker that cannot load its script, or dies (out of memory), reports an error event: the
  // call it was running (the oldest sent) is the one that fails.
  const failed = (e: Event): void => {
    call(events.preventDefault, e);
    let message = "";
    try {
      message = String(call(W.errorMessage, e));
    } catch {
      /* a messageerror: no message */
    }
    let first: Pending | undefined;
    for (const id in pending) {
      first = pending[id];
      delete pending[id];
      break;
    }
    if (!first) {
      retire(m);
      terminate();
      return;
    }
    if (first.req.op === "start") return first.reject(new Error(message || "the Worker failed"));
    crashed(m, first, message || "the Worker stopped", terminate);
  };
  call(events.addEventListener, w, "error", failed);
  call(events.addEventListener, w, "messageerror", failed);
  return m;
}

// threadModule runs the module on this thread, with the server of the Worker's script, handed
// over through the script element that loads it (once), and the page's module globals the loader
// claimed when it ran.
let serveHere: Promise<typeof serveModule> | null = null;
let pageGlobals: ReturnType<typeof claimModuleGlobals> = null;
async function threadModule(gen: number): Promise<RunningModule> {
  if (!pageGlobals)
    throw unavailableError("a script that ran before the bridge defined its module's globals on this page");
  serveHere ??= new Promise<typeof serveModule>((resolve, reject) => {
    const s = document.createElement("script");
    Object.defineProperty(s, "webmcpBridgeServe", { value: resolve });
    s.src = assets.worker;
    s.onload = () => reject(new Error("it handed over no module server"));
    s.onerror = () => reject(new Error("it did not load"));
    (document.head || document.documentElement).appendChild(s);
  }).catch((e: unknown) => {
    serveHere = null;
    throw unavailableError(`cannot load ${assets.worker} (${e instanceof Error ? e.message : String(e)})`);
  });
  const handle = (await serveHere)(globalThis as Parameters<typeof serveModule>[0], pageGlobals);
  const m: RunningModule = {
    mode: "main",
    generation: gen,
    retiring: false,
    pending: noProto(),
    async request(req) {
      const a = await handle(req);
      if (a.crashed && req.op !== "start") {
        const why = a.crashed;
        return new Promise((resolve, reject) => crashed(m, { req, resolve, reject }, why, () => {}));
      }
      if ((a.memory ?? 0) > RETIRE_MEMORY_BYTES) retire(m);
      return a;
    },
    end() {},
  };
  return m;
}

/** noProto is an empty record without a prototype. */
const noProto = <V>(): Record<number, V> => ({ __proto__: null }) as unknown as Record<number, V>;

/** isEmpty tells a record that holds nothing (for-in: no iterator a page could patch). */
function isEmpty(r: Record<number, unknown>): boolean {
  for (const _ in r) return false;
  return true;
}

// crashed fails the request p of module m, which died in it, ends m and sends what was queued
// behind it to a new module.
function crashed(m: RunningModule, p: Pending, why: string, end: () => void): void {
  retire(m, `the module stopped in ${why}`);
  end();
  p.reject(
    Object.assign(
      new Error(`the bridge's module stopped while handling this call (${why}); a new one starts on the next call`),
      { moduleCrashed: true },
    ),
  );
  for (const id in m.pending) {
    const q = m.pending[id];
    delete m.pending[id];
    void call(
      then,
      request(q.req),
      (a: Answer) => q.resolve(a),
      (e: unknown) => q.reject(e),
    );
  }
}

function retire(m: RunningModule, why?: string): void {
  m.retiring = true;
  if (running !== m) return;
  running = null;
  if (why) console.warn(`${MESSAGE_PREFIX}${why}; a new module starts on the next call`);
}

// request sends req to the running module (starting one if needed) and returns its answer.
async function request(req: Request, transfer?: Transferable[]): Promise<Answer> {
  const m = await startModule();
  crossings++;
  return m.request(req, transfer);
}

/** callGo calls an export of the module with its typed arguments; an error head is thrown. */
export async function callGo<K extends ExportName, H = Record<string, unknown>>(
  name: K,
  ...args: ExportArgs[K]
): Promise<Frame<H>> {
  const at = BINARIES_AT[name];
  const transfer = at === undefined ? [] : (args[at] as readonly Binary[]).map((b) => b.bytes.buffer);
  const req = { op: "call", name, args } as Request;
  return frameOf<H>(outOf(await request(req, transfer)));
}

function outOf(a: Answer): string {
  if (a.out === undefined) throw new Error(`the module gave no answer (${a.crashed || a.unavailable || "unknown"})`);
  return a.out;
}

/** configure sets the policy (settings as JSON) and keeps it for restarted modules. */
export async function configure(json: string): Promise<Policy> {
  const { head } = await callGo<"configure", { policy: Policy }>("configure", json);
  configured = json;
  state.policy = head.policy;
  return head.policy;
}

/** A tool's input schema as the host keeps it: its JSON text and a key that names it in every module. */
export interface SchemaRef {
  readonly json: string;
  readonly key: number;
}
export const newSchema = (json: string): SchemaRef => ({ json, key: ++schemaKeys });

/** The answer to a call's arguments that fail their schema: the isError result, the DataError
 * message and the head (with the agent side's needs when asked). */
export interface Invalid<H> {
  body: string;
  message: string;
  head: H;
}

/** checkInput validates a call's arguments (JSON text) against schema: null when they pass. */
export async function checkInput<H>(schema: SchemaRef, args: string, forAgent: boolean): Promise<Invalid<H> | null> {
  const { head, body } = frameOf<H & { invalid?: unknown; message?: string }>(
    outOf(await request({ op: "validate", key: schema.key, json: schema.json, args, forAgent })),
  );
  return head.invalid ? { body, message: head.message ?? "", head } : null;
}

/** defaultPolicy says whether the page runs with the default policy (configure() never took
 * settings): the limits webmcp-mcp checks arguments within natively are then the page's too. */
export const defaultPolicy = (): boolean => configured === null;

/** releaseSchema forgets schema in the running module (a module started later never knew it). */
export function releaseSchema(schema: SchemaRef | null): void {
  if (running && schema) running.request({ op: "release", key: schema.key }).catch(() => {});
}

/** The test build's door into the module: any export by name (the test exports too), and
 * "alias" to make an export behave as another (to crash the module on purpose). The shipped
 * loader has none of it: the build drops this code there. */
export async function testCall(name: string, ...args: unknown[]): Promise<string> {
  if (!__WEBMCP_TEST__) throw new TypeError("only the test build has a door into the module");
  let req: Request;
  if (name === "alias") req = { op: "alias", name: args[0] as ExportName, to: args[1] as TestExportName };
  else if (name === "stats" || name === "panicForTest" || name === "crashForTest") req = { op: "test", name };
  else req = { op: "call", name, args } as unknown as Request;
  return outOf(await request(req));
}

function unavailableError(why: string): UnavailableError {
  const then =
    !__WEBMCP_CHUNKED__ && extensionPage()
      ? "the extension's agent side cannot normalize here"
      : fallback === "refuse"
        ? 'calls that need it answer an error (data-fallback="refuse")'
        : "tools work as the page wrote them, without the bridge's checks";
  const fix = !__WEBMCP_CHUNKED__ && /^cannot load /.test(why) ? manifestFix() : "";
  return Object.assign(new Error(`${MESSAGE_PREFIX}${why}${fix}; ${then}`), { moduleUnavailable: true as const, why });
}
function cspError(cause: unknown): UnavailableError {
  return Object.assign(
    unavailableError(
      !__WEBMCP_CHUNKED__ && extensionPage()
        ? "this extension page's Content Security Policy does not allow WebAssembly (add 'wasm-unsafe-eval' " +
            "to script-src in the manifest's content_security_policy.extension_pages)"
        : "this page's Content Security Policy does not allow WebAssembly (add 'wasm-unsafe-eval' to script-src)",
    ),
    { cause },
  );
}

// extensionPage tells an extension's own page (a side panel, an offscreen document), whose
// policy and files the extension's manifest sets, not a web page's author. Only the builds an
// extension uses (the ES module, the MAIN-world script) say so: the page's script stays small.
const extensionPage = (): boolean => /^(chrome|moz|safari-web)-extension:$/.test(location.protocol);

// manifestFix is what an extension's manifest must say for the module's files to load: in its
// own pages, the files must be in the extension; from a web page (the MAIN-world content script),
// they must also be web_accessible_resources for that page.
function manifestFix(): string {
  const files = "webmcp-bridge-worker.js and webmcp-bridge.wasm";
  if (extensionPage()) return ` (the extension must carry ${files} beside the module it imports)`;
  if (/^(chrome|moz|safari-web)-extension:$/.test(new URL(assets.worker, location.href).protocol))
    return ` (list ${files} in the manifest's web_accessible_resources, with matches for this page)`;
  return "";
}
