// install defines window.WebMCPBridge and makes sure document.modelContext exists: the browser's
// own (native WebMCP), wrapped so that every tool result becomes an MCP CallToolResult, or the
// bridge's implementation of the API where the browser has none. It is synchronous, and nothing
// is fetched: the Go module starts on first need (see host.ts).
import * as host from "./host.ts";
import { toJSON } from "./encode.ts";
import { normalizeValue } from "./flow.ts";
import { blobOf, isBinary, reportViolations, violationListeners } from "./results.ts";
import { invokingModelContext, mirrorInto, nativeModelContext, wrapNative } from "./native.ts";
import { createModelContext, defineEventClasses } from "./modelcontext.ts";
import { normalizeDeclarative } from "./form-tools-loader.ts";
import { callDetailed, describeTool, parseOutput, toModelInput } from "./agent.ts";
import { defineProperty, getOwnPropertyDescriptor, parse } from "./builtins.ts";
import type { Assets, Content, CallToolResult, Fallback, ModelContext, ProposedBlock, WebMCPBridge } from "./types.ts";

const MARK = Symbol.for("webmcp-bridge");

/** What the entry points pass: where the module's files are, whether results are normalized
 * (false: the API alone, raw results), "eager" to start the module at once, false to keep the
 * module off Workers. */
interface InstallOptions {
  assets: Assets;
  normalize?: boolean;
  start?: "lazy" | "eager";
  worker?: boolean;
  fallback?: Fallback;
}

/** install installs the bridge and answers it with the ModelContext it serves (null where a
 * bridge was installed before, which stays in charge). */
export function install({
  assets,
  normalize = true,
  start = "lazy",
  worker = true,
  fallback = "raw",
}: InstallOptions): { api: WebMCPBridge; modelContext: ModelContext | null } {
  // Only a bridge counts: an element with id="WebMCPBridge" also shows up as window.WebMCPBridge.
  const existing = getOwnPropertyDescriptor(globalThis, "WebMCPBridge");
  const value = existing && (existing.value as (WebMCPBridge & { [MARK]?: boolean }) | undefined);
  if (value && value[MARK] === true) return { api: value, modelContext: null };

  host.setupHost(assets, worker, stepAside);
  host.setFallback(fallback);
  defineEventClasses();
  // A native ModelContext that has executeTool (Chromium) is wrapped; one that has only
  // invokeTool (Firefox's prototype) gets the bridge's own ModelContext in front, whose tools are
  // mirrored into it, so that the page has the same API everywhere.
  const found = nativeModelContext(),
    invoking = found && invokingModelContext(found);
  const native = invoking ? null : found;
  let modelContext: ModelContext;
  if (native) modelContext = wrapNative(native, normalize);
  else {
    const mc = createModelContext(normalize, invoking ? mirrorInto(invoking) : null);
    modelContext = mc;
    defineProperty(Document.prototype, "modelContext", {
      configurable: true,
      get() {
        return mc;
      },
    });
    defineProperty(Navigator.prototype, "modelContext", {
      configurable: true,
      get() {
        return mc;
      },
    });
  }
  if (native && normalize) normalizeDeclarative(); // forms' respondWith results are normalized too

  // ready starts the module the first time it is read.
  let readyPromise: Promise<WebMCPBridge> | null = null;
  const ready = (): Promise<WebMCPBridge> => {
    if (!readyPromise) {
      readyPromise = host.startModule().then(() => api);
      readyPromise.catch(() => {}); // said once by stepAside; a rejected ready is for the page to read
    }
    return readyPromise;
  };

  const api: WebMCPBridge = {
    get version() {
      return host.state.version || "__WEBMCP_BRIDGE_VERSION__";
    },
    get ready() {
      return ready();
    },
    start: () => ready(),
    setAssets: (where) => host.setAssets(where),
    setFallback: (mode) => host.setFallback(mode),
    normalizing: normalize,
    native: !!found,
    content: contentBuilders(),
    get policy() {
      return host.state.policy && structuredClone(host.state.policy);
    },
    async configure(settings) {
      return structuredClone(await host.configure(toJSON(settings || {}, "configure: the settings")));
    },
    async normalize(value) {
      await host.startModule();
      return parse(await normalizeValue(value)) as CallToolResult;
    },
    onViolation(f) {
      violationListeners.add(f);
      return () => violationListeners.delete(f);
    },
    agent: {
      async listTools() {
        return (await modelContext.getTools()).map(describeTool);
      },
      async callTool(name, args, options) {
        return (await callDetailed(modelContext, name, args, options)).result;
      },
      callToolDetailed: (name, args, options) => callDetailed(modelContext, name, args, options),
      toModelInput,
      parseToolOutput: (raw, tool = "") => parseOutput(raw, tool),
    },
  };
  defineProperty(api, MARK, { value: true });
  // The tests' door into the module, in the test build only: which module runs where, and its
  // exports by name. The shipped loader has no way into the module but the API above.
  if (__WEBMCP_TEST__)
    defineProperty(api, Symbol.for("webmcp-bridge.module"), { value: { info: host.moduleInfo, call: host.testCall } });
  defineProperty(globalThis, "WebMCPBridge", { value: api, configurable: true, enumerable: true, writable: false });
  if (start === "eager") void ready();
  return { api, modelContext };
}

// contentBuilders are WebMCPBridge.content: plain objects of the proposed types. An image from a
// binary keeps the binary as its data: the bridge hands it to the module as bytes.
export function contentBuilders(): Content {
  return {
    text: (text) => ({ type: "text", text: String(text) }),
    html: (html) => ({ type: "html", html: String(html) }),
    link: (url, title) =>
      title === undefined
        ? { type: "link", url: String(url) }
        : { type: "link", url: String(url), title: String(title) },
    table: (headers, rows) => ({ type: "table", headers, rows }),
    error: (message, code) =>
      code === undefined
        ? { type: "error", message: String(message) }
        : { type: "error", message: String(message), code },
    async image(src, opts = {}) {
      if (typeof src !== "string" && !isBinary(src))
        throw new TypeError(
          "content.image: expected base64, a data URL, a Blob, an ArrayBuffer, a typed array, a canvas " +
            "or an ImageBitmap",
        );
      const data =
        typeof src === "string" || src instanceof Blob || src instanceof ArrayBuffer || ArrayBuffer.isView(src)
          ? src
          : await blobOf(src);
      const block: ProposedBlock = { type: "image", data };
      if (opts.mimeType) block.mimeType = opts.mimeType;
      if (opts.alt) block.alt = opts.alt;
      return block;
    },
  };
}

// stepAside is what happens, once, when the module cannot run on this page: a console warning
// that says why and what to change, and a webmcpbridgeviolation event.
function stepAside(e: Error): void {
  console.warn(e.message);
  reportViolations("", [{ item: 0, type: "bridge", limit: "module", reason: e.message, notice: e.message }], true);
}
