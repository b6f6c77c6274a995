// The side that runs the Go module: in the bridge's dedicated Worker (worker.ts), or on the
// page's own thread where a Worker cannot start (host.ts). Both answer the same requests, one at
// a time and in order. Requests carry strings and, for binary results, transferred bytes;
// answers carry strings (frames, see module-answer.ts) and the compiled WebAssembly.Module.
//
// The module's exports are taken, by name, from the global the module sets at start, which the
// bridge claimed before (claimModuleGlobals): no other script can read, call or replace them.
import { type ModuleGlobals } from "./builtins.ts";
import {
  EXPORT_NAMES,
  MESSAGE_PREFIX,
  type ExportArgs,
  type ExportName,
  type TestExportName,
} from "./generated/boundary.ts";
import { frameOf, frameText } from "./module-answer.ts";

/** A request to the module server. */
export type Request =
  | { op: "start"; wasm: string; module: WebAssembly.Module | null; configured: string | null }
  | { [K in ExportName]: { op: "call"; name: K; args: ExportArgs[K] } }[ExportName]
  | { op: "compile"; key: number; json: string }
  | { op: "validate"; key: number; json: string; args: string; forAgent: boolean }
  | { op: "release"; key: number }
  // The test build's requests: a test export by name, and making an export behave as another
  // (to crash the module on purpose). The shipped server refuses them.
  | { op: "test"; name: TestExportName }
  | { op: "alias"; name: ExportName; to: TestExportName };

/** The server's answer: a frame, or why the module died in the call or cannot start. */
export interface Answer {
  out?: string;
  start?: string;
  configure?: string;
  module?: WebAssembly.Module;
  crashed?: string;
  unavailable?: string;
  csp?: boolean;
  /** what the page should hear once (a module served with the wrong type) */
  warning?: string;
  /** the module's memory in bytes after the request */
  memory?: number;
  id?: number;
}

/** What wasm_exec.js defines: Go's runtime for js/wasm. */
interface GoRuntime {
  importObject: WebAssembly.Imports;
  exited: boolean;
  run(instance: WebAssembly.Instance): Promise<void>;
}
type GoExport = (...args: unknown[]) => unknown;
type Scope = typeof globalThis & { Go: new () => GoRuntime };

/** The module died in a call. */
class Crash {
  constructor(readonly crashed: string) {}
}
/** The module cannot run here (and a CSP is why, when csp). */
class Unavailable {
  constructor(
    readonly unavailable: string,
    readonly csp = false,
  ) {}
}

/** serveModule returns handle(request) → answer for a module run in scope (the Worker's or the
 * window's global object), where wasm_exec.js has defined Go and globals holds the globals the
 * module hands its exports over with. */
export function serveModule(scope: Scope, globals: ModuleGlobals): (req: Request) => Promise<Answer> {
  const server = new ModuleServer(scope, globals);
  let queue: Promise<unknown> = Promise.resolve();
  // handle answers requests one at a time, in order.
  return function handle(req: Request): Promise<Answer> {
    const done = queue.then(async () => {
      let a: Answer;
      try {
        a = await server.answer(req);
      } catch (e) {
        a =
          e instanceof Crash
            ? { crashed: e.crashed }
            : e instanceof Unavailable
              ? { unavailable: e.unavailable, csp: e.csp }
              : { crashed: messageOf(e) };
        if (server.compiled) a.module = server.compiled; // a start that failed later: the next one reuses it
      }
      if (server.warning) {
        a.warning = server.warning;
        server.warning = "";
      }
      a.memory = server.memoryBytes();
      return a;
    });
    queue = done;
    return done;
  };
}

/** ModuleServer holds one running module: its runtime, its exports, its compiled schemas. */
class ModuleServer {
  private runtime: GoRuntime | null = null;
  private memory: WebAssembly.Memory | null = null;
  // Objects without a prototype: on the page's thread no setter a later script put on a
  // prototype sees an export. schemas maps the loader's schema key to the module's schema id.
  private readonly exports = { __proto__: null } as unknown as Record<string, GoExport>;
  private readonly schemas = { __proto__: null } as unknown as Record<number, number>;
  /** the module compiled here, once it is */
  compiled: WebAssembly.Module | null = null;
  /** what the page should hear of the fetch, once */
  warning = "";

  constructor(
    private readonly scope: Scope,
    private readonly globals: ModuleGlobals,
  ) {}

  // writeUTF8 is what the module reads its long string arguments with (wasm/main_js.go), where
  // the globals hold a writer (in the Worker): writeUTF8(s) is s's length in UTF-16 units;
  // writeUTF8(s, at, room) writes s as UTF-8 straight into the module's memory at [at, at + room)
  // and answers the bytes written, or -1 where s did not fit or cannot be written there (the
  // module then reads it through syscall/js). It works only while a call into the module runs,
  // when no other script can: were it ever to leak, it would write nothing into the module's memory.
  private calling = false;
  private readonly writeUTF8 = (s: unknown, at?: unknown, room?: unknown): number => {
    const write = this.globals.encodeInto;
    if (typeof s !== "string" || !this.calling || !write) return -1;
    if (at === undefined) return s.length;
    if (!this.memory || typeof at !== "number" || typeof room !== "number") return -1;
    try {
      return write(s, this.memory.buffer, at, room);
    } catch {
      return -1; // outside the memory
    }
  };

  memoryBytes(): number {
    return this.memory ? this.memory.buffer.byteLength : 0;
  }

