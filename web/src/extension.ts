// The extension's hand-off, MAIN-world side: in an extension the loader runs as a MAIN-world
// content script at document_start, and the isolated-world helper (page-link.ts) talks to it over
// a private MessageChannel (the protocol: handoff.ts).
import { describeTool } from "./agent.ts";
import { call, events, hasOwn, read } from "./builtins.ts";
import { expectChecked, preparedHook, warmForCalls } from "./flow.ts";
import { MESSAGE_PREFIX } from "./generated/boundary.ts";
import { HANDOFF_ATTRIBUTE, NO_HANDOFF, RELAY_MARK, type HandOff, type HandOffAnswer } from "./handoff.ts";
import type { CheckedArguments, ModelContext } from "./types.ts";

// connectExtension answers the extension's helper over a private MessageChannel. The port
// arrives in one window message that carries the per-page secret; this listener is the first
// registered (document_start) and stops the message from reaching page scripts. Everything
// the hand-off touches — the event's data, source and ports, stopping it, listening and
// posting on the port — goes through the built-ins captured before any page script ran
// (builtins.ts), so a page that patches Event, MessageEvent or MessagePort later sees nothing. A
// call answers with the tool's value prepared, not normalized (expectPrepared): the agent beyond
// the helper normalizes it where the page cannot reach, so every notice it hands on is its own
// (marks the page's world wrote would only be page text). Its arguments are checked as always,
// unless the call says they were checked already against the tool's schema (expectChecked):
// then the page's module need not start for it at all.
export function connectExtension({ secret }: HandOff, modelContext: ModelContext): void {
  const onMessage = (e: MessageEvent): void => {
    const d = read(e, "data") as Record<string, unknown> | null;
    if (read(e, "source") !== window || !d || d[RELAY_MARK] !== true || d.secret !== secret) return;
    const ports = read(e, "ports") as readonly MessagePort[] | null;
    if (!ports || !ports[0]) return;
    call(events.stopImmediatePropagation, e);
    call(events.removeEventListener, window, "message", onMessage, true);
    const port = ports[0];
    const reply = (id: number, body: Omit<HandOffAnswer, "id" | "secret">): void =>
      call(events.postMessage, port, { ...body, id, secret } satisfies HandOffAnswer);
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
        if (req.op === "list") {
          reply(req.id, { tools: tools.map(describeTool) });
          return warmForCalls(); // an agent that lists calls next
        }
        if (req.op === "call") {
          const tool = tools.find((t) => t.name === req.name);
          if (!tool) return reply(req.id, { error: `no tool named "${String(req.name)}" on this page` });
          const abort = new AbortController();
          running.set(req.id, abort);
          // Another frame's tool runs there: its answer is normalized here (normalizeForeign),
          // and its arguments checked there.
          const here = tool.window === window;
          const withdraw = here ? expectPrepared(tool.name) : null;
          const checked = here ? checkedOf(req) : null;
          const unchecked = checked ? expectChecked(tool.name, checked.schema, checked.args) : null;
          let failed = true;
          try {
            const raw = await modelContext.executeTool(tool, req.args || {}, { signal: abort.signal });
            failed = false;
            return reply(req.id, { raw: typeof raw === "string" ? raw : JSON.stringify(raw) });
          } finally {
            withdraw?.(failed);
            unchecked?.();
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
    // The helper cannot see a fallback ModelContext (a JS object of this world): tell it.
    call(events.addEventListener, modelContext, "toolchange", () =>
      call(events.postMessage, port, { secret, event: "toolchange" } satisfies HandOffAnswer),
    );
  };
  call(events.addEventListener, window, "message", onMessage, true);
}

// checkedOf is the request's claim that its arguments were checked (CheckedArguments), read
// from its own members only: a getter a page script put on Object.prototype is never asked.
function checkedOf(req: object): CheckedArguments | null {
  const c = hasOwn(req, "checked") ? (req as { checked: unknown }).checked : null;
  if (!c || typeof c !== "object" || !hasOwn(c, "schema") || !hasOwn(c, "args")) return null;
  const { schema, args } = c as Record<string, unknown>;
  return typeof schema === "string" && typeof args === "string" ? { schema, args } : null;
}

// takeExtensionHandOff reads and removes the helper's hand-off attribute ({base, secret}) when
// the loader runs as an extension's content script (no script element); "missing" when there is
// none (builtins.ts, imported first, has captured the built-ins connectExtension needs while no
// page script has run yet).
export function takeExtensionHandOff(): HandOff | "missing" | null {
  const root = document.documentElement;
  if (document.currentScript || !root) return null;
  if (!root.hasAttribute(HANDOFF_ATTRIBUTE)) return "missing";
  const handOff = readHandOff(root.getAttribute(HANDOFF_ATTRIBUTE) ?? "");
  root.removeAttribute(HANDOFF_ATTRIBUTE);
  if (!handOff || typeof handOff.secret !== "string" || typeof handOff.base !== "string") return null;
  return { base: handOff.base, secret: handOff.secret };
}

// refuseLateHandOff is the MAIN-world script's answer to running before its helper (the content
// scripts listed in the wrong order): it says so once, naming the fix, and stays closed. A
// hand-off that comes later is taken off the page at once (its attribute carries the secret and
// the extension's address), and its port is answered "refused" and closed, so the helper's link
// fails with the same message instead of waiting.
export function refuseLateHandOff(): void {
  console.error(MESSAGE_PREFIX + NO_HANDOFF);
  const root = document.documentElement;
  const late = new MutationObserver(() => {
    if (!root.hasAttribute(HANDOFF_ATTRIBUTE)) return;
    late.disconnect();
    const handOff = readHandOff(root.getAttribute(HANDOFF_ATTRIBUTE) ?? "");
    root.removeAttribute(HANDOFF_ATTRIBUTE);
    if (!handOff || typeof handOff.secret !== "string") return;
    const secret = handOff.secret;
    const onMessage = (e: MessageEvent): void => {
      const d = read(e, "data") as Record<string, unknown> | null;
      const ports = read(e, "ports") as readonly MessagePort[] | null;
      if (read(e, "source") !== window || !d || d[RELAY_MARK] !== true || d.secret !== secret || !ports?.[0]) return;
      call(events.stopImmediatePropagation, e);
      call(events.removeEventListener, window, "message", onMessage, true);
      call(events.postMessage, ports[0], { secret, event: "refused", error: NO_HANDOFF } satisfies HandOffAnswer);
    };
    call(events.addEventListener, window, "message", onMessage, true);
  });
  late.observe(root, { attributes: true, attributeFilter: [HANDOFF_ATTRIBUTE] });
}

function readHandOff(text: string): Partial<HandOff> | null {
  try {
    return JSON.parse(text) as Partial<HandOff>;
  } catch {
    return null;
  }
}

// preparedCalls counts, per tool, the helper's calls that started and whose value goes out
// prepared, not normalized (expectPrepared): the agent beyond the helper (an extension page,
// webmcp-mcp) normalizes it natively, so every notice it hands on is its own. The next call of the
// tool that runs takes one (flow.ts asks through preparedHook). With native WebMCP the browser
// starts the tool a moment after executeTool; a call another agent makes of the same tool in that
// moment may take it instead, and that agent then gets the tool's value as the browser would give
// it without the bridge. It has no prototype, and nothing a page script can reach adds to it.
const preparedCalls = Object.create(null) as Record<string, number>;

// expectPrepared says that the next call of the tool name that runs goes out prepared; the
// returned function withdraws that when the call failed, maybe before it ran.
function expectPrepared(name: string): (failed: boolean) => void {
  preparedCalls[name] = (preparedCalls[name] ?? 0) + 1;
  preparedHook.take ??= takePrepared;
  return (failed) => {
    if (failed) takePrepared(name);
  };
}

function takePrepared(name: string): boolean {
  const n = preparedCalls[name] ?? 0;
  if (n > 1) preparedCalls[name] = n - 1;
  else delete preparedCalls[name];
  return n > 0;
}
