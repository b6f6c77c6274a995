// Native WebMCP: the browser's own ModelContext, its registerTool wrapped so that tools run the
// guarded flow (flow.ts): the schema checked at registration, the arguments validated, the result
// normalized, the compiled schema released when the tool goes.
import { checkToolSchema, releaseTool, runGuarded } from "./flow.ts";
import { defineProperty, getOwnPropertyDescriptor } from "./builtins.ts";
import { toJSON } from "./encode.ts";
import type { ModelContext, ModelContextTool } from "./types.ts";

type RegisterOptions = { signal?: AbortSignal; exposedTo?: string[] } | undefined;

/** nativeModelContext is the browser's own ModelContext, read through the prototypes' getters
 * (an <img name="modelContext"> makes document.modelContext an element). */
export function nativeModelContext(): ModelContext | null {
  const sources: [{ prototype: object } | undefined, object][] = [[globalThis.Document, document], [globalThis.Navigator, navigator]];
  for (const [Interface, target] of sources) {
    const d = Interface && getOwnPropertyDescriptor(Interface.prototype, "modelContext");
    const mc: unknown = d && typeof d.get === "function" ? d.get.call(target) : null;
    if (mc && typeof (mc as { registerTool?: unknown }).registerTool === "function") return mc as ModelContext;
  }
  return null;
}

/** wrapNative wraps native.registerTool; with normalizeOn false tools are registered unchanged. */
export function wrapNative(native: ModelContext, normalizeOn: boolean): ModelContext {
  const nativeRegister = native.registerTool.bind(native);
  native.registerTool = function registerTool(tool: ModelContextTool, options?: RegisterOptions): Promise<undefined> {
    if (!normalizeOn || !tool || typeof tool.execute !== "function") return nativeRegister(tool, options);
    let schema;
    try {
      schema = checkToolSchema(tool.inputSchema).schema;
    } catch (e) {
      if (e instanceof TypeError && "path" in e) return Promise.reject(e); // outside the enforced subset
      return nativeRegister(tool, options); // not JSON: the browser's own answer applies
    }
    const name = String(tool.name);
    const wrapped: ModelContextTool = {
      ...tool,
      // The tool gets the arguments as they were validated: their JSON, read again.
      execute: async (input, ctx) => {
        const out = await runGuarded(name, schema, () => toJSON(input === undefined ? {} : input, "the input"), true, (args) => tool.execute(args, ctx));
        if ("error" in out) throw out.error;
        return out.text;
      },
    };
    const signal = options && options.signal;
    const registered = nativeRegister(wrapped, options);
    if (schema) {
      if (signal) signal.addEventListener("abort", () => releaseTool(schema), { once: true });
      registered.catch(() => releaseTool(schema));
    }
    return registered;
  };
  if (!navigator.modelContext) {
    // The draft keeps navigator.modelContext as a deprecated alias of the same object.
    defineProperty(Navigator.prototype, "modelContext", { configurable: true, get() { return native; } });
  }
  return native;
}
