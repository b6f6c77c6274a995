// webmcp-bridge loader. One script tag: <script src=".../webmcp-bridge.js"></script>
//
// Synchronously it defines window.WebMCPBridge (with a `ready` promise) and makes sure
// document.modelContext exists: the browser's own (native WebMCP), wrapped so that every tool
// result becomes an MCP CallToolResult, or this bridge's implementation of the API where the
// browser has none. The Go module (webmcp-bridge.wasm, next to this file or where data-assets
// says) is fetched on first need (see eager below); calls that need it wait for it, in order.
(() => {
  "use strict";
  // In the extension the loader runs as a MAIN-world content script at document_start: there is
  // no script element, and the extension's isolated-world relay hands over where the module is
  // and a per-page secret in an attribute. It is read and removed first, before anything that
  // could return early, and the built-ins the hand-off uses are captured now, before any page
  // script can replace them (see connectExtension).
  const extension = takeExtensionHandOff();
  // Loaded twice: the first one stays in charge. Only a bridge counts — an element with
  // id="WebMCPBridge" also shows up as window.WebMCPBridge.
  const existing = Object.getOwnPropertyDescriptor(globalThis, "WebMCPBridge");
  if (existing && existing.value && existing.value[Symbol.for("webmcp-bridge")] === true) return;

  const script = document.currentScript;
  const base = new URL(".", extension ? extension.base : (script && (script.dataset.assets || script.src)) || location.href);
  const normalizeOn = !(script && script.dataset.normalize === "off");
  // The module starts on first need — a call that needs Go, normalize, configure, an agent call,
  // reading ready — or, for the schema checks of registerTool, after the page's load event in
  // idle time; data-start="eager" starts it at once. A page whose tools return plain text never
  // fetches it.
  const eager = !!(script && script.dataset.start === "eager");
  const NAME_RE = /^[A-Za-z0-9_.\-]{1,128}$/;

  // ---- the Go module -------------------------------------------------------------------------
  // Every export answers one frame: a line of JSON (the head), a newline, and a body — the
  // CallToolResult JSON when the call produced one, handed on as it is. A head {"error": {name,
  // message, …}} is thrown as that error (see wasm/module.go).
  //
  // The module is replaceable: if it ends (a fatal Go error, a trap, a stack overflow), the call
  // that was running gets an isError result and the next call starts a new one, with the policy
  // and the tools' schemas set up again. A module whose memory grew past RETIRE_BYTES during a
  // call is replaced after it, since WebAssembly memory never shrinks. Where the module cannot run
  // at all (no 'wasm-unsafe-eval' in the page's CSP, no WebAssembly, the file missing), the bridge
  // steps aside: tools work as the page wrote them, without its checks (see passThrough).
  const MAX_NESTING = 128; // bridge.MaxNesting: the start head says the same (a test checks)
  const DEFAULT_MAX_TEXT_CHARS = 100000; // the default policy's, for plain text before the module starts
  const RETIRE_BYTES = 256 * 1024 * 1024;
  let module = null; // {go, memory, runtime} of the running module
  let starting = null; // the start in progress
  let compiled = null; // Promise<WebAssembly.Module>, compiled once per page
  let generation = 0; // counts module starts: schema ids belong to one module
  let unavailable = null; // the Error that says why the module cannot run on this page
  let configured = null; // the last accepted configure() settings (JSON), applied again after a restart
  let policy = null; // the policy in force, as the module last answered it

  function startModule() {
    if (module) return Promise.resolve(module);
    if (unavailable) return Promise.reject(unavailable);
    if (!starting) {
      starting = launch().then((m) => { module = m; starting = null; return m; }, (e) => {
        starting = null;
        if (e && e.moduleUnavailable) stepAside(e);
        throw e;
      });
    }
    return starting;
  }

  async function launch() {
    if (typeof WebAssembly !== "object") throw unavailableError("this browser has no WebAssembly");
    if (typeof globalThis.Go !== "function") {
      await new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = new URL("wasm_exec.js", base).href;
        s.onload = resolve;
        s.onerror = () => reject(unavailableError("cannot load " + s.src));
        (document.head || document.documentElement).appendChild(s);
      });
    }
    if (!compiled) compiled = compileModule(new URL("webmcp-bridge.wasm", base).href);
    let wasm;
    try {
      wasm = await compiled;
    } catch (e) {
      compiled = null;
      throw e;
    }
    const runtime = new globalThis.Go();
    const started = new Promise((resolve) => { globalThis.__webmcpBridgeStarted = resolve; });
    const instance = await WebAssembly.instantiate(wasm, runtime.importObject);
    const m = { go: null, memory: instance.exports.mem, runtime, generation: ++generation };
    runtime.run(instance).then(() => {
      if (module === m) retire(m, "the Go module exited");
    });
    await started;
    m.go = globalThis.__webmcpBridgeGo;
    let { head } = frameOf(m.go.start());
    if (head.maxNesting !== MAX_NESTING) console.warn(`webmcp-bridge: the module's nesting limit is ${head.maxNesting}, the loader's ${MAX_NESTING}`);
    api.version = head.version;
    if (configured !== null) head = frameOf(m.go.configure(configured)).head;
    policy = head.policy;
    return m;
  }

  // compileModule compiles the module once; a server that sends the wrong MIME type gets a second
  // try from the bytes. A CSP without 'wasm-unsafe-eval' makes the module unavailable.
  async function compileModule(url) {
    const blocked = (e) => /Content.Security.Policy|CSP|unsafe-eval/i.test(String(e && e.message));
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (e) {
      if (blocked(e)) throw cspError(e);
      let bytes;
      try {
        const r = await fetch(url);
        if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
        bytes = await r.arrayBuffer();
      } catch (fe) {
        throw unavailableError(`cannot load ${url} (${fe.message})`);
      }
      try {
        return await WebAssembly.compile(bytes);
      } catch (ce) {
        throw blocked(ce) ? cspError(ce) : unavailableError(`cannot compile ${url} (${ce.message})`);
      }
    }
  }

  function unavailableError(why) {
    return Object.assign(new Error(`webmcp-bridge: ${why}; tools work as the page wrote them, without the bridge's checks`), { moduleUnavailable: true });
  }
  function cspError(e) {
    return Object.assign(unavailableError("this page's Content Security Policy does not allow WebAssembly (add 'wasm-unsafe-eval' to script-src)"), { cause: e });
  }

  // stepAside is what happens, once, when the module cannot run on this page: a console
  // warning that says why and what to change, and a webmcpbridgeviolation event.
  function stepAside(e) {
    unavailable = e;
    console.warn(e.message);
    reportViolations("", [{ item: 0, type: "bridge", limit: "module", reason: e.message, notice: e.message }], true);
  }

  // retire drops a module that ended or grew too large; the next call starts a new one.
  function retire(m, why) {
    if (module !== m) return;
    module = null;
    if (why) console.warn(`webmcp-bridge: ${why}; a new module starts on the next call`);
  }

  // withModule runs fn(m) on the running module (starting one if needed); fn makes its calls
  // with invoke, synchronously, so they all reach the same module. A module whose memory grew
  // past RETIRE_BYTES is replaced afterwards.
  async function withModule(fn) {
    const m = await startModule();
    try {
      return fn(m);
    } finally {
      if (module === m && m.memory.buffer.byteLength > RETIRE_BYTES) retire(m, "");
    }
  }

  // invoke calls an exported Go function with strings and numbers: {head, body}. If the module
  // dies in the call, it is retired and invoke throws an Error whose moduleCrashed is set.
  function invoke(m, name, ...args) {
    let out, why = "";
    try {
      out = m.go[name](...args);
    } catch (e) {
      why = String(e && e.message || e);
    }
    if (!why && (m.runtime.exited || typeof out !== "string")) why = "the Go program exited";
    if (why) {
      retire(m, `the module stopped in ${name} (${why})`);
      throw Object.assign(new Error(`the bridge's module stopped while handling this call (${why}); a new one starts on the next call`), { moduleCrashed: true });
    }
    return frameOf(out);
  }

  const callGo = (name, ...args) => withModule((m) => invoke(m, name, ...args));

  // schemaId is the id of schema ({json, id, generation}) in module m, compiling it there first
  // when it was compiled in an earlier module (or never).
  function schemaId(m, schema) {
    if (schema.generation !== m.generation) {
      schema.id = invoke(m, "compileSchema", schema.json).head.id;
      schema.generation = m.generation;
    }
    return schema.id;
  }

  // checkInput validates a call's arguments (JSON text) against schema: null when they pass,
  // else the isError result (JSON text) and the DataError message.
  async function checkInput(schema, args) {
    const { head, body } = await withModule((m) => invoke(m, "validate", schemaId(m, schema), args));
    return head.invalid ? { body, message: head.message } : null;
  }

  function releaseSchema(schema) {
    if (module && schema && schema.generation === module.generation) {
      try { invoke(module, "releaseSchema", schema.id); } catch (e) { /* the module was replaced */ }
    }
  }

  function frameOf(out) {
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

  // ready starts the module the first time it is read.
  let readyPromise = null;
  function ready() {
    if (!readyPromise) {
      readyPromise = startModule().then(() => api);
      readyPromise.catch(() => {}); // said once by stepAside; a rejected ready is for the page to read
    }
    return readyPromise;
  }

  // idleAfterLoad resolves once the page has loaded and the main thread is idle: when the
  // schema checks of registrations start the module, the page's own start-up never waits for it.
  function idleAfterLoad() {
    return new Promise((resolve) => {
      const idle = () => (globalThis.requestIdleCallback ? requestIdleCallback(() => resolve(), { timeout: 1000 }) : setTimeout(resolve, 50));
      if (document.readyState === "complete") idle();
      else window.addEventListener("load", idle, { once: true });
    });
  }

  // ---- events to the page -------------------------------------------------------------------
  const violationListeners = new Set();
  function reportViolations(tool, violations, warned = false) {
    for (const v of violations) {
      if (!warned) console.warn(`webmcp-bridge: ${tool ? `tool "${tool}": ` : ""}${v.notice}`);
      const detail = { tool, ...v };
      for (const f of violationListeners) { try { f(detail); } catch (e) { console.error(e); } }
      window.dispatchEvent(new CustomEvent("webmcpbridgeviolation", { detail }));
    }
  }

  // ---- turning JS values into what Go reads ---------------------------------------------------
  // What crosses into the module is bounded before it crosses: at most MAX_NESTING levels of
  // arrays and objects, at most maxResultBytes of JSON. measure walks the value once, without
  // recursion, and stops as soon as either is exceeded — a sparse array of length 1e7 or a
  // 400-million-character string is refused without being serialized.
  function measure(value, maxBytes) {
    const over = () => maxBytes > 0 && bytes > maxBytes;
    // A lower bound of the JSON's UTF-8 size: a string's UTF-16 length is at most its bytes,
    // every other scalar is at least one byte, and so is every comma.
    const scalarBytes = (v) => (typeof v === "string" ? v.length + 2 : 1);
    const isContainer = (v) => v !== null && typeof v === "object" && typeof v.toJSON !== "function";
    let bytes = 0;
    const values = [value], depths = [1];
    const path = new Set(); // the containers being walked, to tell a cycle
    while (values.length) {
      const v = values.pop(), depth = depths.pop();
      if (depth === 0) { path.delete(v); continue; } // all of v's members are done
      if (!isContainer(v)) { bytes += scalarBytes(v); if (over()) break; continue; }
      if (path.has(v)) throw new TypeError("the result cannot be serialized to JSON (it contains itself)");
      if (depth > MAX_NESTING) return { refuse: "nesting" };
      path.add(v);
      values.push(v); depths.push(0);
      if (Array.isArray(v)) {
        bytes += 1 + 2 * v.length; // brackets, commas, and at least a byte per element
        if (over()) break;
        for (let i = v.length - 1; i >= 0; i--) {
          const e = v[i];
          if (isContainer(e)) { values.push(e); depths.push(depth + 1); } else bytes += scalarBytes(e) - 1;
        }
      } else {
        bytes += 2;
        for (const k of Object.keys(v)) {
          const e = v[k];
          bytes += k.length + 3;
          if (isContainer(e)) { values.push(e); depths.push(depth + 1); } else bytes += scalarBytes(e);
        }
      }
      if (over()) break;
    }
    return over() ? { refuse: "maxResultBytes", size: -1 } : null;
  }

  // utf8Size is the UTF-8 size of s when it may be within maxBytes, -1 when it certainly is not.
  function utf8Size(s, maxBytes) {
    if (maxBytes > 0 && s.length > maxBytes) return -1;
    if (s.length * 3 <= maxBytes) return s.length; // within the limit whatever the characters
    let n = s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x800 && (c < 0xd800 || c > 0xdbff)) n += 2; // 3 bytes; a surrogate pair is 4 for 2
      else if (c >= 0x80) n += 1;
    }
    return n;
  }

  // encode turns a value into the JSON text the module reads, or returns {refuse, size} when
  // the value is too deep or too large to cross.
  function encode(value) {
    const max = policy ? policy.maxResultBytes : 0;
    const over = measure(value, max);
    if (over) return over;
    let text;
    try {
      text = JSON.stringify(value);
    } catch (e) {
      if (e instanceof RangeError) return { refuse: "nesting" }; // a toJSON that nests deeper
      try {
        text = JSON.stringify(value, (k, v) => (typeof v === "bigint" ? v.toString() : v));
      } catch (e2) {
        throw new TypeError(`the result cannot be serialized to JSON (${e2.message})`);
      }
    }
    if (text === undefined) text = "null";
    const size = max > 0 ? utf8Size(text, max) : 0;
    if (size < 0 || size > max && max > 0) return { refuse: "maxResultBytes", size };
    return text;
  }

  // toJSON is encode for what is not a tool's result (settings, schemas, arguments): too deep
  // or too large is a TypeError that says so.
  function toJSON(value, what) {
    const out = encode(value);
    if (typeof out === "string") return out;
    throw new TypeError(out.refuse === "nesting" ? `${what} is nested more than ${MAX_NESTING} levels deep (the limit)`
      : `${what} is more than ${policy.maxResultBytes} bytes of JSON (maxResultBytes)`);
  }

  // Plain text is the most common result and needs no checks beyond its length (maxTextChars of
  // the policy the module answered), so it is mapped here without a trip into the module; the
  // output is exactly what Go would produce (a browser test compares the two). Anything else,
  // or text that is long or not well-formed, goes to Go.
  function plainText(value) {
    let text;
    if (typeof value === "string") text = value;
    else if (value && typeof value === "object" && value.type === "text" && typeof value.text === "string" &&
      typeof value.toJSON !== "function" && Object.keys(value).length === 2 && Object.getPrototypeOf(value) === Object.prototype) text = value.text;
    else return null;
    const max = policy ? policy.maxTextChars : DEFAULT_MAX_TEXT_CHARS;
    if (max > 0 && text.length > max) return null; // UTF-16 units ≥ characters
    if (typeof text.isWellFormed !== "function" || !text.isWellFormed()) return null;
    return { content: [{ type: "text", text }], resultType: "complete" };
  }

  // normalizeText returns the CallToolResult as JSON text, which is what executeTool hands on:
  // only the module's small head (the violations) is parsed here, never the result itself.
  async function normalizeText(value, tool) {
    const fast = plainText(value);
    if (fast) return JSON.stringify(fast);
    if (!policy) await startModule();
    const json = encode(value);
    const { head, body } = typeof json === "string" ? await callGo("normalize", json, document.baseURI) : await callGo("refuse", json.refuse, json.size || 0);
    reportViolations(tool, head.violations);
    return body;
  }

  // errorText is the isError result (JSON text) for a tool that threw or rejected: the message
  // as thrown, with the error's name only where it says more than "Error".
  async function errorText(err) {
    const isError = err instanceof Error || (err && typeof err === "object" && typeof err.message === "string");
    const name = isError && typeof err.name === "string" ? err.name : "";
    const message = isError ? err.message : String(err);
    const code = err && typeof err === "object" && err.code !== undefined ? String(err.code) : "";
    return (await callGo("errorResult", name, String(message).slice(0, 100000), code)).body;
  }

  // passThrough is what a tool returns when the module cannot run on this page: its value as the
  // browser would pass it on without the bridge.
  function passThrough(value) {
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  // resolveBinary turns the binary forms a page may hand to content.image into a data URL. A
  // binary over maxImageBytes is refused before it is read.
  async function resolveBinary(src) {
    if (typeof src === "string") return src;
    let blob;
    if (typeof Blob !== "undefined" && src instanceof Blob) blob = src;
    else if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) blob = new Blob([src]);
    else if (typeof HTMLCanvasElement !== "undefined" && src instanceof HTMLCanvasElement)
      blob = await new Promise((res) => src.toBlob(res, "image/png"));
    else if (typeof OffscreenCanvas !== "undefined" && src instanceof OffscreenCanvas)
      blob = await src.convertToBlob({ type: "image/png" });
    else if (typeof ImageBitmap !== "undefined" && src instanceof ImageBitmap) {
      const c = new OffscreenCanvas(src.width, src.height);
      c.getContext("2d").drawImage(src, 0, 0);
      blob = await c.convertToBlob({ type: "image/png" });
    } else throw new TypeError("content.image: expected base64, a data URL, a Blob, an ArrayBuffer, a typed array, a canvas or an ImageBitmap");
    if (!blob) throw new TypeError("content.image: the canvas gave no image (is it 0×0?)");
    if (!policy) await startModule().catch(() => {});
    const max = policy ? policy.maxImageBytes : 0;
    if (max > 0 && blob.size > max)
      throw new RangeError(`the image is ${blob.size} bytes, over the maxImageBytes limit of ${max} bytes`);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return "data:" + (blob.type || "application/octet-stream") + ";base64," + btoa(bin);
  }

  // isBinary tells the binary values a tool may return in place of an image block.
  function isBinary(v) {
    return v instanceof ArrayBuffer || ArrayBuffer.isView(v) ||
      (typeof Blob !== "undefined" && v instanceof Blob) ||
      (typeof HTMLCanvasElement !== "undefined" && v instanceof HTMLCanvasElement) ||
      (typeof OffscreenCanvas !== "undefined" && v instanceof OffscreenCanvas) ||
      (typeof ImageBitmap !== "undefined" && v instanceof ImageBitmap);
  }

  // prepare turns binary results (alone or in a returned array) into image blocks, so that Go
  // receives one JSON text.
  async function prepare(value) {
    value = await value;
    if (isBinary(value)) return { type: "image", data: await resolveBinary(value) };
    if (Array.isArray(value) && value.some(isBinary))
      return Promise.all(value.map(async (v) => (isBinary(v) ? { type: "image", data: await resolveBinary(v) } : v)));
    return value;
  }

  // runTool runs a page's execute and turns whatever happens into the JSON text of a
  // CallToolResult. Where the module cannot run, the tool's own value goes on as passValue makes
  // it, and its own error is thrown.
  async function runTool(tool, input, ctx, passValue) {
    let value;
    try {
      value = await tool.execute(input, ctx);
    } catch (e) {
      return failed(e);
    }
    if (unavailable) return passValue(value);
    try {
      return await normalizeText(await prepare(value), tool.name);
    } catch (e) {
      if (unavailable) return passValue(value);
      return failed(e);
    }
  }

  // failed is the isError result (JSON text) for e; where the module cannot run, e is thrown on.
  async function failed(e) {
    try {
      return await errorText(e);
    } catch (e2) {
      throw unavailable ? e : e2;
    }
  }

  // ---- the ModelContext -----------------------------------------------------------------------
  const native = nativeModelContext();
  let modelContext;

  if (native) {
    // Native WebMCP: tools run as before, their results go through the normalizer.
    const nativeRegister = native.registerTool.bind(native);
    native.registerTool = function registerTool(tool, options) {
      if (!normalizeOn || !tool || typeof tool.execute !== "function") return nativeRegister(tool, options);
      // Native Chromium does not check arguments against inputSchema: the bridge does, in Go,
      // before execute runs. The schema is compiled now, as the fallback does: a schema the
      // bridge cannot enforce makes registerTool reject, and the tool is unregistered again.
      let schema = null;
      if (tool.inputSchema !== undefined) {
        try {
          schema = { json: toJSON(tool.inputSchema, "registerTool: inputSchema"), id: 0, generation: 0 };
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
      const checked = idleAfterLoad().then(() => withModule((m) => { schemaId(m, schema); })).catch((e) => {
        if (unavailable) return; // not checked where the module cannot run
        refused.abort(e);
        throw e; // a TypeError that says where in the schema and why
      });
      return Promise.all([registered, checked]).then(() => undefined);
    };
    modelContext = native;
    if (!navigator.modelContext) {
      // The draft keeps navigator.modelContext as a deprecated alias of the same object.
      Object.defineProperty(Navigator.prototype, "modelContext", { configurable: true, get() { return modelContext; } });
    }
  } else {
    modelContext = createModelContext();
    Object.defineProperty(Document.prototype, "modelContext", { configurable: true, get() { return modelContext; } });
    Object.defineProperty(Navigator.prototype, "modelContext", { configurable: true, get() { return modelContext; } });
  }

  // Event classes of the draft, for browsers that do not have them.
  const ToolActivatedEvent = globalThis.ToolActivatedEvent || class ToolActivatedEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.toolName = String(init.toolName || ""); }
  };
  const ToolCancelEvent = globalThis.ToolCancelEvent || class ToolCancelEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.toolName = String(init.toolName || ""); }
  };
  if (!globalThis.ToolActivatedEvent) globalThis.ToolActivatedEvent = ToolActivatedEvent;
  if (!globalThis.ToolCancelEvent) globalThis.ToolCancelEvent = ToolCancelEvent;

  // createModelContext implements the WebMCP draft's ModelContext for browsers without it. The
  // glue that must exist before the module loads (promises, events, abort signals) is here; the
  // checks (input-schema subset, argument validation) and the normalization run in Go.
  function createModelContext() {
    const tools = new Map(); // name → {tool, inputSchema, schema: {json, id, generation} | null}
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
            schema = { json: toJSON(tool.inputSchema, "registerTool: inputSchema"), id: 0, generation: 0 };
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
        return idleAfterLoad().then(() => withModule((m) => { schemaId(m, schema); })).then(announce, (e) => {
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

  // ---- the agent side ------------------------------------------------------------------------
  // What the agent and the renderer need from one output, computed in one crossing:
  // {result, violations, modelInput, tables}. modelInputs remembers the model input of every
  // result handed out, so toModelInput(result) does not sanitize the same output again.
  const modelInputs = new WeakMap();
  async function parseOutput(raw, tool) {
    let json = raw;
    if (typeof raw !== "string") json = encode(raw);
    else {
      await startModule();
      const max = policy.maxResultBytes;
      const size = utf8Size(raw, max);
      if (max > 0 && (size < 0 || size > max)) json = { refuse: "maxResultBytes", size };
    }
    const { head, body } = typeof json === "string" ? await callGo("parseToolOutput", json, document.baseURI) : await callGo("refuse", json.refuse, json.size || 0);
    reportViolations(tool, head.violations);
    const result = JSON.parse(body);
    if (!head.modelInput) head.modelInput = (await callGo("toModelInput", body)).head.modelInput;
    modelInputs.set(result, head.modelInput);
    return { result, violations: head.violations, modelInput: head.modelInput, tables: head.tables || {} };
  }

  // describeTool is how the agent side (and the extension) sees a registered tool.
  function describeTool(t) {
    let inputSchema = t.inputSchema;
    if (typeof inputSchema === "string") {
      try { inputSchema = inputSchema ? JSON.parse(inputSchema) : { type: "object" }; } catch (e) { inputSchema = { type: "object" }; }
    }
    return { name: t.name, title: t.title || "", description: t.description || "",
      inputSchema: inputSchema || { type: "object" }, annotations: Object.assign({}, t.annotations) };
  }

  // callDetailed runs a tool through executeTool and normalizes its raw output again. A tool that
  // fails gives an isError result; an unknown tool, or a call aborted through signal, rejects.
  async function callDetailed(name, args = {}, options = {}) {
    const tool = (await modelContext.getTools()).find((t) => t.name === name);
    if (!tool) throw new Error(`webmcp-bridge: no tool named "${name}" on this page`);
    let raw;
    try {
      raw = await modelContext.executeTool(tool, args, { signal: options.signal });
    } catch (e) {
      if (options.signal && options.signal.aborted) throw e;
      raw = await errorText(e);
    }
    return parseOutput(raw, name);
  }

  // ---- the public API -------------------------------------------------------------------------
  const content = {
    text: (text) => ({ type: "text", text: String(text) }),
    html: (html) => ({ type: "html", html: String(html) }),
    link: (url, title) => (title === undefined ? { type: "link", url: String(url) } : { type: "link", url: String(url), title: String(title) }),
    table: (headers, rows) => ({ type: "table", headers, rows }),
    error: (message, code) => (code === undefined ? { type: "error", message: String(message) } : { type: "error", message: String(message), code }),
    async image(src, opts = {}) {
      const block = { type: "image", data: await resolveBinary(src) };
      if (opts.mimeType) block.mimeType = opts.mimeType;
      if (opts.alt) block.alt = opts.alt;
      return block;
    },
  };

  const api = {
    version: "__WEBMCP_BRIDGE_VERSION__",
    get ready() { return ready(); },
    normalizing: normalizeOn,
    native: !!native,
    content,
    /** The policy in force: a copy of what the module last answered (null before ready). */
    get policy() { return policy && structuredClone(policy); },
    async configure(settings) {
      const json = toJSON(settings || {}, "configure: the settings");
      const { head } = await callGo("configure", json);
      configured = json;
      policy = head.policy;
      return structuredClone(policy);
    },
    async normalize(value) {
      await startModule();
      return JSON.parse(await normalizeText(await prepare(value), ""));
    },
    onViolation(f) { violationListeners.add(f); return () => violationListeners.delete(f); },
    agent: {
      async listTools() { return (await modelContext.getTools()).map(describeTool); },
      async callTool(name, args, options) { return (await callDetailed(name, args, options)).result; },
      callToolDetailed: callDetailed,
      async toModelInput(result) {
        if (modelInputs.has(result)) return structuredClone(modelInputs.get(result));
        await startModule();
        return (await callGo("toModelInput", toJSON(result, "the result"))).head.modelInput;
      },
      parseToolOutput: (raw, tool = "") => parseOutput(raw, tool),
    },
  };
  Object.defineProperty(api, Symbol.for("webmcp-bridge"), { value: true });
  Object.defineProperty(globalThis, "WebMCPBridge", { value: api, configurable: true, enumerable: true, writable: false });
  if (extension) connectExtension(extension);
  if (eager) ready();

  // connectExtension answers the extension's relay over a private MessageChannel. The port
  // arrives in one window message that carries the per-page secret; this listener is the first
  // registered (document_start) and stops the message from reaching page scripts. Everything
  // the hand-off touches — the event's data, source and ports, stopping it, listening and
  // posting on the port — goes through the built-ins captured before any page script ran, so a
  // page that patches Event, MessageEvent or MessagePort later sees nothing. Requests are
  // {id, op: "list" | "call", name?, args?}; a call answers with executeTool's raw string, which
  // the extension panel normalizes again itself.
  function connectExtension({ secret, builtins: b }) {
    const call = (f, self, ...args) => b.apply(f, self, args);
    const onMessage = (e) => {
      const d = call(b.data, e);
      if (call(b.source, e) !== window || !d || d.webmcpBridgeRelay !== true || d.secret !== secret) return;
      const ports = call(b.ports, e);
      if (!ports || !ports[0]) return;
      call(b.stopImmediatePropagation, e);
      call(b.removeEventListener, window, "message", onMessage, true);
      const port = ports[0];
      const reply = (id, body) => call(b.postMessage, port, Object.assign({ id, secret }, body));
      call(b.addEventListener, port, "message", async (m) => {
        const req = call(b.data, m) || {};
        if (req.secret !== secret || typeof req.id !== "number") return;
        try {
          const tools = await modelContext.getTools();
          if (req.op === "list") return reply(req.id, { tools: tools.map(describeTool) });
          if (req.op === "call") {
            const tool = tools.find((t) => t.name === req.name);
            if (!tool) return reply(req.id, { error: `no tool named "${req.name}" on this page` });
            const raw = await modelContext.executeTool(tool, req.args || {});
            return reply(req.id, { raw: typeof raw === "string" ? raw : JSON.stringify(raw) });
          }
          reply(req.id, { error: "unknown request" });
        } catch (err) {
          reply(req.id, { error: String(err && err.message || err), errorName: err && err.name });
        }
      });
      call(b.start, port);
      // The relay cannot see a fallback ModelContext (a JS object of this world): tell it.
      call(b.addEventListener, modelContext, "toolchange", () => call(b.postMessage, port, { secret, event: "toolchange" }));
    };
    call(b.addEventListener, window, "message", onMessage, true);
  }

  // takeExtensionHandOff reads and removes the relay's data-webmcp-bridge attribute ({base,
  // secret}) when the loader runs as the extension's content script (no script element), and
  // captures the built-ins connectExtension needs while no page script has run yet.
  function takeExtensionHandOff() {
    const root = document.documentElement;
    if (document.currentScript || !root || !root.hasAttribute("data-webmcp-bridge")) return null;
    let handOff = null;
    try { handOff = JSON.parse(root.getAttribute("data-webmcp-bridge")); } catch (e) { handOff = null; }
    root.removeAttribute("data-webmcp-bridge");
    if (!handOff || typeof handOff.secret !== "string" || typeof handOff.base !== "string") return null;
    const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
    const builtins = {
      apply: Reflect.apply,
      addEventListener: EventTarget.prototype.addEventListener,
      removeEventListener: EventTarget.prototype.removeEventListener,
      stopImmediatePropagation: Event.prototype.stopImmediatePropagation,
      data: getter(MessageEvent.prototype, "data"),
      source: getter(MessageEvent.prototype, "source"),
      ports: getter(MessageEvent.prototype, "ports"),
      postMessage: MessagePort.prototype.postMessage,
      start: MessagePort.prototype.start,
    };
    return { base: handOff.base, secret: handOff.secret, builtins };
  }

  // nativeModelContext is the browser's own ModelContext, read through the prototypes' getters:
  // an <img name="modelContext"> makes document.modelContext an element.
  function nativeModelContext() {
    const sources = [[globalThis.Document, document], [globalThis.Navigator, navigator]];
    for (const [Interface, target] of sources) {
      const d = Interface && Object.getOwnPropertyDescriptor(Interface.prototype, "modelContext");
      const mc = d && typeof d.get === "function" ? d.get.call(target) : null;
      if (mc && typeof mc.registerTool === "function") return mc;
    }
    return null;
  }
})();
