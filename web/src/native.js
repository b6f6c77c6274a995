// Native WebMCP: the browser's own ModelContext, its registerTool wrapped so that tools run as
// before and their results go through the normalizer.
import { checkInput, compileSchema, newSchema, unavailable } from "./host.js";
import { toJSON } from "./encode.js";
import { failed, idleAfterLoad, runTool } from "./results.js";

// nativeModelContext is the browser's own ModelContext, read through the prototypes' getters:
// an <img name="modelContext"> makes document.modelContext an element.
export function nativeModelContext() {
  const sources = [[globalThis.Document, document], [globalThis.Navigator, navigator]];
  for (const [Interface, target] of sources) {
    const d = Interface && Object.getOwnPropertyDescriptor(Interface.prototype, "modelContext");
    const mc = d && typeof d.get === "function" ? d.get.call(target) : null;
    if (mc && typeof mc.registerTool === "function") return mc;
  }
  return null;
}

// wrapNative wraps native.registerTool; with normalizeOn false tools are registered unchanged.
export function wrapNative(native, normalizeOn) {
  const nativeRegister = native.registerTool.bind(native);
  native.registerTool = function registerTool(tool, options) {
    if (!normalizeOn || !tool || typeof tool.execute !== "function") return nativeRegister(tool, options);
    // Native Chromium does not check arguments against inputSchema: the bridge does, in Go,
    // before execute runs. The schema is compiled now, as the fallback does: a schema the
    // bridge cannot enforce makes registerTool reject, and the tool is unregistered again.
    let schema = null;
    if (tool.inputSchema !== undefined) {
      try {
        schema = newSchema(toJSON(tool.inputSchema, "registerTool: inputSchema"));
      } catch (e) {
        return nativeRegister(tool, options); // not JSON: the browser's own answer applies
      }
    }
    const wrapped = Object.assign({}, tool, {
      execute: async (input, ctx) => {
        if (schema) {
          let invalid;
          try {
            invalid = await checkInput(schema, toJSON(input === undefined ? {} : input, "the input"));
          } catch (e) {
            if (unavailable) return tool.execute(input, ctx);
            return failed(e);
          }
          if (invalid) return invalid.body;
        }
        return runTool(tool, input, ctx, (v) => v);
      },
    });
    if (!schema) return nativeRegister(wrapped, options);
    const refused = new AbortController();
    const pageSignal = options && options.signal;
    const signal = !pageSignal ? refused.signal : typeof AbortSignal.any === "function" ? AbortSignal.any([pageSignal, refused.signal]) : pageSignal;
    const registered = nativeRegister(wrapped, Object.assign({}, options, { signal }));
    const checked = idleAfterLoad().then(() => compileSchema(schema)).catch((e) => {
      if (unavailable) return; // not checked where the module cannot run
      refused.abort(e);
      throw e; // a TypeError that says where in the schema and why
    });
    return Promise.all([registered, checked]).then(() => undefined);
  };
  if (!navigator.modelContext) {
    // The draft keeps navigator.modelContext as a deprecated alias of the same object.
    Object.defineProperty(Navigator.prototype, "modelContext", { configurable: true, get() { return native; } });
  }
  return native;
}
