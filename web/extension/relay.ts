// Isolated-world content script: the only link between the extension and a page's bridge.
// At document_start it hands the MAIN-world bridge the module's location and a fresh per-page
// secret (in an attribute the bridge removes before page scripts run), then a private
// MessageChannel port. It serves the extension's own pages only (the panel), over a port that
// belongs to this document (the panel's, and the service worker's for MCP clients): when the
// document goes (navigation, bfcache, close) the port disconnects, so nothing sent for this page
// can reach the next one. Every message to the panel carries this page's origin and URL; a call
// must name the origin its list came from and a tool that is still the one listed over the same
// port, and is refused unrun otherwise. Only answers that carry the secret and the id of a
// request the relay sent are taken from the bridge.
/// <reference types="chrome" />

/** An answer of the bridge over the private port. */
interface BridgeAnswer {
  id?: number;
  secret?: string;
  event?: string;
  tools?: unknown;
  raw?: string;
  error?: string;
  errorName?: string;
}
/** A request of the panel. */
interface PanelRequest {
  id: number;
  op?: unknown;
  origin?: unknown;
  name?: unknown;
  args?: unknown;
  call?: unknown;
}

{
  const secret = crypto.getRandomValues(new Uint32Array(4)).join("-");
  document.documentElement.setAttribute(
    "data-webmcp-bridge",
    JSON.stringify({ base: chrome.runtime.getURL("dist/"), secret }),
  );
  const channel = new MessageChannel();
  const pending = new Map<number, (a: BridgeAnswer) => void>(); // id sent to the bridge → function taking its answer
  const panels = new Set<chrome.runtime.Port>(); // connected panel ports
  let nextId = 1;

  // Where this page is, from the isolated world's own location (page scripts cannot redefine
  // it). "null" for an opaque origin (a sandboxed document); the URL then tells pages apart.
  const stamp = () => ({ origin: location.origin, url: location.href });

  // toolsChanged is called on every toolchange of the page's ModelContext: connected panels hear
  // of it (once per burst of changes) and list the tools again.
  let notify = 0;
  function toolsChanged(): void {
    if (notify) return;
    notify = setTimeout(() => {
      notify = 0;
      for (const port of panels) {
        try {
          port.postMessage({ event: "toolchange", ...stamp() });
        } catch {
          panels.delete(port);
        }
      }
    }, 50);
  }
  // With native WebMCP the ModelContext is a browser object whose events reach this world too;
  // the bridge's own ModelContext (no native WebMCP) is a JS object of the page's world, whose
  // toolchange the bridge forwards over the port as {secret, event: "toolchange"}.
  // Read through the prototype's getter, as the bridge does (a named element could shadow it).
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call
  const getMC = Object.getOwnPropertyDescriptor(Document.prototype, "modelContext")?.get;
  const mc: unknown = typeof getMC === "function" ? getMC.call(document) : null;
  if (mc instanceof EventTarget) mc.addEventListener("toolchange", toolsChanged);

  channel.port1.onmessage = (e: MessageEvent<BridgeAnswer | null>) => {
    const d = e.data || {};
    if (d.secret !== secret) return;
    if (d.event === "toolchange") {
      toolsChanged();
      return;
    }
    const respond = d.id === undefined ? undefined : pending.get(d.id);
    if (!respond || d.id === undefined) return;
    pending.delete(d.id);
    respond(d);
  };
  // The port is posted once the MAIN-world script has taken the hand-off (it removes the
  // attribute, and listens for the port in the same run). Not sooner: Chromium runs it right
  // after this script, but Firefox may run it a task or more later, and a port posted before it
  // listens is lost (the page's tools were then never listed).
  const root = document.documentElement;
  const handOver = new MutationObserver(() => {
    if (root.hasAttribute("data-webmcp-bridge")) return;
    handOver.disconnect();
    window.postMessage({ webmcpBridgeRelay: true, secret }, "*", [channel.port2]);
  });
  handOver.observe(root, { attributes: true, attributeFilter: ["data-webmcp-bridge"] });

  // ask sends a request to the bridge and resolves with its answer.
  // onSent hears the id the request went to the bridge with (an abort names it).
  const ask = (req: Record<string, unknown>, onSent?: (id: number) => void): Promise<BridgeAnswer> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      channel.port1.postMessage({ id, secret, ...req });
      onSent?.(id);
    });

  chrome.runtime.onConnect.addListener((port) => {
    // Only the extension's own pages (the panel), never another content script or a web page.
    // Firefox names the tab of a panel opened as a page: that tab must show the extension's page.
    const s: chrome.runtime.MessageSender = port.sender || {};
    const own = (url: string | undefined): boolean => !!url && url.startsWith(chrome.runtime.getURL(""));
    if (
      (port.name !== "webmcp-bridge-panel" && port.name !== "webmcp-bridge-agent") ||
      s.id !== chrome.runtime.id ||
      (s.tab && !own(s.tab.url)) ||
      !own(s.url)
    ) {
      port.disconnect();
      return;
    }
    panels.add(port);
    port.onDisconnect.addListener(() => panels.delete(port));
    // What this port was last shown of each tool (name → its description as JSON): a call runs
    // only the tool the panel listed, not another one registered since under the same name.
    let listed = new Map<string, string>();
    // The calls of this port in flight: the port's request id → the bridge's, for an abort.
    const calls = new Map<number, number>();
    port.onMessage.addListener((m: unknown) => void serve(m));
    const serve = async (m: unknown): Promise<void> => {
      const msg = m as PanelRequest | null;
      if (!msg || typeof msg !== "object" || !Number.isSafeInteger(msg.id)) return;
      // The page's origin and URL are stamped last: nothing from the page's world can set them.
      const answer = (body: Record<string, unknown>): void => {
        try {
          port.postMessage({ ...body, id: msg.id, ...stamp() });
        } catch (e) {
          // an answer the panel's messaging cannot carry (or the panel went away)
          try {
            port.postMessage({
              error: "the page's answer cannot be passed on: " + messageOf(e),
              id: msg.id,
              ...stamp(),
            });
          } catch {
            /* gone */
          }
        }
      };
      const refuse = (refused: string, error: string): void => answer({ refused, error: "refused: " + error });
      try {
        if (msg.op === "list") {
          const d = await ask({ op: "list" });
          if (Array.isArray(d.tools))
            listed = new Map(
              (d.tools as { name?: unknown }[])
                .filter((t) => t && typeof t.name === "string")
                .map((t) => [t.name as string, JSON.stringify(t)]),
            );
          return answer({ tools: d.tools, error: d.error, errorName: d.errorName });
        }
        if (msg.op === "abort") {
          const target = calls.get(Number(msg.call));
          if (target !== undefined) channel.port1.postMessage({ id: nextId++, secret, op: "abort", target });
          return;
        }
        if (msg.op !== "call") return refuse("request", "unknown request");
        if (typeof msg.origin !== "string" || msg.origin !== location.origin)
          return refuse("origin", "the call was for another origin");
        if (typeof msg.name !== "string" || typeof msg.args !== "object" || msg.args === null)
          return refuse("request", "a call needs a tool name and an arguments object");
        if (!listed.has(msg.name)) return refuse("unlisted", "the tool was not listed to this panel");
        const now = await ask({ op: "list" });
        const tool: unknown = Array.isArray(now.tools)
          ? (now.tools as { name?: unknown }[]).find((t) => t && t.name === msg.name)
          : undefined;
        if (!tool || JSON.stringify(tool) !== listed.get(msg.name))
          return refuse("toolchange", "the tool has changed since it was listed");
        const d = await ask({ op: "call", name: msg.name, args: msg.args }, (id) => calls.set(msg.id, id));
        calls.delete(msg.id);
        answer({ raw: d.raw, error: d.error, errorName: d.errorName });
      } catch (e) {
        answer({ error: "the page's answer cannot be read: " + messageOf(e) });
      }
    };
  });
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
