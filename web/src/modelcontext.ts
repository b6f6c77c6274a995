// The bridge's own ModelContext, for browsers without WebMCP. The glue that must exist before the
// module loads (promises, events, abort signals) is here; every call runs the guarded flow
// (flow.ts): the schema checked at registration, the arguments validated and the result
// normalized in Go. Forms become tools in form-tools.ts; the tools of other frames that load
// the bridge come from frame-tools.ts.
import { TOOL_NAME } from "./generated/boundary.ts";
import { checkToolSchema, isPending, normalizeForeign, runGuarded, type SchemaCheck } from "./flow.ts";
import { releaseSchema } from "./host.ts";
import { runForm, watchForms } from "./form-tools-loader.ts";
import type { Frames } from "./frame-tools.ts";
import { linkFrames } from "./frame-tools-loader.ts";
import { hints, type Entry, type Registry, type ScriptEntry, type ToolInfo } from "./registry.ts";
import { parse, stringify } from "./builtins.ts";
import { toJSON } from "./encode.ts";
import type { MirroredTool } from "./native.ts";
import type { ModelContext, ModelContextTool, RegisteredTool, ToolEvent } from "./types.ts";

/** The browser's own registry, where one stands beside the bridge's (Firefox's prototype). */
type Mirror = { add(t: MirroredTool): void; remove(name: string): void };
/** What register tells the browser's registry: a tool is there, a tool is gone. */
type Announce = { added(e: ScriptEntry): void; removed(e: ScriptEntry): void };

// mirrored tells mirror of each registered tool; the browser's agent calls it through run, and
// gets the CallToolResult (or the raw value, with normalization off) as an object.
function mirrored(mirror: Mirror, run: (e: Entry, inputJSON: string) => Promise<string | null>): Announce {
  return {
    added: (e) =>
      mirror.add({
        name: e.name,
        description: e.description,
        text: e.text,
        run: async (input) => {
          const text = await run(e, toJSON(input ?? {}, "the input")); // bounded as the native wrapper's
          try {
            return text === null ? null : parse(text);
          } catch {
            return text;
          }
        },
      }),
    removed: (e) => mirror.remove(e.name),
  };
}

type ToolEventClass = new (type: string, init?: EventInit & { toolName?: string }) => ToolEvent;
let ToolActivatedEvent: ToolEventClass, ToolCancelEvent: ToolEventClass;

const domError = (name: string, message: string): DOMException => new DOMException(message, name);
// usv is a string as WebIDL's USVString makes it: lone surrogates become U+FFFD.
const usv = (s: unknown): string => {
  const t = String(s);
  return typeof t.toWellFormed === "function" ? t.toWellFormed() : t;
};
// attempt runs f and turns a throw into a rejected promise, as a promise-returning IDL method does.
const attempt = <T>(f: () => Promise<T>): Promise<T> => {
  try {
    return f();
  } catch (e) {
    return Promise.reject(e);
  }
};

/** defineEventClasses defines the draft's event classes where the browser has none. */
export function defineEventClasses(): void {
  const g = globalThis as unknown as Record<string, ToolEventClass | undefined>;
  const named = (name: string): ToolEventClass =>
    g[name] ??
    {
      [name]: class extends Event {
        readonly toolName: string;
        constructor(type: string, init: EventInit & { toolName?: string } = {}) {
          super(type, init);
          this.toolName = String(init.toolName || "");
        }
      },
    }[name];
  ToolActivatedEvent = g.ToolActivatedEvent = named("ToolActivatedEvent");
  ToolCancelEvent = g.ToolCancelEvent = named("ToolCancelEvent");
}

/** checkOrigins turns an exposedTo or fromOrigins list into serialized origins, or throws the
 * SecurityError native WebMCP throws for anything that is not a potentially trustworthy origin. */
function checkOrigins(list: Iterable<unknown> | undefined, what: string): string[] {
  return Array.from(list || [], (o) => {
    let u: URL | null = null;
    try {
      u = new URL(usv(o));
    } catch {
      /* not a URL */
    }
    if (
      !u ||
      !(
        u.protocol === "https:" ||
        (u.protocol === "http:" && /^(localhost|.+\.localhost|127(\.\d+){3}|\[::1\])$/.test(u.hostname))
      )
    )
      throw domError("SecurityError", "Only secure origins are allowed in " + what);
    return u.origin;
  });
}

/** isTupleOrigin says whether origin is the serialization of a tuple origin (scheme, host, port). */
function isTupleOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return u.origin !== "null" && u.origin === origin;
  } catch {
    return false;
  }
}

/** describe is a tool as getTools() gives it: the RegisteredTool dictionary, members in IDL
 * order (annotations and inputSchema undefined where the tool has none). Its schema is kept as
 * JSON text, so every call gets a fresh object. */
export function describe(e: ToolInfo, win: Window, origin: string): RegisteredTool {
  let inputSchema: Record<string, unknown> | undefined;
  try {
    inputSchema = e.text === undefined ? undefined : (parse(e.text) as Record<string, unknown>);
  } catch {
    /* another frame's garbage */
  }
  return {
    annotations: e.annotations && { ...e.annotations },
    description: e.description,
    inputSchema,
    name: e.name,
    origin,
    title: e.title,
    window: win,
  };
}

