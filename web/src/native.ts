// Native WebMCP: the browser's own ModelContext, its registerTool wrapped so that tools run the
// guarded flow (flow.ts): the schema checked at registration, the arguments validated, the result
// normalized, the compiled schema released when the tool goes.
import { checkToolSchema, isPending, runGuarded, type SchemaCheck } from "./flow.ts";
import { releaseSchema } from "./host.ts";
import { defineProperty, getOwnPropertyDescriptor, parse } from "./builtins.ts";
import { toJSON } from "./encode.ts";
import { hasBinaries, passThrough } from "./results.ts";
import type { ModelContext, ModelContextTool } from "./types.ts";

type RegisterOptions = { signal?: AbortSignal; exposedTo?: string[] } | undefined;

/** nativeModelContext is the browser's own ModelContext, read through the prototypes' getters
 * (an <img name="modelContext"> makes document.modelContext an element). */
export function nativeModelContext(): ModelContext | null {
  const sources: [{ prototype: object } | undefined, object][] = [
    [globalThis.Document, document],
    [globalThis.Navigator, navigator],
  ];
  for (const [Interface, target] of sources) {
    const d = Interface && getOwnPropertyDescriptor(Interface.prototype, "modelContext");
    const mc: unknown = d && typeof d.get === "function" ? d.get.call(target) : null;
    if (mc && typeof (mc as { registerTool?: unknown }).registerTool === "function") return mc as ModelContext;
  }
  return null;
}

/** A native ModelContext of the kind Firefox's prototype has (dom.modelcontext.enabled): on
 * navigator only, tools unregistered by name, and an agent's call through invokeTool, which
 * resolves to the tool's own value. It has no executeTool, signals or document.modelContext. */
interface InvokingModelContext {
  registerTool(tool: {
    name: string;
    description: string;
    inputSchema?: unknown;
    execute(input: Record<string, unknown>): unknown;
  }): unknown;
  unregisterTool(name: string): void;
  invokeTool(name: string, input: unknown): Promise<unknown>;
}

/** invokingModelContext is native when it is of that kind, else null. */
export function invokingModelContext(native: ModelContext): InvokingModelContext | null {
  const n = native as unknown as Partial<InvokingModelContext> & { executeTool?: unknown };
  return typeof n.executeTool !== "function" &&
    typeof n.invokeTool === "function" &&
    typeof n.unregisterTool === "function"
    ? (n as InvokingModelContext)
    : null;
}

/** A tool of the bridge's own ModelContext, as mirrorInto hands it to the browser's. */
export interface MirroredTool {
  name: string;
  description: string;
  text: string | undefined;
  run(input: unknown): Promise<unknown>;
}

/** mirrorInto makes the browser's own registry (an invoking ModelContext) hold the tools of the
 * bridge's ModelContext, so that the browser's agent (invokeTool) calls them through the
 * guarded flow and gets the normalized CallToolResult. It answers add and remove. */
export function mirrorInto(native: InvokingModelContext): { add(t: MirroredTool): void; remove(name: string): void } {
  const parseSchema = (text: string | undefined): unknown => {
    try {
      return text === undefined ? undefined : parse(text);
    } catch {
      return undefined;
    }
  };
  return {
    add(t) {
      try {
        const registered = native.registerTool({
          name: t.name,
          description: t.description,
          inputSchema: parseSchema(t.text),
          execute: (input) => t.run(input),
        });
        if (registered instanceof Promise)
          registered.catch((e: unknown) => console.warn(`${t.name}: the browser's own WebMCP refused the tool`, e));
      } catch (e) {
        console.warn(`${t.name}: the browser's own WebMCP refused the tool`, e);
      }
    },
    remove(name) {
      try {
        native.unregisterTool(name);
      } catch {
        /* not there */
      }
    },
  };
}

// rawValue is a tool's value as the browser takes it, binaries made data: URLs (JSON text then).
const rawValue = (v: unknown): unknown => (hasBinaries(v) ? passThrough(v) : v);

/** wrapNative wraps native.registerTool; with normalizeOn false a tool's result goes to the
 * browser raw, but for binaries (content.image's Blobs, a canvas), given as data: URLs. */
export function wrapNative(native: ModelContext, normalizeOn: boolean): ModelContext {
  const nativeRegister = native.registerTool.bind(native);
  native.registerTool = function registerTool(tool: ModelContextTool, options?: RegisterOptions): Promise<undefined> {
    if (!tool || typeof tool.execute !== "function") return nativeRegister(tool, options);
    if (!normalizeOn)
      return nativeRegister(
        { ...tool, execute: async (input, ctx) => rawValue(await tool.execute(input, ctx)) },
        options,
      );
    let checked;
    try {
      checked = checkToolSchema(tool.inputSchema);
    } catch (e) {
      if (e instanceof TypeError && "path" in e) return Promise.reject(e); // outside the enforced subset
      return nativeRegister(tool, options); // not JSON: the browser's own answer applies
    }
    const register = ({ schema }: SchemaCheck): Promise<undefined> => {
      const name = String(tool.name);
      const wrapped: ModelContextTool = {
        ...tool,
        // The tool gets the arguments as they were validated: their JSON, read again.
        execute: async (input, ctx) => {
          const args = (): string => toJSON(input === undefined ? {} : input, "the input");
          const out = await runGuarded(name, schema, args, true, (validated) => tool.execute(validated, ctx));
          if ("error" in out) throw out.error;
          return out.text;
        },
      };
      const signal = options && options.signal;
      const registered = nativeRegister(wrapped, options);
      if (schema) {
        if (signal) signal.addEventListener("abort", () => releaseSchema(schema), { once: true });
        registered.catch(() => releaseSchema(schema));
      }
      return registered;
    };
    const name = String(tool.name);
    if (!isPending(checked)) return held.has(name) ? after(name, () => register(checked)) : register(checked);
    return after(name, () => checked.pending.then(register));
  };
  // A name whose schema waits for the pattern checker is held: registrations of the name wait
  // for it, so that the browser sees them in call order.
  const held = new Map<string, Promise<unknown>>();
  const after = (name: string, next: () => Promise<undefined>): Promise<undefined> => {
    const done = (held.get(name) ?? Promise.resolve()).then(next, next);
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    held.set(name, settled);
    void settled.then(() => {
      if (held.get(name) === settled) held.delete(name);
    });
    return done;
  };
  if (!navigator.modelContext) {
    // The draft keeps navigator.modelContext as a deprecated alias of the same object.
    defineProperty(Navigator.prototype, "modelContext", {
      configurable: true,
      get() {
        return native;
      },
    });
  }
  return native;
}
