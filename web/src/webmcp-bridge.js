// webmcp-bridge loader. One script tag: <script src=".../webmcp-bridge.js"></script>
//
// Synchronously it defines window.WebMCPBridge (with a `ready` promise) and makes sure
// document.modelContext exists: the browser's own (native WebMCP), wrapped so that every tool
// result becomes an MCP CallToolResult, or this bridge's implementation of the API where the
// browser has none. The Go module (webmcp-bridge.wasm, next to this file) is loaded in the
// background; calls that need it wait for it, in order.
(() => {
  "use strict";
  if (globalThis.WebMCPBridge) return; // loaded twice: the first one stays in charge

  const script = document.currentScript;
  // In the extension the loader runs as a MAIN-world content script: there is no script element,
  // and the extension's isolated-world relay hands over where the module is and a per-page
  // secret in an attribute that is read and removed before any page script runs.
  let extension = null;
  if (!script && document.documentElement && document.documentElement.hasAttribute("data-webmcp-bridge")) {
    try { extension = JSON.parse(document.documentElement.getAttribute("data-webmcp-bridge")); } catch (e) { extension = null; }
    document.documentElement.removeAttribute("data-webmcp-bridge");
  }
  const base = new URL(".", extension ? extension.base : (script && script.src) || location.href);
  const normalizeOn = !(script && script.dataset.normalize === "off");
  const NAME_RE = /^[A-Za-z0-9_.\-]{1,128}$/;

  // ---- the Go module -------------------------------------------------------------------------
  // Every export answers one frame: a line of JSON (the head), a newline, and a body — the
  // CallToolResult JSON when the call produced one, handed on as it is. A head {"error": {name,
  // message, …}} is thrown as that error (see wasm/module.go).
  let go = null; // globalThis.__webmcpBridgeGo once started
  let policy = null; // the policy in force, as the module last answered it
  const ready = (async () => {
    if (typeof globalThis.Go !== "function") {
      await new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = new URL("wasm_exec.js", base).href;
        s.onload = resolve;
        s.onerror = () => reject(new Error("webmcp-bridge: cannot load " + s.src));
        (document.head || document.documentElement).appendChild(s);
      });
    }
    const runtime = new globalThis.Go();
    const started = new Promise((resolve) => { globalThis.__webmcpBridgeStarted = resolve; });
    const url = new URL("webmcp-bridge.wasm", base).href;
    let result;
    try {
      result = await WebAssembly.instantiateStreaming(fetch(url), runtime.importObject);
    } catch (e) {
      // Servers that send the wrong MIME type: fall back to compiling from bytes.
      const bytes = await (await fetch(url)).arrayBuffer();
      result = await WebAssembly.instantiate(bytes, runtime.importObject);
    }
    runtime.run(result.instance).then(() => {
      go = null;
      console.error("webmcp-bridge: the Go module exited");
    });
    await started;
    go = globalThis.__webmcpBridgeGo;
    const { head } = callGo("start");
    api.version = head.version;
    policy = head.policy;
    return api;
  })();
  ready.catch((e) => console.error(e));

  // callGo calls an exported Go function with strings and numbers: {head, body}.
  function callGo(name, ...args) {
    if (!go) throw new Error("webmcp-bridge: the module is not running");
    const out = go[name](...args);
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

  // ---- events to the page -------------------------------------------------------------------
  const violationListeners = new Set();
  function reportViolations(tool, violations) {
    for (const v of violations) {
      console.warn(`webmcp-bridge: ${tool ? `tool "${tool}": ` : ""}${v.notice}`);
      const detail = { tool, ...v };
      for (const f of violationListeners) { try { f(detail); } catch (e) { console.error(e); } }
      window.dispatchEvent(new CustomEvent("webmcpbridgeviolation", { detail }));
    }
  }

  // ---- turning JS values into what Go reads ---------------------------------------------------
  function toJSON(value) {
    let text;
    try {
      text = JSON.stringify(value, (k, v) => (typeof v === "bigint" ? v.toString() : v));
    } catch (e) {
      throw new Error(`the result cannot be serialized to JSON (${e.message})`);
    }
    if (text === undefined) text = "null";
    return text;
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
    const max = policy ? policy.maxTextChars : 0;
    if (max > 0 && text.length > max) return null; // UTF-16 units ≥ characters
    if (typeof text.isWellFormed !== "function" || !text.isWellFormed()) return null;
    return { content: [{ type: "text", text }], resultType: "complete" };
  }

  // normalizeText returns the CallToolResult as JSON text, which is what executeTool hands on:
  // only the module's small head (the violations) is parsed here, never the result itself.
  function normalizeText(value, tool) {
    const fast = plainText(value);
    if (fast) return JSON.stringify(fast);
    const { head, body } = callGo("normalize", toJSON(value));
    reportViolations(tool, head.violations);
    return body;
  }

  // errorText is the isError result (JSON text) for a tool that threw or rejected: the message
  // as thrown, with the error's name only where it says more than "Error".
  function errorText(err) {
    const isError = err instanceof Error || (err && typeof err === "object" && typeof err.message === "string");
    const name = isError && typeof err.name === "string" ? err.name : "";
    const message = isError ? err.message : String(err);
    const code = err && typeof err === "object" && err.code !== undefined ? String(err.code) : "";
    return callGo("errorResult", name, message, code).body;
  }

  // resolveBinary turns the binary forms a page may hand to content.image into a data URL.
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
  // CallToolResult.
  async function runTool(tool, input, ctx) {
    let value;
    try {
      value = await prepare(tool.execute(input, ctx));
    } catch (e) {
      await ready;
      return errorText(e);
    }
    await ready;
    try {
      return normalizeText(value, tool.name);
    } catch (e) {
      return errorText(e);
    }
  }

  // ---- the ModelContext -----------------------------------------------------------------------
  const native = document.modelContext || navigator.modelContext || null;
  let modelContext;

  if (native) {
    // Native WebMCP: tools run as before, their results go through the normalizer.
    const nativeRegister = native.registerTool.bind(native);
    native.registerTool = function registerTool(tool, options) {
      if (!normalizeOn || !tool || typeof tool.execute !== "function") return nativeRegister(tool, options);
      // Native Chromium does not check arguments against inputSchema: the bridge does, in Go,
      // before execute runs. The schema is compiled on the first call.
      let schemaId = 0;
      const wrapped = Object.assign({}, tool, {
        execute: async (input, ctx) => {
          await ready;
          if (tool.inputSchema !== undefined) {
            try {
              if (!schemaId) schemaId = callGo("compileSchema", toJSON(tool.inputSchema)).head.id;
              const { head, body } = callGo("validate", schemaId, toJSON(input === undefined ? {} : input));
              if (head.invalid) return body;
            } catch (e) {
              return errorText(e);
            }
          }
          return runTool(tool, input, ctx);
        },
      });
      return nativeRegister(wrapped, options);
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
    const tools = new Map(); // name → {tool, schema, schemaId}
    class ModelContext extends EventTarget {
      registerTool(tool, options = {}) {
        const signal = options && options.signal;
        if (signal && signal.aborted) return Promise.reject(signal.reason);
        if (!tool || typeof tool !== "object") return Promise.reject(new TypeError("registerTool: the tool must be an object"));
        if (typeof tool.name !== "string" || !NAME_RE.test(tool.name))
          return Promise.reject(new DOMException(`registerTool: the name ${JSON.stringify(tool.name)} must be 1-128 characters of A-Z, a-z, 0-9, _, . and -`, "InvalidStateError"));
        if (typeof tool.execute !== "function") return Promise.reject(new TypeError("registerTool: execute must be a function"));
        if (tools.has(tool.name)) return Promise.reject(new DOMException(`registerTool: a tool named "${tool.name}" is already registered`, "InvalidStateError"));
        let schemaJSON;
        if (tool.inputSchema !== undefined) {
          try { schemaJSON = JSON.stringify(tool.inputSchema); } catch (e) { return Promise.reject(new TypeError("registerTool: inputSchema is not JSON: " + e.message)); }
        }
        const entry = { tool, schema: tool.inputSchema, schemaId: 0 };
        tools.set(tool.name, entry); // the name is taken from now on, in call order
        const unregister = () => {
          if (tools.get(tool.name) !== entry) return;
          tools.delete(tool.name);
          if (entry.schemaId && go) callGo("releaseSchema", entry.schemaId);
          this.dispatchEvent(new Event("toolchange"));
        };
        if (signal) signal.addEventListener("abort", unregister, { once: true });
        return ready.then(() => {
          if (schemaJSON !== undefined) {
            try {
              entry.schemaId = callGo("compileSchema", schemaJSON).head.id;
            } catch (e) {
              if (tools.get(tool.name) === entry) tools.delete(tool.name);
              throw e; // a TypeError that says where in the schema and why
            }
          }
          if (tools.get(tool.name) === entry) this.dispatchEvent(new Event("toolchange"));
          return undefined;
        });
      }
      async getTools() {
        return [...tools.values()].map(({ tool, schema }) => ({
          name: tool.name, title: typeof tool.title === "string" ? tool.title : "",
          description: typeof tool.description === "string" ? tool.description : "",
          inputSchema: schema === undefined ? "" : JSON.stringify(schema),
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
          ready.then(() => {
            if (settled) return;
            if (entry.schemaId) {
              const { head, body } = callGo("validate", entry.schemaId, inputJSON);
              if (head.invalid) return normalizeOn ? finish(true, body) : finish(false, new DOMException(head.message, "DataError"));
            }
            const args = JSON.parse(inputJSON);
            let run;
            if (normalizeOn) {
              run = runTool(entry.tool, args, { signal: inner.signal });
            } else {
              try { run = Promise.resolve(entry.tool.execute(args, { signal: inner.signal })); } catch (e) { run = Promise.reject(e); }
              run = run.then((v) => (typeof v === "string" ? v : JSON.stringify(v)));
            }
            fireBoth(this, () => new ToolActivatedEvent("toolactivated", { toolName: name }));
            run.then((v) => finish(true, v), (e) => finish(false, normalizeOn ? e : new DOMException("executeTool: the tool failed", "UnknownError")));
          }, (e) => finish(false, e));
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
    await ready;
    const { head, body } = callGo("parseToolOutput", typeof raw === "string" ? raw : toJSON(raw));
    reportViolations(tool, head.violations);
    const result = JSON.parse(body);
    modelInputs.set(result, head.modelInput);
    return { result, violations: head.violations, modelInput: head.modelInput, tables: head.tables };
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
      await ready;
      raw = errorText(e);
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
    ready,
    normalizing: normalizeOn,
    native: !!native,
    content,
    /** The policy in force: a copy of what the module last answered (null before ready). */
    get policy() { return policy && structuredClone(policy); },
    async configure(settings) {
      await ready;
      policy = callGo("configure", toJSON(settings || {})).head.policy;
      return structuredClone(policy);
    },
    async normalize(value) { const v = await prepare(value); await ready; return JSON.parse(normalizeText(v, "")); },
    onViolation(f) { violationListeners.add(f); return () => violationListeners.delete(f); },
    agent: {
      async listTools() { return (await modelContext.getTools()).map(describeTool); },
      async callTool(name, args, options) { return (await callDetailed(name, args, options)).result; },
      callToolDetailed: callDetailed,
      async toModelInput(result) {
        if (modelInputs.has(result)) return structuredClone(modelInputs.get(result));
        await ready;
        return callGo("toModelInput", toJSON(result)).head.modelInput;
      },
      parseToolOutput: (raw, tool = "") => parseOutput(raw, tool),
    },
  };
  globalThis.WebMCPBridge = api;
  if (extension) connectExtension(extension.secret);

  // connectExtension answers the extension's relay over a private MessageChannel. The port
  // arrives in one window message that carries the per-page secret; this listener is the first
  // registered (document_start) and stops the message from reaching page scripts. Requests are
  // {id, op: "list" | "call", name?, args?}; a call answers with executeTool's raw string, which
  // the extension panel normalizes again itself.
  function connectExtension(secret) {
    const onMessage = (e) => {
      const d = e.data;
      if (e.source !== window || !d || d.webmcpBridgeRelay !== true || d.secret !== secret || !e.ports[0]) return;
      e.stopImmediatePropagation();
      window.removeEventListener("message", onMessage, true);
      const port = e.ports[0];
      port.onmessage = async (m) => {
        const req = m.data || {};
        if (req.secret !== secret || typeof req.id !== "number") return;
        const reply = (body) => port.postMessage({ id: req.id, secret, ...body });
        try {
          const tools = await modelContext.getTools();
          if (req.op === "list") return reply({ tools: tools.map(describeTool) });
          if (req.op === "call") {
            const tool = tools.find((t) => t.name === req.name);
            if (!tool) return reply({ error: `no tool named "${req.name}" on this page` });
            const raw = await modelContext.executeTool(tool, req.args || {});
            return reply({ raw: typeof raw === "string" ? raw : JSON.stringify(raw) });
          }
          reply({ error: "unknown request" });
        } catch (err) {
          reply({ error: String(err && err.message || err), errorName: err && err.name });
        }
      };
    };
    window.addEventListener("message", onMessage, true);
  }
})();