/** createModelContext implements the WebMCP draft's ModelContext; with normalizeOn false,
 * results are raw, as the draft gives them. */
export function createModelContext(normalizeOn: boolean, mirror: Mirror | null = null): ModelContext {
  const tools: Registry = new Map();
  let pushPending = false,
    changePending = false;
  // changed says, once per turn, that the tools this page sees changed: toolchange here, and
  // with local true the other frames are sent this document's new list.
  const changed = (local = true): void => {
    pushPending = pushPending || local;
    if (changePending) return;
    changePending = true;
    queueMicrotask(() => {
      if (pushPending) frames.push();
      changePending = pushPending = false;
      mc.dispatchEvent(new Event("toolchange"));
    });
  };
  const fire = (Type: ToolEventClass, type: string, toolName: string): void => {
    mc.dispatchEvent(new Type(type, { toolName }));
    window.dispatchEvent(new Type(type, { toolName }));
  };
  const run = (entry: Entry, inputJSON: string, signal?: AbortSignal): Promise<string | null> =>
    runEntry(entry, inputJSON, signal, normalizeOn, fire);

  class BridgeModelContext extends EventTarget {
    registerTool(tool: ModelContextTool, options?: { signal?: AbortSignal; exposedTo?: string[] }): Promise<undefined> {
      return attempt(() => register(tools, changed, tool, options, mirror ? mirrored(mirror, run) : null));
    }
    getTools(options?: { fromOrigins?: string[] }): Promise<RegisteredTool[]> {
      return attempt(() => {
        const from = checkOrigins(options && options.fromOrigins, "fromOrigins");
        const list = [...tools.values()].map((e) => describe(e, window, frames.origin)).concat(frames.list(from));
        return Promise.resolve(list.sort((a, b) => Number(a.name > b.name) - Number(a.name < b.name)));
      });
    }
    executeTool(
      registered: RegisteredTool,
      input?: object,
      options?: { signal?: AbortSignal },
    ): Promise<string | null> {
      return attempt(() => {
        const signal = options && options.signal;
        if (signal && signal.aborted) throw signal.reason;
        if (
          !registered ||
          typeof registered !== "object" ||
          typeof registered.name !== "string" ||
          registered.description === undefined ||
          registered.window == null ||
          typeof registered.origin !== "string"
        )
          throw new TypeError("executeTool: not a tool from getTools()");
        // An opaque origin cannot name itself to an agent, nor can a tool whose origin is no
        // tuple origin: such calls are not supported (the newest tests), whatever the tool.
        if (frames.origin === "null" || !isTupleOrigin(registered.origin))
          throw domError("NotSupportedError", "executeTool: an opaque origin");
        if (input === undefined) input = {};
        let inputJSON: string | undefined;
        try {
          inputJSON = input !== null && typeof input === "object" ? stringify(input) : undefined;
        } catch {
          /* below */
        }
        if (inputJSON === undefined || !/^[{[]/.test(inputJSON))
          throw new TypeError("executeTool: the input is not a JSON object");
        // Another frame's tool: what it sends is normalized here again, whatever it says.
        if (registered.window !== window) {
          const raw = frames.call(registered, inputJSON, signal);
          return normalizeOn ? raw.then((text) => normalizeForeign(text, registered.name)) : raw;
        }
        const entry = tools.get(registered.name);
        if (!entry || registered.origin !== frames.origin)
          throw domError("UnknownError", "executeTool: no tool " + registered.name);
        return run(entry, inputJSON, signal);
      });
    }
  }
  defineHandlerAttributes(BridgeModelContext.prototype);
  // The class of document.modelContext: the bridge's, unless the browser has one of its own that
  // stays in charge (a browser's prototype that the bridge mirrors into stands behind it).
  const g = globalThis as unknown as { ModelContext?: unknown };
  if (!g.ModelContext || mirror) g.ModelContext = BridgeModelContext;
  const mc = new BridgeModelContext() as unknown as ModelContext;
  const frames: Frames = linkFrames({ tools, changed, describe, run });
  watchForms(tools, changed);
  return mc;
}

// register is registerTool's steps: the checks native WebMCP makes, the schema checked on the
// page, then the tool is announced (toolchange) and the promise resolves. While the first
// schemas wait for the schema checker (or the pattern checker), its name is held (reserved).
function register(
  tools: Registry,
  changed: () => void,
  tool: ModelContextTool,
  options: { signal?: AbortSignal; exposedTo?: string[] } | undefined,
  announce: Announce | null,
): Promise<undefined> {
  const { name, description, execute, inputSchema, title, annotations } = Object(tool) as Partial<ModelContextTool>;
  if (
    typeof tool !== "object" ||
    description === undefined ||
    typeof execute !== "function" ||
    (inputSchema !== undefined && Object(inputSchema) !== inputSchema)
  )
    throw new TypeError("registerTool: bad description, execute or inputSchema");
  if (typeof name !== "string" || !TOOL_NAME.test(name))
    throw domError("InvalidStateError", "registerTool: a name is 1-128 of A-Z a-z 0-9 _ . -");
  const held = reserved.get(tools) ?? new Map<string, object>();
  reserved.set(tools, held);
  if (tools.has(name) || held.has(name)) throw domError("InvalidStateError", "registerTool: duplicate name " + name);
  const checked = checkToolSchema(inputSchema);
  const signal = options && options.signal;
  if (signal && signal.aborted && !isPending(checked)) throw signal.reason; // else add() throws it, after the check
  const exposedTo = checkOrigins(options && options.exposedTo, "exposedTo");
  const add = ({ text, schema }: SchemaCheck): Promise<undefined> => {
    const entry: ScriptEntry = {
      tool,
      name,
      title: title === undefined ? "" : usv(title),
      description: usv(description),
      text,
      schema,
      exposedTo,
      annotations: annotations === undefined ? undefined : hints(Object(annotations) as Record<string, unknown>),
    };
    if (signal && signal.aborted) {
      releaseSchema(schema);
      throw signal.reason;
    }
    tools.set(name, entry); // the name is taken from now on, in call order
    if (signal)
      signal.addEventListener(
        "abort",
        () => {
          if (tools.get(name) !== entry) return;
          tools.delete(name);
          releaseSchema(schema);
          if (entry.announced) {
            changed();
            announce?.removed(entry);
          }
        },
        { once: true },
      );
    // Registered: toolchange first, then the promise resolves; an abort before then rejects it.
    return Promise.resolve().then(() => {
      if (signal && signal.aborted) throw signal.reason;
      if (tools.get(name) === entry) {
        entry.announced = true;
        changed();
        announce?.added(entry);
      }
      return undefined;
    });
  };
  if (!isPending(checked)) return add(checked);
  // The name is held until the check decides, or until the signal aborts (the promise then
  // rejects with its reason, and the name is free at once for the next registration).
  const hold = {};
  held.set(name, hold);
  const release = (): void => {
    if (held.get(name) === hold) held.delete(name);
  };
  if (signal) signal.addEventListener("abort", release, { once: true });
  return checked.pending.finally(release).then(add);
}

/** The names held per registry while their schemas wait for the schema or pattern checker. */
const reserved = new WeakMap<Registry, Map<string, object>>();

// runEntry calls the tool of entry with the arguments' JSON: the execute steps with their
// cancellation. The promise rejects at once with the caller's reason when signal aborts; the
// tool's own signal aborts a task later, with toolcancel after it.
function runEntry(
  entry: Entry,
  inputJSON: string,
  signal: AbortSignal | undefined,
  normalizeOn: boolean,
  fire: (Type: ToolEventClass, type: string, toolName: string) => void,
): Promise<string | null> {
  const name = entry.name;
  return new Promise((resolve, reject) => {
    let settled = false;
    const inner = new AbortController();
    const cancelled = (): void => fire(ToolCancelEvent, "toolcancel", name);
    const onAbort = (): void => {
      if (settled || !signal) return;
      settled = true;
      reject(signal.reason);
      setTimeout(() => {
        inner.abort(domError("AbortError", "The tool call was cancelled."));
        cancelled();
      });
    };
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
    const finish = (ok: boolean, v: unknown): void => {
      if (signal) signal.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      if (ok) resolve(v as string | null);
      else reject(v);
    };
    const activated = (): void => fire(ToolActivatedEvent, "toolactivated", name);
    const ctx = { signal: inner.signal };
    // A form fills itself and says when it is active; a script tool is active once called.
    const execute = entry.form
      ? (args: Record<string, unknown>) => runForm(entry, args, { signal: inner.signal, activated, cancelled })
      : (args: Record<string, unknown>) => {
          const out = entry.tool.execute(args, ctx);
          activated();
          return out;
        };
    runGuarded(name, entry.form ? null : entry.schema, inputJSON, normalizeOn, (args) => {
      if (settled) throw new DOMException("The tool call was cancelled.", "AbortError"); // while validating
      return execute(args);
    }).then(
      (out) => ("error" in out ? finish(false, out.error) : finish(true, out.text)),
      // Only raw results reject here: then, as native WebMCP does, a tool that fails is an
      // UnknownError (a form says why).
      (e: unknown) =>
        finish(
          false,
          domError("UnknownError", (entry.form && e instanceof Error && e.message) || "executeTool: the tool failed"),
        ),
    );
  });
}

// defineHandlerAttributes adds the event handler attributes (ontoolchange, …), as native WebMCP
// has them.
function defineHandlerAttributes(proto: EventTarget): void {
  for (const type of ["toolchange", "toolactivated", "toolcancel"]) {
    let handler: EventListener | null = null;
    Object.defineProperty(proto, "on" + type, {
      get: () => handler,
      set(this: EventTarget, f: unknown) {
        if (handler) this.removeEventListener(type, handler);
        handler = typeof f === "function" ? (f as EventListener) : null;
        if (handler) this.addEventListener(type, handler);
      },
    });
  }
}
