// The link to MCP clients: the service worker's native-messaging port to webmcp-mcp's host,
// which joins every `webmcp-mcp -extension` server (each a client with a number) to this
// browser. A client sees only tabs of origins the person allowed (in the panel, or with -allow
// in that client's config), never an incognito tab; where a tab is comes from chrome.tabs, its
// tools from its page through the relay. A consequential tool waits for the person's yes
// (confirm.ts). The port is opened when the worker starts and again, with backoff, when it
// drops; when it drops, every call in flight is given up (the servers answer their clients).
/// <reference types="chrome" />
import { allowedOrigins, onAllowedChange, webOrigin } from "./allowed.ts";
import { ask, needsConfirm, type Decision } from "./confirm.ts";
import { RelayPort, type RelayAnswer } from "./tabrelay.ts";
import {
  NATIVE_TO_HOST_BYTES as MAX_TO_HOST,
  PAGE_MAX_DESCRIPTION_CHARS,
  PAGE_MAX_LIST_BYTES,
  PAGE_MAX_SCHEMA_CHARS,
  PAGE_MAX_TOOLS,
} from "../src/generated/pagelist.ts";

/** The host's name in its manifest (internal/nativehost: HostName, checked by a Go test). */
const HOST_NAME = "webmcp_bridge";

/** A webmcp-mcp server, as its hello said. */
interface Client {
  allow: Set<string>;
  confirm: boolean;
  confirmTimeoutMs: number;
  greeted: boolean;
  sent: string;
}
/** A tool as the page's bridge describes it. */
interface Tool {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  annotations?: unknown;
}
/** A tool as a client is sent it: bounded, with what was cut said (webmcp-mcp's PageTool). */
interface ListedTool {
  name: string;
  title: string;
  description: string;
  descriptionCut?: number;
  inputSchema?: unknown;
  schemaTooLarge?: number;
  schemaUnreadable?: boolean;
  annotations: Record<string, boolean>;
}
/** A page as a client is sent it. */
interface ListedPage {
  tab: number;
  window: number;
  url: string | undefined;
  origin: string;
  title: string;
  tools: ListedTool[];
  more: number;
  loading: boolean;
}
/** The document a tab shows, listed through its relay. */
interface TabPage {
  relay: RelayPort;
  origin: string;
  tools: Tool[];
  listed: { tools: ListedTool[]; more: number; bytes: number };
}
/** A message from the host. */
interface HostMessage {
  type?: string;
  client?: number;
  event?: string;
  id?: number;
  tab?: number;
  origin?: string;
  tool?: string;
  args?: unknown;
  checked?: unknown;
  allow?: unknown;
  confirm?: unknown;
  confirmTimeoutMs?: unknown;
}

/** Which browser this is, told to webmcp-mcp with each list of pages: a random id kept in this
 * profile's storage (the same after a restart, another in another profile), by which it finds a
 * restarted browser's pages again, and the browser's name, which tells two browsers apart. */
interface BrowserIdentity {
  id: string;
  name: string;
}
let identity: Promise<BrowserIdentity> | null = null;

let native: chrome.runtime.Port | null = null;
let failures = 0;
let openedAt = 0;
let panelAllowed = new Set<string>();
const clients = new Map<number, Client>();
const pages = new Map<number, TabPage>(); // by tab id
const running = new Map<string, AbortController>(); // by "client:id"
const retries = new Map<number, number>(); // tab id → lists that found no relay yet (it may still be starting)

/** Starts the link: reads the allowed origins, follows the tabs, opens the port. */
export function startNativeLink(): void {
  const reload = (): void =>
    void allowedOrigins().then((s) => {
      panelAllowed = s;
      scheduleRefresh();
    });
  onAllowedChange(reload);
  reload();
  chrome.tabs.onUpdated.addListener((id, change) => {
    if (change.url !== undefined) retries.delete(id); // a new page: new tries
    if (change.url !== undefined || change.status !== undefined || change.title !== undefined) scheduleRefresh();
  });
  chrome.tabs.onRemoved.addListener(scheduleRefresh);
  connect();
}

function connect(): void {
  const port = chrome.runtime.connectNative(HOST_NAME);
  native = port;
  openedAt = Date.now();
  port.onMessage.addListener((m: HostMessage | null) => void onHostMessage(m ?? {}));
  port.onDisconnect.addListener(() => {
    void chrome.runtime.lastError; // no host registered, or it stopped
    native = null;
    for (const c of running.values()) c.abort();
    running.clear();
    clients.clear();
    scheduleRefresh();
    failures = Date.now() - openedAt > 10_000 ? 0 : failures + 1;
    setTimeout(connect, Math.min(60_000, 1000 * 2 ** Math.min(failures, 6)));
  });
}

