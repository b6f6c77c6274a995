// The extension's hand-off: in the extension the loader runs as a MAIN-world content script at
// document_start, and the isolated-world relay talks to it over a private MessageChannel.
import { describeTool } from "./agent.js";

// connectExtension answers the extension's relay over a private MessageChannel. The port
// arrives in one window message that carries the per-page secret; this listener is the first
// registered (document_start) and stops the message from reaching page scripts. Everything
// the hand-off touches — the event's data, source and ports, stopping it, listening and
// posting on the port — goes through the built-ins captured before any page script ran, so a
// page that patches Event, MessageEvent or MessagePort later sees nothing. Requests are
// {id, op: "list" | "call", name?, args?}; a call answers with executeTool's raw string, which
// the extension panel normalizes again itself.
export function connectExtension({ secret, builtins: b }, modelContext) {
  const call = (f, self, ...args) => b.apply(f, self, args);
  const onMessage = (e) => {
    const d = call(b.data, e);
    if (call(b.source, e) !== window || !d || d.webmcpBridgeRelay !== true || d.secret !== secret) return;
    const ports = call(b.ports, e);
    if (!ports || !ports[0]) return;
    call(b.stopImmediatePropagation, e);
    call(b.removeEventListener, window, "message", onMessage, true);
    const port = ports[0];
    const reply = (id, body) => call(b.postMessage, port, Object.assign({ id, secret }, body));
    call(b.addEventListener, port, "message", async (m) => {
      const req = call(b.data, m) || {};
      if (req.secret !== secret || typeof req.id !== "number") return;
      try {
        const tools = await modelContext.getTools();
        if (req.op === "list") return reply(req.id, { tools: tools.map(describeTool) });
        if (req.op === "call") {
          const tool = tools.find((t) => t.name === req.name);
          if (!tool) return reply(req.id, { error: `no tool named "${req.name}" on this page` });
          const raw = await modelContext.executeTool(tool, req.args || {});
          return reply(req.id, { raw: typeof raw === "string" ? raw : JSON.stringify(raw) });
        }
        reply(req.id, { error: "unknown request" });
      } catch (err) {
        reply(req.id, { error: String(err && err.message || err), errorName: err && err.name });
      }
    });
    call(b.start, port);
    // The relay cannot see a fallback ModelContext (a JS object of this world): tell it.
    call(b.addEventListener, modelContext, "toolchange", () => call(b.postMessage, port, { secret, event: "toolchange" }));
  };
  call(b.addEventListener, window, "message", onMessage, true);
}

// takeExtensionHandOff reads and removes the relay's data-webmcp-bridge attribute ({base,
// secret}) when the loader runs as the extension's content script (no script element), and
// captures the built-ins connectExtension needs while no page script has run yet.
export function takeExtensionHandOff() {
  const root = document.documentElement;
  if (document.currentScript || !root || !root.hasAttribute("data-webmcp-bridge")) return null;
  let handOff = null;
  try { handOff = JSON.parse(root.getAttribute("data-webmcp-bridge")); } catch (e) { handOff = null; }
  root.removeAttribute("data-webmcp-bridge");
  if (!handOff || typeof handOff.secret !== "string" || typeof handOff.base !== "string") return null;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const builtins = {
    apply: Reflect.apply,
    addEventListener: EventTarget.prototype.addEventListener,
    removeEventListener: EventTarget.prototype.removeEventListener,
    stopImmediatePropagation: Event.prototype.stopImmediatePropagation,
    data: getter(MessageEvent.prototype, "data"),
    source: getter(MessageEvent.prototype, "source"),
    ports: getter(MessageEvent.prototype, "ports"),
    postMessage: MessagePort.prototype.postMessage,
    start: MessagePort.prototype.start,
  };
  return { base: handOff.base, secret: handOff.secret, builtins };
}

// nativeModelContext is the browser's own ModelContext, read through the prototypes' getters:
