// The side panel: lists the tools of the page in the tab it follows, calls a tool through that
// page's relay, and normalizes the raw output again with the panel's own copy of the module
// before rendering it — the page is never trusted.
//
// A tool list belongs to one document of one origin. The panel opens a port to the tab's relay
// for each list; the port reaches that document only and disconnects when it goes, so a call
// from a list can never run a tool of the page that replaced it. Every answer carries the page's
// origin (stamped by the relay); a call names the origin it was listed from (the relay refuses
// it for another origin, or when the tool is no longer the one listed), and an answer from any
// other origin is refused. The origin is shown with the list and with every result. The list is
// made again when the tab navigates, when the page's tools change, and (as a side panel) when
// another tab becomes active.
/// <reference types="chrome" />
import type { ToolOutput, WebMCPBridge as Bridge } from "../src/entry-module.ts";

/** The renderer (render.ts), loaded before this script. */
interface Render {
  render(output: Pick<ToolOutput, "result"> & Partial<ToolOutput>, container: Element): void;
  toolList(tools: ListedTool[], container: Element, onCall: (tool: ListedTool, args: Record<string, unknown> | null) => void): void;
  fitHTMLFrames(box: Element): void;
}
interface ListedTool { name: string; title?: string; description: string; inputSchema?: Record<string, unknown> }
/** An answer of the relay: what the page's bridge said, stamped with the page's origin and URL. */
interface Answer {
  origin?: string; url?: string; tools?: unknown; raw?: string; error?: string; errorName?: string;
  refused?: string; event?: string; id?: number; lost?: string; sent?: boolean;
}
/** The list on screen: the port to the document it came from, and the calls in flight. */
interface View {
  port: chrome.runtime.Port; tabId: number; origin: string; url: string;
  pending: Map<number, (a: Answer) => void>; nextId: number; closed: string; replaced: boolean;
}
declare const WebMCPBridge: Bridge;
declare const WebMCPBridgeRender: Render;

