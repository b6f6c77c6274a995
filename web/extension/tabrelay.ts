// A port to the relay (relay.ts) of the document one tab shows, for the extension's own pages
// (the panel) and its service worker. The port reaches that document only and disconnects when
// it goes, so nothing sent for one page can reach the next one; a request left unanswered then
// resolves with {lost, sent}.
/// <reference types="chrome" />

/** An answer of the relay: what the page's bridge said, stamped with the page's origin and URL. */
export interface RelayAnswer {
  origin?: string;
  url?: string;
  tools?: unknown;
  raw?: string;
  error?: string;
  errorName?: string;
  refused?: string;
  event?: string;
  id?: number;
  lost?: string;
  sent?: boolean;
}

/** The names the relay accepts a port under: the side panel's, and the service worker's. */
export type RelayClient = "webmcp-bridge-panel" | "webmcp-bridge-agent";

export class RelayPort {
  readonly port: chrome.runtime.Port;
  /** Why the port closed ("left": the document went; or what close() was given); "" while open. */
  closed = "";
  /** The requests in flight, by id. */
  readonly pending = new Map<number, (a: RelayAnswer) => void>();
  private nextId = 1;

  // onEvent hears the relay's events (toolchange); onLeft is called once when the document goes.
  constructor(
    readonly tabId: number,
    name: RelayClient,
    onEvent: (a: RelayAnswer) => void,
    onLeft: () => void,
  ) {
    this.port = chrome.tabs.connect(tabId, { name, frameId: 0 });
    this.port.onMessage.addListener((raw: unknown) => {
      const m = raw as RelayAnswer | null;
      if (!m || typeof m !== "object") return;
      if (m.event !== undefined) return onEvent(m);
      const resolve = m.id === undefined ? undefined : this.pending.get(m.id);
      if (!resolve || m.id === undefined) return;
      this.pending.delete(m.id);
      resolve(m);
    });
    this.port.onDisconnect.addListener(() => {
      void chrome.runtime.lastError; // no relay in the tab (not an http(s) page, or still loading)
      if (this.closed) return;
      this.close("left");
      onLeft();
    });
  }

  // request sends msg and resolves with the answer, or with {lost, sent} when the port closed
  // first (sent: whether the request had left). onSent hears the request's id.
  request(msg: Record<string, unknown>, onSent?: (id: number) => void): Promise<RelayAnswer> {
    return new Promise((resolve) => {
      if (this.closed) return resolve({ lost: this.closed, sent: false });
      const id = this.nextId++;
      this.pending.set(id, resolve);
      try {
        this.port.postMessage({ id, ...msg });
        onSent?.(id);
      } catch {
        this.pending.delete(id);
        this.close("left");
        resolve({ lost: "left", sent: false });
      }
    });
  }

  // close disconnects; the requests in flight resolve with {lost: reason, sent: true}.
  close(reason: string): void {
    if (this.closed) return;
    this.closed = reason;
    try {
      this.port.disconnect();
    } catch {
      /* already gone */
    }
    for (const resolve of this.pending.values()) resolve({ lost: reason, sent: true });
    this.pending.clear();
  }
}
