// The extension's hand-off: in the extension the loader runs as a MAIN-world content script at
// document_start, and the isolated-world relay talks to it over a private MessageChannel.
import { describeTool } from "./agent.ts";
import { call, events, read } from "./builtins.ts";
import type { ModelContext } from "./types.ts";

/** What the relay hands over: where the module's files are, and the per-page secret. */
interface HandOff {
  base: string;
  secret: string;
}

// connectExtension answers the extension's relay over a private MessageChannel. The port
// arrives in one window message that carries the per-page secret; this listener is the first
// registered (document_start) and stops the message from reaching page scripts. Everything
// the hand-off touches — the event's data, source and ports, stopping it, listening and
// posting on the port — goes through the built-ins captured before any page script ran
// (builtins.ts), so a page that patches Event, MessageEvent or MessagePort later sees nothing. Requests are
// {id, op: "list" | "call" | "abort", name?, args?, target?} (abort: the call of id target,
// through its AbortSignal); a call answers with executeTool's raw string, which
// the extension panel normalizes again itself.
export function connectExtension({ secret }: HandOff, modelContext: ModelContext): void {
  const onMessage = (e: MessageEvent): void => {
    const d = read(e, "data") as { webmcpBridgeRelay?: unknown; secret?: unknown } | null;
    if (read(e, "source") !== window || !d || d.webmcpBridgeRelay !== true || d.secret !== secret) return;
    const ports = read(e, "ports") as readonly MessagePort[] | null;
    if (!ports || !ports[0]) return;
    call(events.stopImmediatePropagation, e);
    call(events.removeEventListener, window, "message", onMessage, true);
    const port = ports[0];
    const reply = (id: number, body: Record<string, unknown>): void =>
      call(events.postMessage, port, { ...body, id, secret });
    const running = new Map<number, AbortController>(); // calls in flight, by request id
    call(events.addEventListener, port, "message", async (m: MessageEvent) => {
      const req = (read(m, "data") || {}) as {
        secret?: unknown;
        id?: unknown;
        op?: unknown;
        name?: unknown;
        args?: unknown;
        target?: unknown;
      };
      if (req.secret !== secret || typeof req.id !== "number") return;
      if (req.op === "abort") return running.get(Number(req.target))?.abort();
      try {
        const tools = await modelContext.getTools();
        if (req.op === "list") return reply(req.id, { tools: tools.map(describeTool) });
        if (req.op === "call") {
          const tool = tools.find((t) => t.name === req.name);
          if (!tool) return reply(req.id, { error: `no tool named "${String(req.name)}" on this page` });
          const abort = new AbortController();
          running.set(req.id, abort);
          try {
            const raw = await modelContext.executeTool(tool, req.args || {}, { signal: abort.signal });
            return reply(req.id, { raw: typeof raw === "string" ? raw : JSON.stringify(raw) });
          } finally {
            running.delete(req.id);
          }
        }
        reply(req.id, { error: "unknown request" });
      } catch (err) {
        reply(req.id, {
          error: String(err instanceof Error ? err.message : err),
          errorName: err instanceof Error ? err.name : undefined,
        });
      }
    });
    call(events.start, port);
    // The relay cannot see a fallback ModelContext (a JS object of this world): tell it.
    call(events.addEventListener, modelContext, "toolchange", () =>
      call(events.postMessage, port, { secret, event: "toolchange" }),
    );
  };
  call(events.addEventListener, window, "message", onMessage, true);
}

// takeExtensionHandOff reads and removes the relay's data-webmcp-bridge attribute ({base,
// secret}) when the loader runs as the extension's content script (no script element), and
// (builtins.ts, imported first, has captured the built-ins connectExtension needs while no page
// script has run yet).
export function takeExtensionHandOff(): HandOff | null {
  const root = document.documentElement;
  if (document.currentScript || !root || !root.hasAttribute("data-webmcp-bridge")) return null;
  const handOff = readHandOff(root.getAttribute("data-webmcp-bridge") ?? "");
  root.removeAttribute("data-webmcp-bridge");
  if (!handOff || typeof handOff.secret !== "string" || typeof handOff.base !== "string") return null;
  return { base: handOff.base, secret: handOff.secret };
}

function readHandOff(text: string): Partial<HandOff> | null {
  try {
    return JSON.parse(text) as Partial<HandOff>;
  } catch {
    return null;
  }
}
