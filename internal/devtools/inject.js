// Injected by webmcp-mcp into the main frame of every page it drives, before any page script
// runs (Page.addScriptToEvaluateOnNewDocument), as the extension's MAIN-world content script
// does. It runs the bridge's loader — unless the page runs one already — with the module served
// by webmcp-mcp on loopback, and reader.js, the entry point webmcp-mcp uses only where the browser
// has no native WebMCP (the bridge's own ModelContext lives in this world); with native WebMCP
// webmcp-mcp reads and calls tools from an isolated world. Nothing here is trusted by
// webmcp-mcp: whatever a call answers is normalized again natively, and where a page is, and
// whether it navigated, webmcp-mcp learns from the browser (DevTools), never from here.
//
// webmcp-mcp fills in cfg ({base, notify, policy}), the loader (web/dist/webmcp-bridge.js) and
// the reader.
(() => {
  "use strict";
  if (window !== window.top || Object.prototype.hasOwnProperty.call(window, "__webmcpMcp")) return;
  const cfg = __CONFIG__;
  // Captured now, before page scripts can replace them.
  const notifyFn = window[cfg.notify];

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

  // The entry point webmcp-mcp uses where the browser has no native WebMCP (reader.js).
  __READER__
  notify();
})();
