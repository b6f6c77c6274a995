// The bridge's own ModelContext, for browsers without WebMCP. The glue that must exist before the
// module loads (promises, events, abort signals) is here; the checks (input-schema subset,
// argument validation) and the normalization run in Go.
import { checkInput, compileSchema, newSchema, releaseSchema, unavailable } from "./host.js";
import { toJSON } from "./encode.js";
import { idleAfterLoad, passThrough, runTool } from "./results.js";

const NAME_RE = /^[A-Za-z0-9_.\-]{1,128}$/;
let ToolActivatedEvent, ToolCancelEvent;

// defineEventClasses defines the draft's event classes where the browser has none.
export function defineEventClasses() {
  ToolActivatedEvent = globalThis.ToolActivatedEvent || class ToolActivatedEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.toolName = String(init.toolName || ""); }
  };
  ToolCancelEvent = globalThis.ToolCancelEvent || class ToolCancelEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.toolName = String(init.toolName || ""); }
  };
  if (!globalThis.ToolActivatedEvent) globalThis.ToolActivatedEvent = ToolActivatedEvent;
  if (!globalThis.ToolCancelEvent) globalThis.ToolCancelEvent = ToolCancelEvent;
}

// createModelContext implements the WebMCP draft's ModelContext; with normalizeOn false, results
// are raw, as the draft gives them.
export function createModelContext(normalizeOn) {
  const tools = new Map(); // name → {tool, inputSchema, schema: {json, key} | null}
  class ModelContext extends EventTarget {
    registerTool(tool, options = {}) {
      const signal = options && options.signal;
      if (signal && signal.aborted) return Promise.reject(signal.reason);
      if (!tool || typeof tool !== "object") return Promise.reject(new TypeError("registerTool: the tool must be an object"));
      if (typeof tool.name !== "string" || !NAME_RE.test(tool.name))
        return Promise.reject(new DOMException(`registerTool: the name ${JSON.stringify(tool.name)} must be 1-128 characters of A-Z, a-z, 0-9, _, . and -`, "InvalidStateError"));
      if (typeof tool.execute !== "function") return Promise.reject(new TypeError("registerTool: execute must be a function"));
      if (tools.has(tool.name)) return Promise.reject(new DOMException(`registerTool: a tool named "${tool.name}" is already registered`, "InvalidStateError"));
      let schema = null;
      if (tool.inputSchema !== undefined) {
        try {
          schema = newSchema(toJSON(tool.inputSchema, "registerTool: inputSchema"));
        } catch (e) {
          return Promise.reject(e instanceof TypeError ? e : new TypeError("registerTool: inputSchema is not JSON: " + e.message));
        }
      }
      const entry = { tool, inputSchema: tool.inputSchema, schema };
      tools.set(tool.name, entry); // the name is taken from now on, in call order
      const unregister = () => {
        if (tools.get(tool.name) !== entry) return;
        tools.delete(tool.name);
        releaseSchema(entry.schema);
        this.dispatchEvent(new Event("toolchange"));
      };
      if (signal) signal.addEventListener("abort", unregister, { once: true });
      const announce = () => {
        if (tools.get(tool.name) === entry) this.dispatchEvent(new Event("toolchange"));
      };
      if (!schema) return Promise.resolve().then(announce);
      return idleAfterLoad().then(() => compileSchema(schema)).then(announce, (e) => {
        if (unavailable) return announce(); // registered unchecked where the module cannot run
        if (tools.get(tool.name) === entry) tools.delete(tool.name);
        throw e; // a TypeError that says where in the schema and why
      });
    }
    async getTools() {
      return [...tools.values()].map(({ tool, inputSchema, schema }) => ({
        name: tool.name, title: typeof tool.title === "string" ? tool.title : "",
        description: typeof tool.description === "string" ? tool.description : "",
        inputSchema: inputSchema === undefined ? "" : schema.json,
        window, origin: location.origin, annotations: Object.assign({}, tool.annotations),
      }));
    }
    executeTool(registered, input, options = {}) {
      const signal = options && options.signal;
      if (signal && signal.aborted) return Promise.reject(signal.reason);
      if (!registered || typeof registered !== "object" || typeof registered.name !== "string" || !("window" in registered) || typeof registered.origin !== "string")
        return Promise.reject(new TypeError("executeTool: the first argument must be a tool from getTools() (name, window, origin)"));
      if (input === undefined) input = {};
      let inputJSON;
      try { inputJSON = input !== null && typeof input === "object" ? JSON.stringify(input) : undefined; } catch (e) { inputJSON = undefined; }
      if (inputJSON === undefined || !inputJSON.startsWith("{") && !inputJSON.startsWith("["))
        return Promise.reject(new TypeError("executeTool: the input must be an object that serializes to JSON"));
      const entry = tools.get(registered.name);
      if (!entry || registered.origin !== location.origin)
        return Promise.reject(new DOMException(`executeTool: no tool named "${registered.name}" is registered`, "UnknownError"));
      const name = registered.name;
      return new Promise((resolve, reject) => {
        let settled = false;
        const inner = new AbortController();
        const onAbort = () => {
          if (settled) return;
          settled = true;
          reject(signal.reason);
          setTimeout(() => {
            inner.abort(new DOMException("The tool call was cancelled.", "AbortError"));
            fireBoth(this, () => new ToolCancelEvent("toolcancel", { toolName: name }));
          });
        };
        if (signal) signal.addEventListener("abort", onAbort, { once: true });
        const finish = (ok, v) => {
          if (signal) signal.removeEventListener("abort", onAbort);
          if (settled) return;
          settled = true;
          ok ? resolve(v) : reject(v);
        };
        (async () => {
          if (entry.schema) {
            let invalid;
            try {
              invalid = await checkInput(entry.schema, inputJSON);
            } catch (e) {
              if (!unavailable) return finish(false, e);
            }
            if (settled) return;
            if (invalid) return normalizeOn ? finish(true, invalid.body) : finish(false, new DOMException(invalid.message, "DataError"));
          }
          if (settled) return;
          const args = JSON.parse(inputJSON);
          let run;
          if (normalizeOn) {
            run = runTool(entry.tool, args, { signal: inner.signal }, passThrough);
          } else {
            try { run = Promise.resolve(entry.tool.execute(args, { signal: inner.signal })); } catch (e) { run = Promise.reject(e); }
            run = run.then(passThrough);
          }
          fireBoth(this, () => new ToolActivatedEvent("toolactivated", { toolName: name }));
          // runTool rejects only where the module cannot run: then, as without the bridge, a tool
          // that fails is an UnknownError.
          run.then((v) => finish(true, v), () => finish(false, new DOMException("executeTool: the tool failed", "UnknownError")));
        })();
      });
    }
  }
  return new ModelContext();
}

// fireBoth dispatches a fresh event from make at the ModelContext and another at window.
function fireBoth(target, make) {
  target.dispatchEvent(make());
  window.dispatchEvent(make());
}

