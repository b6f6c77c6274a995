// The bridge's own ModelContext, for browsers without WebMCP. The glue that must exist before the
// module loads (promises, events, abort signals) is here; the checks (input-schema subset,
// argument validation) and the normalization run in Go. Forms become tools in declarative.js;
// the tools of other frames that load the bridge come from frames.js.
import { checkInput, compileSchema, newSchema, releaseSchema, unavailable } from "./host.js";
import { toJSON } from "./encode.js";
import { idleAfterLoad, passThrough, runTool } from "./results.js";
import { NAME_RE, NAVIGATED, runForm, watchForms } from "./declarative.js";
import { connectFrames, hints } from "./frames.js";

let ToolActivatedEvent, ToolCancelEvent;

const domError = (name, message) => new DOMException(message, name);
// usv is a string as WebIDL's USVString makes it: lone surrogates become U+FFFD.
const usv = (s) => (s = String(s), s.toWellFormed ? s.toWellFormed() : s);
// attempt runs f and turns a throw into a rejected promise, as a promise-returning IDL method does.
const attempt = (f) => { try { return f(); } catch (e) { return Promise.reject(e); } };
// rawText is what native WebMCP hands an agent for a tool's value: strings as they are, anything
// else as JSON (undefined as "undefined"); a navigation of a declarative tool gives null.
const rawText = (v) => (v === NAVIGATED ? null : typeof v === "string" ? v : v === undefined ? "undefined" : JSON.stringify(v));

// defineEventClasses defines the draft's event classes where the browser has none.
export function defineEventClasses() {
  const named = (name) => globalThis[name] || { [name]: class extends Event {
    constructor(type, init = {}) { super(type, init); this.toolName = String(init.toolName || ""); }
  } }[name];
  ToolActivatedEvent = globalThis.ToolActivatedEvent = named("ToolActivatedEvent");
  ToolCancelEvent = globalThis.ToolCancelEvent = named("ToolCancelEvent");
}

// checkOrigins turns an exposedTo or fromOrigins list into serialized origins, or throws the
// SecurityError native WebMCP throws for anything that is not a potentially trustworthy origin.
export function checkOrigins(list, what) {
  return Array.from(list || [], (o) => {
    let u = null;
    try { u = new URL(usv(o)); } catch (e) { /* not a URL */ }
    if (!u || !(u.protocol === "https:" || u.protocol === "http:" && /^(localhost|.+\.localhost|127(\.\d+){3}|\[::1\])$/.test(u.hostname)))
      throw domError("SecurityError", "Only secure origins are allowed in " + what);
    return u.origin;
  });
}

// describe is a tool as getTools() gives it: the RegisteredTool dictionary, members in IDL order
// (annotations and inputSchema undefined where the tool has none). e is a registry entry or a
// tool another frame described; its schema is kept as JSON text, so every call gets a fresh object.
function describe(e, win, origin) {
  let inputSchema;
  try { inputSchema = JSON.parse(e.text); } catch (x) { /* none, or another frame's garbage */ }
  return { annotations: e.annotations && { ...e.annotations }, description: e.description, inputSchema, name: e.name, origin, title: e.title, window: win };
}