// wireSize is the UTF-8 length of a value as JSON.
function wireSize(v: unknown): number {
  const text = JSON.stringify(v) ?? "";
  return text.length > MAX_TO_HOST / 3 ? new TextEncoder().encode(text).length : text.length;
}

// post sends a message to the host; one over 64 MiB is refused here, with the limit named.
function post(msg: Record<string, unknown>): boolean {
  if (!native) return false;
  const size = wireSize(msg);
  if (size > MAX_TO_HOST) {
    console.warn(`webmcp-bridge: a message of ${size} bytes is over native messaging's 64 MiB to the host; not sent`);
    return false;
  }
  try {
    native.postMessage(msg);
    return true;
  } catch {
    return false;
  }
}

async function onHostMessage(m: HostMessage): Promise<void> {
  const id = Number(m.client);
  if (!Number.isSafeInteger(id) || id <= 0) return;
  if (m.type === "client" && m.event === "open") {
    clients.set(id, { allow: new Set(), confirm: true, confirmTimeoutMs: 120_000, greeted: false, sent: "" });
  } else if (m.type === "client" && m.event === "close") {
    clients.delete(id);
    for (const [key, c] of running)
      if (key.startsWith(id + ":")) {
        c.abort();
        running.delete(key);
      }
  } else if (m.type === "hello") {
    const c = clients.get(id);
    if (!c) return;
    c.allow = new Set(Array.isArray(m.allow) ? m.allow.filter((o): o is string => typeof o === "string") : []);
    c.confirm = m.confirm !== false;
    if (typeof m.confirmTimeoutMs === "number" && m.confirmTimeoutMs > 0) c.confirmTimeoutMs = m.confirmTimeoutMs;
    c.greeted = true;
    await refresh();
  } else if (m.type === "call") {
    await onCall(id, m);
  } else if (m.type === "abort") {
    running.get(`${id}:${String(m.id)}`)?.abort();
  }
}

// allowed: whether a client may see an origin's tools.
function allowed(c: Client, origin: string): boolean {
  return origin !== "" && (panelAllowed.has(origin) || c.allow.has(origin));
}

let timer = 0;
function scheduleRefresh(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void refresh(), 50);
}

// refresh lists the tools of every tab of an origin some client may see, and sends each client
// its pages when they changed.
async function refresh(): Promise<void> {
  const tabs = native && clients.size ? await chrome.tabs.query({}) : [];
  const wanted = (t: chrome.tabs.Tab): boolean =>
    !t.incognito && t.id !== undefined && [...clients.values()].some((c) => allowed(c, webOrigin(t.url)));
  const live = new Set<number>();
  await Promise.all(
    tabs.filter(wanted).map(async (t) => {
      const id = t.id as number;
      live.add(id);
      const p = pages.get(id);
      if (p && !p.relay.closed && p.origin === webOrigin(t.url)) return;
      p?.relay.close("replaced");
      pages.delete(id);
      if (t.status === "complete") await listTab(id);
    }),
  );
  for (const [id, p] of pages)
    if (!live.has(id)) {
      p.relay.close("replaced");
      pages.delete(id);
    }
  const now = new Map(tabs.map((t) => [t.id, t]));
  identity ??= browserIdentity();
  const browser = await identity;
  for (const [id, c] of clients) if (c.greeted) sendPages(id, c, now, browser);
}