  answer(req: Request): Answer | Promise<Answer> {
    switch (req.op) {
      case "start":
        return this.start(req);
      case "call":
        return { out: this.call(req.name, req.args) };
      case "validate": {
        const s = this.schemaId(req.key, req.json);
        return "out" in s ? s : { out: this.call("validate", [s.id, req.args, req.args.length, req.forAgent]) };
      }
      case "compile": {
        const s = this.schemaId(req.key, req.json);
        return "out" in s ? s : { out: frameText({ id: s.id }) };
      }
      case "release": {
        const id = this.schemas[req.key];
        if (id !== undefined) this.call("releaseSchema", [id]);
        delete this.schemas[req.key];
        return { out: frameText({}) };
      }
      case "test":
        if (__WEBMCP_TEST__) return { out: this.call(req.name, []) };
        break;
      case "alias":
        if (__WEBMCP_TEST__) {
          const to = this.exports[req.to];
          if (to) this.exports[req.name] = to;
          return { out: frameText({}) };
        }
        break;
    }
    return { crashed: "unknown request" };
  }

  // start instantiates the module and takes its exports, by their names, from the global it sets
  // (held by the bridge's accessor), in the same turn.
  private async start({ wasm, module, configured }: Extract<Request, { op: "start" }>): Promise<Answer> {
    if (typeof WebAssembly !== "object") throw new Unavailable("this browser has no WebAssembly");
    const compiled =
      module ||
      (await compile(wasm, (w) => {
        this.warning = w;
      }));
    this.compiled = compiled;
    const go = new this.scope.Go();
    this.runtime = go;
    const instance = await WebAssembly.instantiate(compiled, go.importObject);
    this.memory = instance.exports.mem as WebAssembly.Memory;
    let started = false,
      onStarted = (): void => {};
    const whenStarted = new Promise<void>((resolve) => {
      onStarted = resolve;
    });
    this.globals.take(); // what an earlier module left
    this.globals.onStarted = () => {
      const first = !started;
      started = true;
      onStarted();
      return first && this.globals.encodeInto ? this.writeUTF8 : undefined; // handed over once
    };
    void go.run(instance); // runs main until it first waits: by then the exports are set
    if (!started) await whenStarted;
    this.globals.onStarted = null;
    const api = this.globals.take();
    if (api === null || typeof api !== "object") throw new Crash("the module did not start");
    for (let i = 0; i < EXPORT_NAMES.length; i++) {
      const name = EXPORT_NAMES[i];
      const d = this.globals.own(api, name); // an own data property: no getter of a script's runs
      if (d && typeof d.value === "function") this.exports[name] = d.value as GoExport;
    }
    const answer: Answer = { start: this.call("start", []), module: compiled };
    if (configured != null) answer.configure = this.call("configure", [configured]);
    return answer;
  }

  // call calls an export; a module that dies in it (a fatal Go error, a trap, a stack overflow)
  // makes it throw a Crash.
  private call(name: string, args: readonly unknown[]): string {
    const f = this.exports[name];
    if (!f) return frameText({ error: { name: "TypeError", message: `the module has no export named ${name}` } });
    let out: unknown,
      why = "";
    try {
      this.calling = true;
      out = f(...args);
    } catch (e) {
      why = messageOf(e);
    } finally {
      this.calling = false;
    }
    if (!why && (!this.runtime || this.runtime.exited || typeof out !== "string")) why = "the Go program exited";
    if (why) throw new Crash(`${name}: ${why}`);
    return out as string;
  }

  // schemaId is the module's id of the loader's schema key, compiling the schema where this
  // module has not yet; a schema the module refuses answers its error frame.
  private schemaId(key: number, json: string): { id: number } | { out: string } {
    let id = this.schemas[key];
    if (id === undefined) {
      const out = this.call("compileSchema", [json]);
      try {
        id = frameOf<{ id: number }>(out).head.id;
      } catch {
        return { out };
      }
      this.schemas[key] = id;
    }
    return { id };
  }
}

// compile fetches the module once and compiles it: while it downloads where the server sends it
// as application/wasm, else from the bytes fetched, with a warning that names the type to send.
// Where WebAssembly cannot compile at all (a CSP without 'wasm-unsafe-eval'), nothing is fetched.
async function compile(url: string, warn: (w: string) => void): Promise<WebAssembly.Module> {
  const refused = wasmRefused();
  if (refused !== null) throw new Unavailable(refused, true);
  let r: Response;
  try {
    r = await fetch(url);
    if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
  } catch (fe) {
    throw new Unavailable(`cannot load ${url} (${messageOf(fe)})`);
  }
  const type = (r.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
  try {
    if (type === WASM_TYPE) return await WebAssembly.compileStreaming(r);
    warn(
      `${MESSAGE_PREFIX}${url} is served as ${type || "no type"}: serve it as ${WASM_TYPE} ` +
        "(and compressed), so that the browser compiles it while it downloads",
    );
    return await WebAssembly.compile(await r.arrayBuffer());
  } catch (ce) {
    throw blocked(ce)
      ? new Unavailable(messageOf(ce), true)
      : new Unavailable(`cannot compile ${url} (${messageOf(ce)})`);
  }
}

const WASM_TYPE = "application/wasm";
// The smallest module there is (the magic number and version 1): compiling it costs nothing.
const EMPTY_MODULE = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);

/** wasmRefused is why WebAssembly cannot compile in this context (its CSP), or null where it can:
 * the empty module, valid everywhere, fails only where compiling is not allowed. */
export function wasmRefused(): string | null {
  try {
    new WebAssembly.Module(EMPTY_MODULE);
    return null;
  } catch (e) {
    return messageOf(e);
  }
}

const messageOf = (e: unknown): string => String(e instanceof Error ? e.message : e);
const blocked = (e: unknown): boolean => /Content.Security.Policy|CSP|unsafe-eval/i.test(messageOf(e));
