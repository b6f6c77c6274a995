// How webmcp-mcp reads and calls a page's tools: globalThis.__webmcpMcp, frozen, whose answers
// are strings this script serializes itself, with what a page may make arbitrarily large cut
// before it leaves the browser.
//
// It is evaluated in an isolated world of the page's main frame (Page.createIsolatedWorld),
// never in the page's own world: that world has its own globals and prototypes, so nothing a
// page script defines (Object.prototype.toJSON, a patched JSON or Array.prototype.map) runs
// there, and the browser's native ModelContext — the same object in every world — is read
// through Document.prototype's getter. Where the browser has no native WebMCP, the bridge's own
// ModelContext is a JS object of the page's world only: there the same script runs in the page's
// world too, inside inject.js before any page script, and webmcp-mcp takes from it nothing but the
// page's own tools and results.
//
// webmcp-mcp fills in cfg ({maxDescription, maxSchema, maxTools, maxRaw, maxError}).
(() => {
  "use strict";
  if (Object.prototype.hasOwnProperty.call(globalThis, "__webmcpMcp")) return;
  const cfg = __CONFIG__;
  const getMC = (Object.getOwnPropertyDescriptor(Document.prototype, "modelContext") || {}).get;
  const modelContext = () => (typeof getMC === "function" ? getMC.call(document) : null);
  const str = (v) => (typeof v === "string" ? v : "");
  const cut = (s, n) => (s.length > n ? { text: s.slice(0, n), cut: s.length } : { text: s, cut: 0 });

  // describe turns a RegisteredTool (an object of this world) into plain data, bounded.
  const describe = (t) => {
    const d = cut(str(t.description), cfg.maxDescription);
    const out = { name: str(t.name), title: cut(str(t.title), cfg.maxDescription).text, description: d.text, descriptionCut: d.cut, annotations: {} };
    let schema = t.inputSchema;
    if (typeof schema === "string") {
      if (schema.length > cfg.maxSchema) out.schemaTooLarge = schema.length;
      else { try { out.inputSchema = schema ? JSON.parse(schema) : null; } catch (e) { out.schemaUnreadable = true; } }
    } else if (schema && typeof schema === "object") {
      const s = JSON.stringify(schema);
      if (s.length > cfg.maxSchema) out.schemaTooLarge = s.length;
      else out.inputSchema = JSON.parse(s);
    }
    const a = t.annotations;
    if (a && typeof a === "object") {
      for (const k of ["readOnlyHint", "untrustedContentHint", "consequentialHint", "debugging"]) {
        if (typeof a[k] === "boolean") out.annotations[k] = a[k];
      }
    }
    return out;
  };

  const calls = new Map();
  const api = {
    // list answers {native, tools: [...], more: n}: native, there is a ModelContext here (in the
    // isolated world, only the browser's own); more, tools past maxTools.
    async list() {
      const m = modelContext();
      if (!m) return JSON.stringify({ native: false, tools: [] });
      const tools = Array.from(await m.getTools());
      return JSON.stringify({ native: true, tools: tools.slice(0, cfg.maxTools).map(describe), more: Math.max(0, tools.length - cfg.maxTools) });
    },
    // call answers {raw}, {tooLarge}, {error, name}, {missing} or {navigated}.
    async call(id, origin, name, argsJSON) {
      if (location.origin !== origin) return JSON.stringify({ navigated: location.href });
      const m = modelContext();
      const tool = m ? Array.from(await m.getTools()).find((t) => t.name === name) : undefined;
      if (!tool) return JSON.stringify({ missing: true });
      const ac = new AbortController();
      calls.set(id, ac);
      try {
        let raw = await m.executeTool(tool, JSON.parse(argsJSON), { signal: ac.signal });
        if (typeof raw !== "string") raw = JSON.stringify(raw === undefined ? null : raw);
        if (raw.length > cfg.maxRaw) return JSON.stringify({ tooLarge: raw.length });
        return JSON.stringify({ raw });
      } catch (e) {
        const msg = cut(String(e && e.message !== undefined ? e.message : e), cfg.maxError);
        return JSON.stringify({ error: msg.text, errorCut: msg.cut, name: cut(String((e && e.name) || ""), 100).text });
      } finally {
        calls.delete(id);
      }
    },
    abort(id) {
      const ac = calls.get(id);
      if (ac) ac.abort(new DOMException("The MCP client cancelled the call.", "AbortError"));
      return !!ac;
    },
  };
  Object.defineProperty(globalThis, "__webmcpMcp", { value: Object.freeze(api) });
})();
