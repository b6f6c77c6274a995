// Injected by webmcp-mcp into the main frame of every page it drives, before any page script
// runs (Page.addScriptToEvaluateOnNewDocument), as the extension's MAIN-world content script
// does. It runs the bridge's loader — unless the page runs one already — with the module served
// by webmcp-mcp on loopback, then gives webmcp-mcp a frozen entry point, window.__webmcpMcp, to
// list and call the page's tools. Nothing here is trusted by webmcp-mcp: whatever a call
// answers is normalized again natively.
//
// webmcp-mcp fills in cfg ({base, notify, policy}) and the loader (web/dist/webmcp-bridge.js).
(() => {
  "use strict";
  if (window !== window.top || Object.prototype.hasOwnProperty.call(window, "__webmcpMcp")) return;
  const cfg = __CONFIG__;
  // Captured now, before page scripts can replace them.
  const notifyFn = window[cfg.notify];
  const stringify = JSON.stringify, parse = JSON.parse;
  const defineProperty = Object.defineProperty;

  if (!globalThis.WebMCPBridge) {
    // Here there is no script element to find the module's files beside: the loader is told
    // where webmcp-mcp serves them, before its module first starts.
    try {
      __LOADER__
      WebMCPBridge.setAssets(cfg.base);
    } catch (e) {
      console.error("webmcp-mcp: the bridge did not start:", e);
    }
  }
  if (cfg.policy && globalThis.WebMCPBridge && typeof WebMCPBridge.configure === "function") {
    WebMCPBridge.configure(cfg.policy).catch((e) => console.error("webmcp-mcp: the policy was refused:", e));
  }

  // Tell webmcp-mcp when the tools change; it lists them again.
  let pending = false;
  const notify = () => {
    if (pending || typeof notifyFn !== "function") return;
    pending = true;
    setTimeout(() => { pending = false; try { notifyFn(""); } catch (e) { /* the page is going away */ } });
  };
  const mc = document.modelContext;
  if (mc && typeof mc.addEventListener === "function") mc.addEventListener("toolchange", notify);

  const calls = new Map();
  const describe = (t) => {
    let schema = t.inputSchema;
    if (typeof schema === "string") {
      try { schema = schema ? parse(schema) : null; } catch (e) { schema = null; }
    }
    return { name: String(t.name), title: typeof t.title === "string" ? t.title : "",
      description: typeof t.description === "string" ? t.description : "",
      inputSchema: schema && typeof schema === "object" ? schema : null,
      annotations: t.annotations && typeof t.annotations === "object" ? Object.assign({}, t.annotations) : {} };
  };
  const api = Object.freeze({
    // list answers {origin, title, tools: [{name, title, description, inputSchema, annotations}]}.
    async list() {
      const m = document.modelContext;
      const tools = m && typeof m.getTools === "function" ? await m.getTools() : [];
      return stringify({ origin: location.origin, url: location.href, title: document.title, tools: [...tools].map(describe) });
    },
    // call answers {raw} (executeTool's output), {error, name}, {missing} or {navigated}.
    async call(id, origin, name, argsJSON) {
      if (location.origin !== origin) return stringify({ navigated: location.href });
      const m = document.modelContext;
      const tools = m && typeof m.getTools === "function" ? await m.getTools() : [];
      const tool = [...tools].find((t) => t.name === name);
      if (!tool) return stringify({ missing: true });
      const ac = new AbortController();
      calls.set(id, ac);
      try {
        const raw = await m.executeTool(tool, parse(argsJSON), { signal: ac.signal });
        return stringify({ raw: typeof raw === "string" ? raw : stringify(raw === undefined ? null : raw) });
      } catch (e) {
        return stringify({ error: String(e && e.message !== undefined ? e.message : e), name: String(e && e.name || ""), aborted: ac.signal.aborted });
      } finally {
        calls.delete(id);
      }
    },
    // abort cancels a call in flight through the AbortSignal given to executeTool.
    abort(id) {
      const ac = calls.get(id);
      if (ac) ac.abort(new DOMException("The MCP client cancelled the call.", "AbortError"));
      return !!ac;
    },
  });
  defineProperty(window, "__webmcpMcp", { value: api });
  notify();
})();
