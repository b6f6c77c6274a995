// The event that says a bridge was installed in this window: the entry points dispatch it on
// window right after install, and the React hook (react.ts, its own bundle) waits for it when
// its component mounts before the bridge is there — a bridge imported later, with import() in
// an effect, or brought by the extension.

/** The name of the event dispatched on window once a bridge is installed. */
export const INSTALLED_EVENT = "webmcpbridgeinstalled";

/** announceInstalled tells the window's listeners that document.modelContext is now served. */
export function announceInstalled(): void {
  window.dispatchEvent(new Event(INSTALLED_EVENT));
}