// createModelContext implements the WebMCP draft's ModelContext; with normalizeOn false, results
// are raw, as the draft gives them.
export function createModelContext(normalizeOn) {
  // name → entry. Imperative: {tool, name, title, description, annotations, text, schema,
  // exposedTo}; declarative (declarative.js): {form, name, title, description, text, auto}.
  const tools = new Map();
  let mc, frames, pushPending = false, changePending = false;
  // changed says, once per turn, that the tools this page sees changed: toolchange here, and
  // with local true the other frames are sent this document's new list.
  const changed = (local = true) => {
    pushPending = pushPending || local;
    if (changePending) return;
    changePending = true;
    queueMicrotask(() => {
      if (pushPending) frames.push();
      changePending = pushPending = false;
      mc.dispatchEvent(new Event("toolchange"));
    });
  };
  const fire = (Type, type, toolName) => {
    mc.dispatchEvent(new Type(type, { toolName }));
    window.dispatchEvent(new Type(type, { toolName }));
  };

  // run calls the tool of entry with the arguments' JSON: the execute steps with their
  // cancellation. The promise rejects at once with the caller's reason when signal aborts; the
  // tool's own signal aborts a task later, with toolcancel after it.
  function run(entry, inputJSON, signal) {
    const name = entry.name;
    return new Promise((resolve, reject) => {
      let settled = false;
      const inner = new AbortController();
      const cancelled = () => fire(ToolCancelEvent, "toolcancel", name);
      const onAbort = () => {
        if (settled) return;
        settled = true;
        reject(signal.reason);
        setTimeout(() => { inner.abort(domError("AbortError", "The tool call was cancelled.")); cancelled(); });
      };
      if (signal) signal.addEventListener("abort", onAbort, { once: true });
      const finish = (ok, v) => {
        if (signal) signal.removeEventListener("abort", onAbort);
        if (settled) return;
        settled = true;
        ok ? resolve(v) : reject(v);
      };
      const activated = () => fire(ToolActivatedEvent, "toolactivated", name);
      (async () => {
        if (entry.schema) {
          let invalid;
          try {
            invalid = await checkInput(entry.schema, inputJSON);
          } catch (e) {
            if (!unavailable) return finish(false, e);
          }
          if (settled) return;
          if (invalid) return normalizeOn ? finish(true, invalid.body) : finish(false, domError("DataError", invalid.message));
        }
        if (settled) return;
        const args = JSON.parse(inputJSON);
        const ctx = { signal: inner.signal };
        // A form fills itself and says when it is active; a script tool is active once called.
        const tool = entry.form ? { name, execute: (a) => runForm(entry, a, { signal: inner.signal, activated, cancelled }) } : entry.tool;
        let out;
        if (normalizeOn) {
          out = runTool(tool, args, ctx, passThrough); // NAVIGATED normalizes as null does
        } else {
          try { out = Promise.resolve(tool.execute(args, ctx)); } catch (e) { out = Promise.reject(e); }
          out = out.then(rawText);
        }
        if (!entry.form) activated();
        // runTool rejects only where the module cannot run: then, as without the bridge, a tool
        // that fails is an UnknownError (a form says why).
        out.then((v) => finish(true, v), (e) => finish(false, domError("UnknownError", entry.form && e && e.message || "executeTool: the tool failed")));
      })();
    });
  }

  class ModelContext extends EventTarget {
    registerTool(tool, options) {
      return attempt(() => {
        const { name, description, execute, inputSchema, title, annotations } = Object(tool);
        if (typeof tool !== "object" || description === undefined || typeof execute !== "function" || inputSchema !== undefined && Object(inputSchema) !== inputSchema)
          throw new TypeError("registerTool: bad description, execute or inputSchema");
        if (typeof name !== "string" || !NAME_RE.test(name)) throw domError("InvalidStateError", "registerTool: a name is 1-128 of A-Z a-z 0-9 _ . -");
        if (tools.has(name)) throw domError("InvalidStateError", "registerTool: duplicate name " + name);
        let text, schema = null;
        if (inputSchema !== undefined) {
          text = toJSON(inputSchema, "registerTool: inputSchema"); // cycles, depth and size are TypeErrors
          if (text === "null") throw new TypeError("registerTool: inputSchema is not JSON");
          // A toJSON that returns a string is accepted, as native WebMCP does, and not checked.
          if (/^[{[]/.test(text)) schema = newSchema(text);
        }
        const signal = options && options.signal;
        if (signal && signal.aborted) throw signal.reason;
        const exposedTo = checkOrigins(options && options.exposedTo, "exposedTo");
        const entry = {
          tool, name, title: title === undefined ? "" : usv(title), description: usv(description), text, schema, exposedTo,
          annotations: annotations === undefined ? undefined : hints(Object(annotations)),
        };
        tools.set(name, entry); // the name is taken from now on, in call order
        const drop = () => {
          if (tools.get(name) !== entry) return;
          tools.delete(name);
          releaseSchema(schema);
          if (entry.announced) changed();
        };
        if (signal) signal.addEventListener("abort", drop, { once: true });
        // Registered: toolchange first, then the promise resolves; an abort before then rejects it.
        const announce = () => {
          if (signal && signal.aborted) throw signal.reason;
          if (tools.get(name) === entry) { entry.announced = true; changed(); }
        };
        if (!schema) return Promise.resolve().then(announce);
        return idleAfterLoad().then(() => compileSchema(schema)).then(announce, (e) => {
          if (unavailable) return announce(); // registered unchecked where the module cannot run
          drop();
          throw e; // a TypeError that says where in the schema and why
        });
      });
    }
    getTools(options) {
      return attempt(() => {
        const from = checkOrigins(options && options.fromOrigins, "fromOrigins");
        const list = [...tools.values()].map((e) => describe(e, window, frames.origin)).concat(frames.list(from));
        return Promise.resolve(list.sort((a, b) => (a.name > b.name) - (a.name < b.name)));
      });
    }
    executeTool(registered, input, options) {
      return attempt(() => {
        const signal = options && options.signal;
        if (signal && signal.aborted) throw signal.reason;
        if (!registered || typeof registered !== "object" || typeof registered.name !== "string" || registered.description === undefined ||
          registered.window == null || typeof registered.origin !== "string")
          throw new TypeError("executeTool: not a tool from getTools()");
        if (input === undefined) input = {};
        let inputJSON;
        try { inputJSON = input !== null && typeof input === "object" ? JSON.stringify(input) : undefined; } catch (e) { /* below */ }
        if (inputJSON === undefined || !/^[{[]/.test(inputJSON)) throw new TypeError("executeTool: the input is not a JSON object");
        if (registered.window !== window) return frames.call(registered, inputJSON, signal);
        const entry = tools.get(registered.name);
        if (!entry || registered.origin !== frames.origin) throw domError("UnknownError", "executeTool: no tool " + registered.name);
        // An opaque origin ("null") cannot name itself to an agent: its tools never run.
        if (frames.origin === "null") throw domError(entry.form ? "DataError" : "UnknownError", "executeTool: an opaque origin");
        return run(entry, inputJSON, signal);
      });
    }
  }
  // The event handler attributes (ontoolchange, …), as native WebMCP has them.
  for (const type of ["toolchange", "toolactivated", "toolcancel"]) {
    let handler = null;
    Object.defineProperty(ModelContext.prototype, "on" + type, {
      get: () => handler,
      set(f) {
        if (handler) this.removeEventListener(type, handler);
        handler = typeof f === "function" ? f : null;
        if (handler) this.addEventListener(type, handler);
      },
    });
  }
  if (!globalThis.ModelContext) globalThis.ModelContext = ModelContext;
  mc = new ModelContext();
  frames = connectFrames({ tools, changed, describe, run });
  watchForms(tools, changed);
  return mc;
}