async function browserIdentity(): Promise<BrowserIdentity> {
  const key = "webmcp-bridge-browser-id";
  const got: Record<string, unknown> = await chrome.storage.local.get(key).catch(() => ({}));
  let id = typeof got[key] === "string" ? got[key] : "";
  if (!id) {
    id = crypto.randomUUID();
    await chrome.storage.local.set({ [key]: id }).catch(() => undefined);
  }
  const brands = (navigator as { userAgentData?: { brands?: { brand: string }[] } }).userAgentData?.brands ?? [];
  const named = brands.map((b) => b.brand).find((b) => !/not.?a.?brand|^chromium$/i.test(b));
  const name = named ?? (brands.length ? "Chromium" : / Firefox\//.test(navigator.userAgent) ? "Firefox" : "browser");
  return { id, name };
}

// listTab lists the tools of the document tab id shows, through its relay.
async function listTab(id: number): Promise<void> {
  const relay = new RelayPort(
    id,
    "webmcp-bridge-agent",
    (e) => {
      if (e.event === "toolchange" && pages.get(id)?.relay === relay) void relist(id);
    },
    () => {
      if (pages.get(id)?.relay === relay) {
        pages.delete(id);
        scheduleRefresh();
      }
    },
  );
  const a = await relay.request({ op: "list" });
  if (a.lost || typeof a.origin !== "string" || !Array.isArray(a.tools)) {
    relay.close("replaced");
    // The tab's relay may not listen yet (a content script starting): ask again a few times.
    const n = (retries.get(id) ?? 0) + 1;
    retries.set(id, n);
    if (n <= 6) setTimeout(scheduleRefresh, 250 * 2 ** n);
    return;
  }
  retries.delete(id);
  pages.set(id, { relay, origin: a.origin, tools: a.tools as Tool[], listed: bound(a.tools as Tool[]) });
}

async function relist(id: number): Promise<void> {
  const p = pages.get(id);
  if (!p) return;
  const a = await p.relay.request({ op: "list" });
  if (Array.isArray(a.tools) && a.origin === p.origin) {
    p.tools = a.tools as Tool[];
    p.listed = bound(p.tools);
  }
  scheduleRefresh();
}

// bound is what a page's tools are listed as: at most PAGE_MAX_TOOLS tools, each description
// and title cut at PAGE_MAX_DESCRIPTION_CHARS, a schema over PAGE_MAX_SCHEMA_CHARS left out, and
// all of them together at most PAGE_MAX_LIST_BYTES of JSON; more counts the tools left out.
// Every cut is said (descriptionCut, schemaTooLarge, more), and webmcp-mcp names the limit.
function bound(tools: Tool[]): { tools: ListedTool[]; more: number; bytes: number } {
  const out: ListedTool[] = [];
  let bytes = 2;
  for (const t of tools.slice(0, PAGE_MAX_TOOLS)) {
    const l = describe(t);
    const size = utf8Size(l) + 1;
    if (bytes + size > PAGE_MAX_LIST_BYTES) break;
    bytes += size;
    out.push(l);
  }
  return { tools: out, more: tools.length - out.length, bytes };
}

// describe is one tool as a client is sent it (the fields webmcp-mcp reads, bounded).
function describe(t: Tool): ListedTool {
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  const description = text(t.description);
  const l: ListedTool = {
    name: t.name,
    title: text(t.title).slice(0, PAGE_MAX_DESCRIPTION_CHARS),
    description: description.slice(0, PAGE_MAX_DESCRIPTION_CHARS),
    annotations: {},
  };
  if (description.length > PAGE_MAX_DESCRIPTION_CHARS) l.descriptionCut = description.length;
  let schema = t.inputSchema;
  if (typeof schema === "string" && schema.length <= PAGE_MAX_SCHEMA_CHARS) {
    schema = parseOrNull(schema);
    if (schema === null) l.schemaUnreadable = true;
  }
  const schemaText = schema === undefined || schema === null ? "" : (JSON.stringify(schema) ?? "");
  if (typeof schema === "string" || schemaText.length > PAGE_MAX_SCHEMA_CHARS)
    l.schemaTooLarge = typeof schema === "string" ? schema.length : schemaText.length;
  else if (schemaText) l.inputSchema = schema;
  const a = (t.annotations && typeof t.annotations === "object" ? t.annotations : {}) as Record<string, unknown>;
  for (const k of ["readOnlyHint", "untrustedContentHint", "consequentialHint", "debugging"])
    if (typeof a[k] === "boolean") l.annotations[k] = a[k];
  return l;
}

// utf8Size is the UTF-8 length of a value as JSON.
const encoder = new TextEncoder();
function utf8Size(v: unknown): number {
  return encoder.encode(JSON.stringify(v) ?? "").length;
}

function parseOrNull(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return null;
  }
}

