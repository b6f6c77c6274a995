// Isolated-world content script: the only link between the extension and a page's bridge,
// through the extension kit's helper (web/src/page-link.ts, connectPage), the same one extension
// authors use: it hands the MAIN-world bridge the module's location and a per-page secret, and
// keeps that secret to itself. The relay serves the extension's own pages only (the panel), over
// a port that belongs to this document (the panel's, and the service worker's for MCP clients):
// when the document goes (navigation, bfcache, close) the port disconnects, so nothing sent for
// this page can reach the next one. Every message to the panel carries this page's origin and
// URL; a call must name the origin its list came from and a tool that is still the one listed
// over the same port, and is refused unrun otherwise.
/// <reference types="chrome" />
import { connectPage } from "../src/page-link.ts";

/** A request of the panel. */
interface PanelRequest {
  id: number;
  op?: unknown;
  origin?: unknown;
  name?: unknown;
  args?: unknown;
  checked?: unknown;
  call?: unknown;
}

{
  const link = connectPage({ assets: chrome.runtime.getURL("dist/") });
  const panels = new Set<chrome.runtime.Port>(); // connected panel ports

  // Where this page is, from the isolated world's own location (page scripts cannot redefine
  // it). "null" for an opaque origin (a sandboxed document); the URL then tells pages apart.
  const stamp = () => ({ origin: link.origin, url: link.url });

  // Connected panels hear of tool changes (once per burst) and list the tools again.
  link.onToolChange(() => {
    for (const port of panels) {
      try {
        port.postMessage({ event: "toolchange", ...stamp() });
      } catch {
        panels.delete(port);
      }
    }
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
    // The calls of this port in flight, by the port's request id, for an abort.
    const calls = new Map<number, AbortController>();
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
      const failed = (e: unknown): void =>
        answer({ error: messageOf(e), errorName: e instanceof Error ? e.name : undefined });
      const refuse = (refused: string, error: string): void => answer({ refused, error: "refused: " + error });
      if (msg.op === "abort") return calls.get(Number(msg.call))?.abort();
      let tools;
      try {
        tools = await link.listTools();
      } catch (e) {
        return failed(e);
      }
      if (msg.op === "list") {
        listed = new Map(tools.filter((t) => t && typeof t.name === "string").map((t) => [t.name, JSON.stringify(t)]));
        return answer({ tools });
      }
      if (msg.op !== "call") return refuse("request", "unknown request");
      if (typeof msg.origin !== "string" || msg.origin !== link.origin)
        return refuse("origin", "the call was for another origin");
      if (typeof msg.name !== "string" || typeof msg.args !== "object" || msg.args === null)
        return refuse("request", "a call needs a tool name and an arguments object");
      if (!listed.has(msg.name)) return refuse("unlisted", "the tool was not listed to this panel");
      const tool = tools.find((t) => t && t.name === msg.name);
      if (!tool || JSON.stringify(tool) !== listed.get(msg.name))
        return refuse("toolchange", "the tool has changed since it was listed");
      const abort = new AbortController();
      calls.set(msg.id, abort);
      try {
        // webmcp-mcp's word that it checked the arguments natively (the service worker passes it on).
        const c = msg.checked as { schema?: unknown; args?: unknown } | null | undefined;
        const checked =
          c && typeof c === "object" && typeof c.schema === "string" && typeof c.args === "string"
            ? { schema: c.schema, args: c.args }
            : undefined;
        answer({
          raw: await link.callTool(msg.name, msg.args as Record<string, unknown>, { signal: abort.signal, checked }),
        });
      } catch (e) {
        failed(e);
      } finally {
        calls.delete(msg.id);
      }
    };
  });
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