void (async () => {
  const $ = (id: string): HTMLElement => {
    const el = document.getElementById(id);
    if (!el) throw new Error("the panel has no #" + id);
    return el;
  };
  const params = new URLSearchParams(location.search);
  const body = document.body.dataset;

  let pinnedTab: number | null = null; // tests open the panel as a tab and name the page to inspect (tabUrl)
  let windowId: number | null = null; // otherwise the panel follows the active tab of its window
  let followed: number | null = null; // the id of the tab the panel shows the tools of
  let view: View | null = null; // the document the list on screen came from
  let loads = 0; // generation of load(): a load that is overtaken drops its answer
  let calls = 0; // the latest call: only its result is shown

  // label is how an origin is shown: an opaque origin (a sandboxed page) is "null", so its URL
  // is named instead.
  const label = (origin: string | undefined, url: string | undefined): string => (origin === "null" ? `an opaque origin (${url})` : String(origin));

  async function targetTab(): Promise<chrome.tabs.Tab | undefined> {
    if (params.has("tabUrl")) {
      if (pinnedTab === null) {
        const [t] = await chrome.tabs.query({ url: params.get("tabUrl") ?? "" });
        if (t && t.id !== undefined) pinnedTab = t.id; // from then on the same tab, wherever it navigates
        return t;
      }
      return chrome.tabs.get(pinnedTab).catch(() => undefined);
    }
    if (windowId === null) windowId = (await chrome.windows.getCurrent()).id ?? null;
    const [t] = await chrome.tabs.query({ active: true, windowId: windowId ?? undefined });
    return t;
  }

  // connect opens a port to the relay of the document the tab shows now. A view's port closes
  // for one of two reasons (v.closed): "left", the document went away (or there was no relay),
  // or "replaced", a newer list took its place (once its calls in flight have answered).
  function connect(tabId: number): View {
    const v: View = { port: chrome.tabs.connect(tabId, { name: "webmcp-bridge-panel", frameId: 0 }), tabId,
      origin: "", url: "", pending: new Map(), nextId: 1, closed: "", replaced: false };
    v.port.onMessage.addListener((raw: unknown) => {
      const m = raw as Answer | null;
      if (!m || typeof m !== "object") return;
      if (m.event === "toolchange") {
        if (view === v && m.origin === v.origin) scheduleLoad();
        return;
      }
      const resolve = m.id === undefined ? undefined : v.pending.get(m.id);
      if (!resolve || m.id === undefined) return;
      v.pending.delete(m.id);
      resolve(m);
      if (v.replaced && v.pending.size === 0) close(v, "replaced");
    });
    v.port.onDisconnect.addListener(() => {
      void chrome.runtime.lastError; // no relay in the tab (not an http(s) page, or still loading)
      if (v.closed) return;
      close(v, "left");
      if (view === v) gone(v);
    });
    return v;
  }

  function close(v: View, reason: string): void {
    if (v.closed) return;
    v.closed = reason;
    try { v.port.disconnect(); } catch { /* already gone */ }
    for (const resolve of v.pending.values()) resolve({ lost: reason, sent: true });
    v.pending.clear();
  }

  // request sends msg over v's port and resolves with the answer, or with {lost, sent} when the
  // port closed first (sent: whether the request had left).
  function request(v: View, msg: Record<string, unknown>): Promise<Answer> {
    return new Promise((resolve) => {
      if (v.closed) return resolve({ lost: v.closed, sent: false });
      const id = v.nextId++;
      v.pending.set(id, resolve);
      try { v.port.postMessage({ id, ...msg }); } catch { v.pending.delete(id); close(v, "left"); resolve({ lost: "left", sent: false }); }
    });
  }

  function showOrigin(text: string, state: string): void {
    $("origin").textContent = text;
    $("origin").className = state;
  }

  // drop forgets the list on screen; its port closes once its calls in flight have answered.
  function drop(): void {
    if (view) {
      const v = view;
      view = null;
      v.replaced = true;
      if (v.pending.size === 0) close(v, "replaced");
    }
    $("tools").replaceChildren();
    delete body.ready;
    delete body.origin;
  }

  // gone: the document the list came from has been left (or closed). Its tools are withdrawn at
  // once; the new page's are listed when it has loaded.
  function gone(v: View): void {
    drop();
    showOrigin(label(v.origin, v.url), "stale");
    $("status").textContent = "The tab has left this page; looking for the tools of the page it shows now…";
    chrome.tabs.get(v.tabId).then((t) => { if (t.status === "complete") scheduleLoad(); }, () => { $("status").textContent = "The tab was closed."; });
  }

  let timer = 0;
  function scheduleLoad(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void load(), 50);
  }

  // load lists the tools of the page the followed tab shows now. The list on screen stays until
  // the new one replaces it at once (unless the tab itself changed).
  async function load(): Promise<void> {
    const my = ++loads;
    const tab = await targetTab();
    if (my !== loads) return;
    if (!tab || (view && view.tabId !== tab.id)) { drop(); showOrigin("", ""); }
    if (!tab) { $("status").textContent = "No tab to inspect."; return; }
    if (tab.id === undefined) return;
    followed = tab.id;
    if (!view) $("status").textContent = "Looking for tools…";
    const v = connect(tab.id);
    const answer = await request(v, { op: "list" });
    if (my !== loads) { close(v, "replaced"); return; }
    drop();
    if (answer.lost || typeof answer.origin !== "string" || !Array.isArray(answer.tools)) {
      close(v, "replaced");
      showOrigin("", "");
      $("status").textContent = answer.error || "The bridge is not running in this tab (reload it?)";
      return;
    }
    Object.assign(v, { origin: answer.origin, url: String(answer.url || "") });
    view = v;
    const where = label(v.origin, v.url);
    showOrigin(where, "live");
    $("origin").title = v.url;
    $("status").textContent = answer.tools.length ? `${answer.tools.length} tool${answer.tools.length === 1 ? "" : "s"}` : "This page registers no tools.";
    WebMCPBridgeRender.toolList(answer.tools as ListedTool[], $("tools"), (tool, args) => void call(v, tool.name, args));
    body.origin = v.origin;
    body.ready = "true";
  }

  // call runs a tool of the list v came from, and shows its result with the origin it came from.
  // The title, the origin and the result are set together, and only for the latest call, so a
  // slow answer never lands under the labels of a later call.
  async function call(v: View, name: string, args: Record<string, unknown> | null): Promise<void> {
    const me = ++calls;
    const where = label(v.origin, v.url);
    $("output").hidden = false;
    $("output").dataset.origin = v.origin;
    $("result-title").textContent = `Calling ${name}…`;
    $("result-origin").textContent = `on ${where}`;
    $("result").replaceChildren();
    $("notices").replaceChildren();
    const fail = async (message: string, code?: string): Promise<Pick<ToolOutput, "result" | "violations">> =>
      ({ result: await WebMCPBridge.normalize({ type: "error", message, code }), violations: [] });
    let title = `Result of ${name}`, from = `from ${where}`, details: Pick<ToolOutput, "result" | "violations">;
    const answer = args === null ? null : await request(v, { op: "call", origin: v.origin, name, args });
    if (args === null || answer === null) {
      title = `${name} was not called`;
      details = await fail(`${name} was not called: the arguments do not fit the form.`);
    } else if (answer.lost) {
      title = answer.sent ? `${name}: no result` : `${name} was not called`;
      from = `listed from ${where}`;
      details = await fail(answer.lost === "replaced"
        ? `${name} was not called: this list of the tools of ${where} has been replaced by a newer one.`
        : answer.sent
          ? `${name}: no result — the tab left ${where}, the page this list came from, before the tool answered.`
          : `${name} was not called: the tab has left ${where}, the page this list came from.`);
    } else if (answer.origin !== v.origin) {
      // Never shown under this list's origin; never expected either (the port reaches one document).
      title = `${name}: answer refused`;
      from = `listed from ${where}`;
      details = await fail(`${name}: an answer came from ${label(answer.origin, answer.url)}, not from ${where}; it is not shown.`);
      scheduleLoad();
    } else if (answer.refused) {
      title = `${name} was not called`;
      details = await fail(answer.refused === "toolchange"
        ? `${name} was not called: ${where} has changed this tool since it was listed. The list is being made again.`
        : `${name} was not called: ${answer.error || "the page refused the call"}.`);
      if (answer.refused !== "request") scheduleLoad();
    } else if (answer.error) {
      details = await fail(answer.error, answer.errorName);
    } else {
      details = await WebMCPBridge.agent.parseToolOutput(answer.raw ?? "", name);
    }
    if (me !== calls) return; // a later call has taken the result box
    $("result-title").textContent = title;
    $("result-origin").textContent = from;
    WebMCPBridgeRender.render(details, $("result"));
    WebMCPBridgeRender.fitHTMLFrames($("result"));
    $("notices").replaceChildren(...details.violations.map((n) => Object.assign(document.createElement("li"), { textContent: n.notice })));
    body.lastTool = name;
  }

  // The tab navigated (a new document commits its URL, then completes) or another tab became
  // active in the panel's window.
  chrome.tabs.onUpdated.addListener((tabId, change) => {
    if (tabId === followed && (change.url !== undefined || change.status === "complete")) scheduleLoad();
  });
  chrome.tabs.onActivated.addListener((info) => {
    if (!params.has("tabUrl") && info.windowId === windowId) scheduleLoad();
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    if (tabId === followed) { drop(); showOrigin("", ""); $("status").textContent = "The tab was closed."; }
  });

  $("refresh").onclick = () => void load();
  let width = innerWidth;
  addEventListener("resize", () => { if (innerWidth !== width) { width = innerWidth; WebMCPBridgeRender.fitHTMLFrames($("result")); } });
  await WebMCPBridge.ready;
  await load();
})();
