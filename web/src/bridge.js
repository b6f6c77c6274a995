// install defines window.WebMCPBridge and makes sure document.modelContext exists: the browser's
// own (native WebMCP), wrapped so that every tool result becomes an MCP CallToolResult, or the
// bridge's implementation of the API where the browser has none. It is synchronous; the Go
// module starts on first need (see host.js).
import * as host from "./host.js";
import { toJSON } from "./encode.js";
import { normalizeText, prepare, reportViolations, resolveBinary, violationListeners } from "./results.js";
import { nativeModelContext, wrapNative } from "./native.js";
import { createModelContext, defineEventClasses } from "./modelcontext.js";
import { normalizeDeclarative } from "./declarative.js";
import { callDetailed, describeTool, modelInputs, parseOutput } from "./agent.js";
import { connectExtension } from "./extension.js";

const MARK = Symbol.for("webmcp-bridge");

// install takes {assets, normalize, start, worker, extension}: where the module's files are (a
// base URL or {wasm, worker}), whether results are normalized (false: the API alone,
// raw results), "eager" to start the module at once, false to keep the module off Workers, and
// the extension's hand-off. Loaded twice, the first bridge stays in charge and is returned.
export function install({ assets, normalize = true, start = "lazy", worker = true, extension = null }) {
  // Only a bridge counts: an element with id="WebMCPBridge" also shows up as window.WebMCPBridge.
  const existing = Object.getOwnPropertyDescriptor(globalThis, "WebMCPBridge");
  if (existing && existing.value && existing.value[MARK] === true) return existing.value;

  host.setupHost({ assets, worker, stepAside });
  defineEventClasses();
  const native = nativeModelContext();
  let modelContext;
  if (native) modelContext = wrapNative(native, normalize);
  else {
    modelContext = createModelContext(normalize);
    Object.defineProperty(Document.prototype, "modelContext", { configurable: true, get() { return modelContext; } });
    Object.defineProperty(Navigator.prototype, "modelContext", { configurable: true, get() { return modelContext; } });
  }
  if (native && normalize) normalizeDeclarative(); // forms' respondWith results are normalized too

  // ready starts the module the first time it is read.
  let readyPromise = null;
  function ready() {
    if (!readyPromise) {
      readyPromise = host.startModule().then(() => api);
      readyPromise.catch(() => {}); // said once by stepAside; a rejected ready is for the page to read
    }
    return readyPromise;
  }

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
    get version() { return host.version || "__WEBMCP_BRIDGE_VERSION__"; },
    get ready() { return ready(); },
    /** Starts the module now (as data-start="eager" does); the same promise as ready. */
    start: () => ready(),
    /** Where the module's files are served: a base URL or {wasm, worker}; before the module starts. */
    setAssets: (where) => host.setAssets(where),
    normalizing: normalize,
    native: !!native,
    content,
    /** The policy in force: a copy of what the module last answered (null before ready). */
    get policy() { return host.policy && structuredClone(host.policy); },
    async configure(settings) {
      return structuredClone(await host.configure(toJSON(settings || {}, "configure: the settings")));
    },
    async normalize(value) {
      await host.startModule();
      return JSON.parse(await normalizeText(await prepare(value), ""));
    },
    onViolation(f) { violationListeners.add(f); return () => violationListeners.delete(f); },
    agent: {
      async listTools() { return (await modelContext.getTools()).map(describeTool); },
      async callTool(name, args, options) { return (await callDetailed(modelContext, name, args, options)).result; },
      callToolDetailed: (name, args, options) => callDetailed(modelContext, name, args, options),
      async toModelInput(result) {
        if (modelInputs.has(result)) return structuredClone(modelInputs.get(result));
        await host.startModule();
        return (await host.callGo("toModelInput", toJSON(result, "the result"))).head.modelInput;
      },
      parseToolOutput: (raw, tool = "") => parseOutput(raw, tool),
    },
  };
  Object.defineProperty(api, MARK, { value: true });
  // The tests' door into the module: which module runs where, and its exports by name (the test
  // build adds stats, panicForTest, crashForTest). Nothing here is more than a page could do.
  Object.defineProperty(api, Symbol.for("webmcp-bridge.module"), { value: { info: host.moduleInfo, call: host.testCall } });
  Object.defineProperty(globalThis, "WebMCPBridge", { value: api, configurable: true, enumerable: true, writable: false });
  if (extension) connectExtension(extension, modelContext);
  if (start === "eager") ready();
  return api;
}

// stepAside is what happens, once, when the module cannot run on this page: a console warning
// that says why and what to change, and a webmcpbridgeviolation event.
function stepAside(e) {
  console.warn(e.message);
  reportViolations("", [{ item: 0, type: "bridge", limit: "module", reason: e.message, notice: e.message }], true);
}
