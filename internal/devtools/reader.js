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
// In the isolated world it also holds webmcp-mcp's door into the page's bridge: webmcp-mcp
// evaluates it there when each document starts, before any page script runs, and it posts a
// MessagePort to the bridge inject.js started in the page's world, in the document's first
// window message, which carries webmcp-mcp's secret and which the bridge takes before any page
// script can listen (inject.js). Over that port a call says that webmcp-mcp checked its
// arguments natively against the tool's schema (internal/checkedargs), so the page's bridge
// need not start its module to check them again; a page script can neither reach the port nor
// forge its message, and a call without the door is checked as always.
//
// webmcp-mcp fills in cfg ({maxDescription, maxSchema, maxTools, maxRaw, maxError, door}).
(() => {
  "use strict";
  if (Object.prototype.hasOwnProperty.call(globalThis, "__webmcpMcp")) return;
  const cfg = __CONFIG__;
  const door = openDoor();
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
      door.warm(); // webmcp-mcp calls next
      const m = modelContext();
      if (!m) return JSON.stringify({ native: false, tools: [] });
      const tools = Array.from(await m.getTools());
      return JSON.stringify({ native: true, tools: tools.slice(0, cfg.maxTools).map(describe), more: Math.max(0, tools.length - cfg.maxTools) });
    },
    // call answers {raw}, {tooLarge}, {error, name}, {missing} or {navigated}. checked is
    // webmcp-mcp's claim that the arguments passed the tool's schema ({schema, args}), or null.
    async call(id, origin, name, argsJSON, checked) {
      if (location.origin !== origin) return JSON.stringify({ navigated: location.href });
      const m = modelContext();
      const tool = m ? Array.from(await m.getTools()).find((t) => t.name === name) : undefined;
      if (!tool) return JSON.stringify({ missing: true });
      await door.arm(name, checked);
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
    // arm says through the door that a call is coming whose arguments were checked (where the
    // bridge's own ModelContext answers in the page's world, webmcp-mcp calls it there next).
    async arm(name, checked) {
      return String(await door.arm(name, checked));
    },
    abort(id) {
      const ac = calls.get(id);
      if (ac) ac.abort(new DOMException("The MCP client cancelled the call.", "AbortError"));
      return !!ac;
    },
  };
  Object.defineProperty(globalThis, "__webmcpMcp", { value: Object.freeze(api) });

  // openDoor hands the page's bridge one end of a MessageChannel, only in the top frame's
  // isolated world and only while the document has not started (no element parsed, so no page
  // script has run): a later hand-off could meet a page script's listener first. door.arm
  // resolves true once the bridge has taken the claim; false at once where there is no door or
  // no claim, and after a while where the bridge does not answer (the call is then checked in
  // the page, as without a claim, and so are the later ones). door.warm asks the bridge to make
  // what every call needs.
  function openDoor() {
    const none = { arm: async () => false, warm: () => {} };
    if (typeof cfg.door !== "string" || !cfg.door || window !== window.top || document.documentElement !== null) return none;
    const channel = new MessageChannel();
    const waiting = new Map();
    let next = 0,
      dead = false; // the bridge did not answer once: no door in this document
    channel.port1.onmessage = (e) => {
      const done = e.data && waiting.get(e.data.id);
      if (done) done(true);
    };
    window.postMessage({ webmcpMcpDoor: cfg.door }, "*", [channel.port2]);
    return {
      warm() {
        channel.port1.postMessage({ warm: true });
      },
      arm(name, checked) {
        if (dead || !checked || typeof checked.schema !== "string" || typeof checked.args !== "string")
          return Promise.resolve(false);
        const id = ++next;
        return new Promise((resolve) => {
          const timer = setTimeout(() => {
            dead = true;
            done(false);
          }, 1000);
          const done = (ok) => {
            clearTimeout(timer);
            waiting.delete(id);
            resolve(ok);
          };
          waiting.set(id, done);
          channel.port1.postMessage({ id, name: String(name), schema: checked.schema, args: checked.args });
        });
      },
    };
  }
})();
