// Injected by webmcp-mcp into the main frame of every page it drives, before any page script
// runs (Page.addScriptToEvaluateOnNewDocument), as the extension's MAIN-world content script
// does. It runs the bridge's loader — unless the page runs one already — with the module served
// by webmcp-mcp on loopback, and reader.js, the entry point webmcp-mcp uses only where the browser
// has no native WebMCP (the bridge's own ModelContext lives in this world); with native WebMCP
// webmcp-mcp reads and calls tools from an isolated world. Nothing here is trusted by
// webmcp-mcp: whatever a call answers is normalized again natively, and where a page is, and
// whether it navigated, webmcp-mcp learns from the browser (DevTools), never from here.
//
// It also keeps webmcp-mcp's door into the bridge (openDoor below; reader.js holds the other
// end in webmcp-mcp's isolated world): through it, and nothing else, a call says that
// webmcp-mcp checked its arguments natively, so that the bridge need not start its module to
// check them again.
//
// webmcp-mcp fills in cfg ({base, notify, policy, door}), the loader (the embedded loader,
// internal/bundled) and the reader.
(() => {
  "use strict";
  if (window !== window.top || Object.prototype.hasOwnProperty.call(window, "__webmcpMcp")) return;
  const cfg = __CONFIG__;
  // Captured now, before page scripts can replace them.
  const notifyFn = window[cfg.notify];
  // The loader, which runs in this scope, hands its expectChecked here (web/src/flow.ts): a
  // binding of this function, which no page script can reach.
  const webmcpMcpDoor = { arm: null, warm: null };

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
  openDoor();
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

  // The entry point webmcp-mcp uses where the browser has no native WebMCP (reader.js).
  __READER__
  notify();

  // openDoor waits for the port reader.js posts from webmcp-mcp's isolated world when the
  // document starts, in the document's first window message with webmcp-mcp's secret: this
  // listener, registered before any page script runs, takes the first such message and stops
  // it, so no page script sees it (and listens no more once the document has loaded). Only a
  // document that has not started listens (this script runs in one that did when webmcp-mcp
  // adopts a tab already open: no door there). On the port,
  // {id, name, schema, args} announces a call whose arguments webmcp-mcp checked (expectChecked)
  // and is answered {id}; {warm: true}, sent when webmcp-mcp lists the tools, has the bridge make
  // what every call needs (warmForCalls). What it touches after page scripts ran are the
  // built-ins captured now.
  function openDoor() {
    const { arm, warm } = webmcpMcpDoor;
    if (typeof arm !== "function" || typeof cfg.door !== "string" || !cfg.door || document.documentElement !== null) return;
    const apply = Reflect.apply, hasOwn = Object.hasOwn;
    const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
    const data = getter(MessageEvent.prototype, "data"),
      source = getter(MessageEvent.prototype, "source"),
      ports = getter(MessageEvent.prototype, "ports");
    const { addEventListener, removeEventListener } = EventTarget.prototype;
    const { stopImmediatePropagation } = Event.prototype;
    const { postMessage, start } = MessagePort.prototype;
    const own = (o, k) => (hasOwn(o, k) ? o[k] : undefined);
    const onMessage = (e) => {
      const d = apply(data, e, []);
      if (apply(source, e, []) !== window || !d || typeof d !== "object" || own(d, "webmcpMcpDoor") !== cfg.door) return;
      const port = apply(ports, e, [])[0];
      if (!port) return;
      apply(stopImmediatePropagation, e, []);
      apply(removeEventListener, window, ["message", onMessage, true]);
      apply(addEventListener, port, ["message", (m) => {
        const r = apply(data, m, []);
        if (!r || typeof r !== "object") return;
        if (own(r, "warm") === true) return typeof warm === "function" && warm();
        const id = own(r, "id"), name = own(r, "name"), schema = own(r, "schema"), args = own(r, "args");
        if (typeof id !== "number" || typeof name !== "string" || typeof schema !== "string" || typeof args !== "string") return;
        arm(name, schema, args);
        apply(postMessage, port, [{ id }]);
      }]);
      apply(start, port, []);
    };
    apply(addEventListener, window, ["message", onMessage, true]);
    // The port comes long before the document has loaded; it stops listening then whatever came.
    apply(addEventListener, window, ["load", () => apply(removeEventListener, window, ["message", onMessage, true]), true]);
  }
})();
