// webmcp-bridge-wasm/content: the extension kit's isolated-world helper. An extension's content
// script calls connectPage() at document_start; the helper hands the MAIN-world script
// (webmcp-bridge-extension.js) where the module is and a per-page secret (handoff.ts), and gives
// the content script a typed link to the page's bridge. The secret never leaves this file:
// nothing the link hands on carries it, and only answers that carry it, to a request the link
// sent, are taken. (The classic-script form, dist/webmcp-bridge-content.js, defines the same
// function as globalThis.WebMCPBridgeContent.connectPage: entry-content.ts.)
import { MESSAGE_PREFIX } from "./generated/boundary.ts";
import {
  HANDOFF_ATTRIBUTE,
  NO_BRIDGE,
  RELAY_MARK,
  type HandOff,
  type HandOffAnswer,
  type HandOffRequest,
} from "./handoff.ts";
import type { AgentTool, CheckedArguments } from "./types.ts";

export type { CheckedArguments };

/** Options of connectPage. */
export interface ConnectPageOptions {
  /** The URL of the folder where the extension carries the bridge's files (webmcp-bridge.wasm,
   * webmcp-bridge-worker.js, listed in web_accessible_resources); by default
   * chrome.runtime.getURL("webmcp-bridge/"). */
  assets?: string;
}

/** A call to the page's bridge that did not give a result: no such tool, an abort, a page that
 * has no bridge. A tool that throws gives a result (an error block), not a PageLinkError. */
export interface PageLinkError extends Error {
  /** The bridge's error name (NotSupportedError, DataError, …), or "PageLinkError". */
  name: string;
}

/** A typed link from an isolated-world content script to the bridge of its page. */
export interface PageLink {
  /** The page's origin, from the content script's own location (page scripts cannot change it);
   * "null" for an opaque origin. */
  readonly origin: string;
  /** The page's URL, from the content script's own location. */
  readonly url: string;
  /** The page's tools, as the bridge's agent side describes them. */
  listTools(): Promise<AgentTool[]>;
  /** Calls a tool and resolves with its output as JSON text, prepared by the page's bridge
   * (arguments checked against the tool's schema, binaries as data: URLs) but not normalized:
   * the page wrote it, so normalize it where the page cannot reach — agent.parseToolOutput in
   * an extension page, or bridge.ParseToolOutput in Go — and every notice is your agent's own.
   * Rejects with a PageLinkError when there is no such tool, or with signal's reason when it
   * aborts (the page's execute is aborted too). With checked, the agent says it checked the
   * arguments itself (see CheckedArguments): the page's bridge then skips its own check, and
   * does not start its module for it, when checked.schema is the tool's schema and checked.args
   * the arguments' JSON as the tool gets it; else it checks them as always. */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; checked?: CheckedArguments },
  ): Promise<string>;
  /** Calls listener once per burst of tool changes (registered, removed, changed); returns a
   * function that stops it. */
  onToolChange(listener: () => void): () => void;
}

let connected = false;

/** connectPage performs the hand-off to the page's bridge and returns the link. Call it once per
 * document, at document_start, from the content script listed just before
 * webmcp-bridge-extension.js (world MAIN) in the manifest. */
export function connectPage(options: ConnectPageOptions = {}): PageLink {
  if (connected) throw new Error(`${MESSAGE_PREFIX}connectPage() is called once per document`);
  connected = true;
  const secret = crypto.getRandomValues(new Uint32Array(4)).join("-");
  const base = options.assets ?? extensionURL("webmcp-bridge/");
  const channel = new MessageChannel();
  const pending = new Map<number, (a: HandOffAnswer) => void>(); // request id → who takes its answer
  const listeners = new Set<() => void>();
  let failure = ""; // why the link cannot work (said once), "" while it can
  let nextId = 1;

  // fail makes every call reject with why from now on; said, it is said on the console too (the
  // MAIN-world script says its own refusal itself).
  const fail = (why: string, said = false): void => {
    if (failure) return;
    failure = why;
    if (!said) console.error(MESSAGE_PREFIX + why);
    for (const respond of pending.values()) respond({ secret, error: why, errorName: "PageLinkError" });
    pending.clear();
  };

  // Without a MAIN-world script to take it, the hand-off is not written at all.
  if (mainWorldListed()) handOver({ base, secret }, channel.port2, fail);
  else fail(NO_BRIDGE);

  // Tool changes: a native ModelContext is a browser object whose events reach this world too
  // (read through the prototype's getter, as the bridge does: a named element could shadow it);
  // the bridge's own is an object of the page's world, whose toolchange the bridge sends here.
  let notify = 0;
  const changed = (): void => {
    if (notify) return;
    notify = window.setTimeout(() => {
      notify = 0;
      for (const f of listeners) f();
    }, 50);
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call
  const getMC = Object.getOwnPropertyDescriptor(Document.prototype, "modelContext")?.get;
  const mc: unknown = typeof getMC === "function" ? getMC.call(document) : null;
  if (mc instanceof EventTarget) mc.addEventListener("toolchange", changed);

  channel.port1.onmessage = (e: MessageEvent<HandOffAnswer | null>) => {
    const d = e.data;
    if (!d || typeof d !== "object" || d.secret !== secret) return;
    if (d.event === "toolchange") return changed();
    if (d.event === "refused") return fail(typeof d.error === "string" ? d.error : "the page's bridge refused", true);
    const respond = typeof d.id === "number" ? pending.get(d.id) : undefined;
    if (!respond) return;
    pending.delete(d.id as number);
    respond(d);
  };

  // ask sends one request and resolves with its answer; onSent hears its id (an abort names it).
  const ask = (req: Omit<HandOffRequest, "secret" | "id">, onSent?: (id: number) => void): Promise<HandOffAnswer> =>
    new Promise((resolve) => {
      if (failure) return resolve({ secret, error: failure, errorName: "PageLinkError" });
      const id = nextId++;
      pending.set(id, resolve);
      channel.port1.postMessage({ ...req, id, secret } satisfies HandOffRequest);
      onSent?.(id);
    });
  const rejection = (a: HandOffAnswer): PageLinkError =>
    Object.assign(new Error(String(a.error)), {
      name: typeof a.errorName === "string" ? a.errorName : "PageLinkError",
    });

  return {
    get origin() {
      return location.origin;
    },
    get url() {
      return location.href;
    },
    async listTools() {
      const a = await ask({ op: "list" });
      if (a.error !== undefined || !Array.isArray(a.tools)) throw rejection(a);
      return a.tools as AgentTool[];
    },
    callTool(name, args = {}, { signal, checked } = {}) {
      return new Promise<string>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        let sent = -1;
        const onAbort = (): void => {
          if (sent >= 0 && pending.delete(sent))
            channel.port1.postMessage({ secret, id: nextId++, op: "abort", target: sent });
          reject(signal?.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        const claim = checked && { schema: String(checked.schema), args: String(checked.args) };
        void ask({ op: "call", name, args, ...(claim && { checked: claim }) }, (id) => (sent = id)).then((a) => {
          signal?.removeEventListener("abort", onAbort);
          if (typeof a.raw === "string" && a.error === undefined) resolve(a.raw);
          else reject(rejection(a));
        });
      });
    },
    onToolChange(listener) {
      const f = (): void => listener();
      listeners.add(f);
      return () => void listeners.delete(f);
    },
  };
}

// handOver writes the hand-off attribute and posts port to the MAIN-world script once it took
// the attribute (it listens for the port in the same run): Chromium runs it right after this
// script, Firefox may run it a task or more later, and a port posted before it listens would be
// lost. Should the MAIN-world script listed in the manifest not run (a frame or page it does not
// match), the attribute (with the secret and the extension's address) does not stay on the page
// once it has loaded: fail hears why.
function handOver(handOff: HandOff, port: MessagePort, fail: (why: string) => void): void {
  const root = document.documentElement;
  root.setAttribute(HANDOFF_ATTRIBUTE, JSON.stringify(handOff));
  const taken = new MutationObserver(() => {
    if (root.hasAttribute(HANDOFF_ATTRIBUTE)) return;
    taken.disconnect();
    window.postMessage({ [RELAY_MARK]: true, secret: handOff.secret }, "*", [port]);
  });
  taken.observe(root, { attributes: true, attributeFilter: [HANDOFF_ATTRIBUTE] });
  const unclaimed = (): void => {
    if (!root.hasAttribute(HANDOFF_ATTRIBUTE)) return;
    taken.disconnect();
    root.removeAttribute(HANDOFF_ATTRIBUTE);
    fail(NO_BRIDGE);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", unclaimed, { once: true });
  else setTimeout(unclaimed);
}

/** The part of chrome.runtime the helper uses. */
interface Runtime {
  getURL?: (path: string) => string;
  getManifest?: () => { content_scripts?: { js?: string[]; world?: string }[] };
}
const runtime = (): Runtime | undefined => (globalThis as { chrome?: { runtime?: Runtime } }).chrome?.runtime;

// mainWorldListed says whether the extension's manifest lists webmcp-bridge-extension.js as a
// MAIN-world content script (under that name): what takes the hand-off off the page.
function mainWorldListed(): boolean {
  const scripts = runtime()?.getManifest?.().content_scripts ?? [];
  return scripts.some(
    (c) => c.world === "MAIN" && (c.js ?? []).some((f) => /(^|\/)webmcp-bridge-extension\.js$/.test(f)),
  );
}

// extensionURL is chrome.runtime.getURL(path) (browser.runtime in Firefox).
function extensionURL(path: string): string {
  const rt = runtime();
  if (!rt || typeof rt.getURL !== "function")
    throw new Error(`${MESSAGE_PREFIX}connectPage() runs in an extension's content script (no chrome.runtime here)`);
  return rt.getURL(path);
}
