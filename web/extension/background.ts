// The service worker: opens the side panel from the toolbar button, keeps the link to MCP
// clients (nativelink.ts), and answers the panel about confirmations. Only the extension's own
// pages are heard: there is no onMessageExternal, and a content script's or page's message is
// ignored.
/// <reference types="chrome" />
import { decide, waiting } from "./confirm.ts";
import { startNativeLink } from "./nativelink.ts";

chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((e: unknown) => console.error(e));

chrome.runtime.onMessage.addListener((raw: unknown, sender, respond: (r: unknown) => void) => {
  if (sender.id !== chrome.runtime.id || !sender.url || !sender.url.startsWith(chrome.runtime.getURL(""))) return;
  const m = (raw || {}) as { type?: unknown; key?: unknown; yes?: unknown };
  if (m.type === "confirm-waiting") respond(waiting());
  else if (m.type === "confirm-answer" && typeof m.key === "string") decide(m.key, m.yes === true);
});

startNativeLink();