// sendPages sends client id the pages it may see, when they differ from what it last got. Each
// page is bounded (bound); should the pages together still be over native messaging's 64 MiB,
// the largest are sent without their tools (counted in more) until the message fits, so that
// no page's size keeps the others' updates from the client.
function sendPages(
  id: number,
  c: Client,
  tabs: Map<number | undefined, chrome.tabs.Tab>,
  browser: BrowserIdentity,
): void {
  const list: ListedPage[] = [],
    sizes = new Map<ListedPage, number>();
  let total = 1024; // the message's own fields
  for (const [tabId, p] of pages) {
    const t = tabs.get(tabId);
    if (!t || t.incognito || webOrigin(t.url) !== p.origin || !allowed(c, p.origin)) continue;
    const page: ListedPage = {
      tab: tabId,
      window: t.windowId,
      url: t.url,
      origin: p.origin,
      title: (t.title ?? "").slice(0, PAGE_MAX_DESCRIPTION_CHARS),
      tools: p.listed.tools,
      more: p.listed.more,
      loading: t.status !== "complete",
    };
    list.push(page);
    sizes.set(page, p.listed.bytes);
    total += p.listed.bytes + 3 * ((t.url?.length ?? 0) + page.title.length) + 256; // UTF-8: at most 3 bytes a unit
  }
  for (const page of [...list].sort((x, y) => (sizes.get(y) ?? 0) - (sizes.get(x) ?? 0))) {
    if (total <= MAX_TO_HOST) break;
    total -= sizes.get(page) ?? 0;
    page.more += page.tools.length;
    page.tools = [];
  }
  const text = JSON.stringify(list);
  if (text === c.sent) return;
  if (post({ client: id, type: "pages", pages: list, browser })) c.sent = text;
}

// onCall runs one tool for a client, once the checks (and the person, for a consequential
// tool) say it may, and answers the client.
async function onCall(client: number, m: HostMessage): Promise<void> {
  const answer = (body: Record<string, unknown>): void => void post({ client, type: "result", id: m.id, ...body });
  const c = clients.get(client);
  const p = pages.get(Number(m.tab));
  if (!c || !p || p.relay.closed) return answer({ gone: "closed" });
  if (p.origin !== m.origin) return answer({ gone: "navigated" });
  if (!allowed(c, p.origin)) return answer({ gone: `you no longer allow ${p.origin} in the browser` });
  const tool = p.tools.find((t) => t.name === m.tool);
  if (!tool) return answer({ gone: "notool" });
  const key = `${client}:${String(m.id)}`;
  const abort = new AbortController();
  running.set(key, abort);
  try {
    if (c.confirm && needsConfirm(tool.annotations)) {
      const no = await confirmCall(client, m, p, c.confirmTimeoutMs, abort.signal);
      if (no) return answer(no);
    }
    let relayId = 0;
    abort.signal.addEventListener("abort", () => {
      if (relayId) void p.relay.request({ op: "abort", call: relayId });
    });
    const a = await p.relay.request(
      { op: "call", origin: p.origin, name: tool.name, args: m.args ?? {}, checked: m.checked },
      (rid) => {
        relayId = rid;
      },
    );
    answer(await resultOf(a, Number(m.tab)));
  } finally {
    running.delete(key);
  }
}

// confirmCall asks the person; it resolves with the answer for the client when they did not say
// yes, else null.
async function confirmCall(
  client: number,
  m: HostMessage,
  p: TabPage,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Record<string, unknown> | null> {
  post({ client, type: "progress", id: m.id, message: "waiting for you to confirm in the browser" });
  const tab = await chrome.tabs.get(p.relay.tabId).catch(() => undefined);
  const args = JSON.stringify(m.args ?? {});
  const d: Decision = await ask(
    {
      key: `webmcp-${client}-${String(m.id)}`,
      origin: p.origin,
      url: tab?.url ?? "",
      title: tab?.title ?? "",
      tool: String(m.tool),
      args: args.length > 2000 ? args.slice(0, 2000) + "…" : args,
    },
    timeoutMs,
    signal,
  );
  if (d === "yes") return null;
  // The person's decision, not page text: webmcp-mcp words it as its own notice.
  if (d === "no") return { decision: "declined" };
  if (d === "timeout") return { decision: "timeout" };
  return { decision: "cancelled" };
}

// resultOf turns the relay's answer into the client's.
async function resultOf(a: RelayAnswer, tabId: number): Promise<Record<string, unknown>> {
  if (a.lost) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    return { gone: tab ? "navigated" : "the tab was closed" };
  }
  if (a.refused === "toolchange" || a.refused === "unlisted") return { gone: "notool" };
  if (a.refused === "origin") return { gone: "navigated" };
  if (a.error !== undefined) return { error: a.error, errorName: a.errorName };
  if (typeof a.raw !== "string") return { output: null };
  const size = wireSize(a.raw);
  return size > MAX_TO_HOST - 4096 ? { tooLarge: size } : { output: a.raw }; // room for the rest of the message
}
