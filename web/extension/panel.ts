// The side panel: lists the tools of the page in the tab it follows, calls a tool through that
// page's relay, and normalizes the raw output again with the panel's own copy of the module
// before rendering it — the page is never trusted. It is also where the person allows an
// origin's tools to reach MCP clients (webmcp-mcp -extension) and confirms their consequential
// calls.
//
// A tool list belongs to one document of one origin. The panel opens a port to the tab's relay
// for each list (tabrelay.ts); the port reaches that document only and disconnects when it goes,
// so a call from a list can never run a tool of the page that replaced it. Every answer carries
// the page's origin (stamped by the relay); a call names the origin it was listed from (the
// relay refuses it for another origin, or when the tool is no longer the one listed), and an
// answer from any other origin is refused. The origin is shown with the list and with every
// result. The list is made again when the tab navigates, when the page's tools change, and (as
// a side panel) when another tab becomes active.
//
// Opened as a page instead (panel.html?tabUrl=URL, e.g. in a tab of its own), the panel
// follows the tab that showed URL when it opened, wherever that tab navigates.
/// <reference types="chrome" />
import type { ToolOutput, WebMCPBridge as Bridge } from "../src/entry-module.ts";
import { allowedOrigins, onAllowedChange, setAllowed, webOrigin } from "./allowed.ts";
import type { Question } from "./confirm.ts";
import { CLICK_DELAY_MS, pageText, quotedTitle } from "./question.ts";
import { RelayPort, type RelayAnswer } from "./tabrelay.ts";

/** The renderer (render.ts), loaded before this script. */
interface Render {
  render(output: Pick<ToolOutput, "result"> & Partial<ToolOutput>, container: Element): void;
  toolList(
    tools: ListedTool[],
    container: Element,
    onCall: (tool: ListedTool, args: Record<string, unknown> | null) => void,
  ): void;
  fitHTMLFrames(box: Element): void;
}
interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
}
/** The list on screen: the port to the document it came from. */
interface View {
  relay: RelayPort;
  origin: string;
  url: string;
  replaced: boolean;
}
type Details = Pick<ToolOutput, "result" | "violations">;
declare const WebMCPBridge: Bridge;
declare const WebMCPBridgeRender: Render;

const params = new URLSearchParams(location.search);
const body = document.body.dataset;
const state = {
  pinnedTab: null as number | null, // opened as a page: the tab it inspects (tabUrl)
  windowId: null as number | null, // otherwise the panel follows the active tab of its window
  followed: null as number | null, // the id of the tab the panel shows the tools of
  view: null as View | null, // the document the list on screen came from
  loads: 0, // generation of load(): a load that is overtaken drops its answer
  calls: 0, // the latest call: only its result is shown
  timer: 0,
};

function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error("the panel has no #" + id);
  return el;
}

// label is how an origin is shown: an opaque origin (a sandboxed page) is "null", so its URL
// is named instead.
function label(origin: string | undefined, url: string | undefined): string {
  return origin === "null" ? `an opaque origin (${url})` : String(origin);
}

async function targetTab(): Promise<chrome.tabs.Tab | undefined> {
  if (params.has("tabUrl")) {
    if (state.pinnedTab === null) {
      // The URL compared as it is: as a tabs.query pattern, Firefox matches no URL with a port.
      const url = params.get("tabUrl");
      const t = (await chrome.tabs.query({})).find((tab) => tab.url === url);
      if (t && t.id !== undefined) state.pinnedTab = t.id; // from then on the same tab, wherever it navigates
      return t;
    }
    return chrome.tabs.get(state.pinnedTab).catch(() => undefined);
  }
  if (state.windowId === null) state.windowId = (await chrome.windows.getCurrent()).id ?? null;
  const [t] = await chrome.tabs.query({ active: true, windowId: state.windowId ?? undefined });
  return t;
}

// connect opens a port to the relay of the document the tab shows now. A view's port closes
// for one of two reasons: "left", the document went away (or there was no relay), or
// "replaced", a newer list took its place (once its calls in flight have answered).
function connect(tabId: number): View {
  const v: View = { relay: undefined as unknown as RelayPort, origin: "", url: "", replaced: false };
  v.relay = new RelayPort(
    tabId,
    "webmcp-bridge-panel",
    (m) => {
      if (m.event === "toolchange" && state.view === v && m.origin === v.origin) scheduleLoad();
    },
    () => {
      if (state.view === v) gone(v);
    },
  );
  return v;
}

// request asks v's relay, and closes v's port after the last answer once v was replaced.
async function request(v: View, msg: Record<string, unknown>, onSent?: (id: number) => void): Promise<RelayAnswer> {
  const a = await v.relay.request(msg, onSent);
  if (v.replaced && v.relay.pending.size === 0) v.relay.close("replaced");
  return a;
}

function showOrigin(text: string, cls: string): void {
  $("origin").textContent = text;
  $("origin").className = cls;
}

// drop forgets the list on screen; its port closes once its calls in flight have answered.
function drop(): void {
  const v = state.view;
  if (v) {
    state.view = null;
    v.replaced = true;
    if (v.relay.pending.size === 0) v.relay.close("replaced");
  }
  $("tools").replaceChildren();
  $("allow-box").hidden = true;
  delete body.ready;
  delete body.origin;
}

// gone: the document the list came from has been left (or closed). Its tools are withdrawn at
// once; the new page's are listed when it has loaded.
function gone(v: View): void {
  drop();
  showOrigin(label(v.origin, v.url), "stale");
  $("status").textContent = "The tab has left this page; looking for the tools of the page it shows now…";
  chrome.tabs.get(v.relay.tabId).then(
    (t) => {
      if (t.status === "complete") scheduleLoad();
    },
    () => {
      $("status").textContent = "The tab was closed.";
    },
  );
}

function scheduleLoad(): void {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => void load(), 50);
}

// load lists the tools of the page the followed tab shows now. The list on screen stays until
// the new one replaces it at once (unless the tab itself changed).
async function load(): Promise<void> {
  const my = ++state.loads;
  const tab = await targetTab();
  if (my !== state.loads) return;
  if (!tab || (state.view && state.view.relay.tabId !== tab.id)) {
    drop();
    showOrigin("", "");
  }
  if (!tab) {
    $("status").textContent = "No tab to inspect.";
    return;
  }
  if (tab.id === undefined) return;
  state.followed = tab.id;
  if (!state.view) $("status").textContent = "Looking for tools…";
  const v = connect(tab.id);
  const answer = await request(v, { op: "list" });
  if (my !== state.loads) {
    v.relay.close("replaced");
    return;
  }
  drop();
  if (answer.lost || typeof answer.origin !== "string" || !Array.isArray(answer.tools)) {
    v.relay.close("replaced");
    showOrigin("", "");
    $("status").textContent = answer.error || "The bridge is not running in this tab (reload it?)";
    return;
  }
  Object.assign(v, { origin: answer.origin, url: String(answer.url || "") });
  state.view = v;
  showList(v, answer.tools as ListedTool[], tab.incognito);
}

function showList(v: View, tools: ListedTool[], incognito: boolean): void {
  showOrigin(label(v.origin, v.url), "live");
  $("origin").title = v.url;
  $("status").textContent = tools.length
    ? `${tools.length} tool${tools.length === 1 ? "" : "s"}`
    : "This page registers no tools.";
  WebMCPBridgeRender.toolList(tools, $("tools"), (tool, args) => void call(v, tool.name, args));
  void showAllowSwitch(v.origin, incognito);
  body.origin = v.origin;
  body.ready = "true";
}

// showAllowSwitch shows whether the list's origin is allowed to reach MCP clients. A tab in an
// incognito window, or a page that is not http(s), never is.
async function showAllowSwitch(origin: string, incognito: boolean): Promise<void> {
  const box = $("allow") as HTMLInputElement;
  const exposable = !incognito && webOrigin(origin + "/") === origin;
  box.checked = exposable && (await allowedOrigins()).has(origin);
  box.disabled = !exposable;
  $("allow-note").textContent = incognito
    ? "(never in an incognito window)"
    : exposable
      ? ""
      : "(only http and https pages)";
  $("allow-box").hidden = false;
  box.onchange = () => void setAllowed(origin, box.checked);
}

// call runs a tool of the list v came from, and shows its result with the origin it came from.
// The title, the origin and the result are set together, and only for the latest call, so a
// slow answer never lands under the labels of a later call. While it runs, the time it has
// taken shows with a Cancel button, which aborts the page's execute (its AbortSignal).
async function call(v: View, name: string, args: Record<string, unknown> | null): Promise<void> {
  const me = ++state.calls;
  const where = label(v.origin, v.url);
  $("output").hidden = false;
  $("output").dataset.origin = v.origin;
  $("result-title").textContent = `Calling ${name}…`;
  $("result-origin").textContent = `on ${where}`;
  $("result").replaceChildren();
  $("notices").replaceChildren();
  let relayId = 0;
  const stopClock = runningClock(me, () => {
    if (relayId) void v.relay.request({ op: "abort", call: relayId });
  });
  const answer =
    args === null
      ? null
      : await request(v, { op: "call", origin: v.origin, name, args }, (id) => {
          relayId = id;
        });
  stopClock();
  const shown = await outcome(v, name, args, answer);
  if (me !== state.calls) return; // a later call has taken the result box
  $("result-title").textContent = shown.title;
  $("result-origin").textContent = shown.from;
  WebMCPBridgeRender.render(shown.details, $("result"));
  WebMCPBridgeRender.fitHTMLFrames($("result"));
  $("notices").replaceChildren(
    ...notices(shown.details).map((n) => Object.assign(document.createElement("li"), { textContent: n })),
  );
  body.lastTool = name;
}

// runningClock shows the running call's elapsed time and its Cancel button until stopped.
function runningClock(me: number, cancel: () => void): () => void {
  const start = performance.now();
  const tick = (): void => {
    if (me === state.calls) $("elapsed").textContent = `${((performance.now() - start) / 1000).toFixed(1)} s`;
  };
  tick();
  const every = setInterval(tick, 100);
  $("cancel").hidden = false;
  $("cancel").onclick = () => {
    cancel();
    $("cancel").hidden = true;
    body.cancelled = "true";
  };
  return () => {
    clearInterval(every);
    if (me === state.calls) {
      $("cancel").hidden = true;
      $("elapsed").textContent = "";
    }
  };
}

// The _meta keys of a notice block and of what a normalization moved aside (bridge.NoticeMetaKey
// and bridge.ExtraMetaKey; a Go test checks that these are theirs).
const NOTICE_KEY = "webmcp-bridge/notice";
const EXTRA_KEY = "webmcp-bridge/extra";

// notices are what was removed or changed: by the panel's own normalization, then what the
// page's copy of the bridge reported (its notice blocks, whose mark the panel's normalization
// moved aside: page-side claims, so they are named as the page's), each once.
function notices(d: Details): string[] {
  const out = new Set(d.violations.map((n) => n.notice));
  for (const b of d.result.content as { type?: string; text?: string; _meta?: Record<string, unknown> }[]) {
    const extra = b._meta?.[EXTRA_KEY] as Record<string, unknown> | undefined;
    if (b.type === "text" && typeof b.text === "string" && extra?.[NOTICE_KEY] !== undefined)
      out.add("the page's bridge: " + b.text);
  }
  return [...out];
}

// outcome says what a call's answer is, under which title and origin.
async function outcome(
  v: View,
  name: string,
  args: unknown,
  answer: RelayAnswer | null,
): Promise<{ title: string; from: string; details: Details }> {
  const where = label(v.origin, v.url);
  const fail = async (message: string, code?: string): Promise<Details> => ({
    result: await WebMCPBridge.normalize({ type: "error", message, code }),
    violations: [],
  });
  const title = `Result of ${name}`,
    from = `from ${where}`,
    notCalled = `${name} was not called`;
  if (args === null || answer === null) {
    return {
      title: notCalled,
      from,
      details: await fail(`${name} was not called: the arguments do not fit the form.`),
    };
  }
  if (answer.lost) {
    return {
      title: answer.sent ? `${name}: no result` : notCalled,
      from: `listed from ${where}`,
      details: await fail(
        answer.lost === "replaced"
          ? `${name} was not called: this list of the tools of ${where} has been replaced by a newer one.`
          : answer.sent
            ? `${name}: no result — the tab left ${where}, the page this list came from, before the tool answered.`
            : `${name} was not called: the tab has left ${where}, the page this list came from.`,
      ),
    };
  }
  if (answer.origin !== v.origin) {
    // Never shown under this list's origin; never expected either (the port reaches one document).
    scheduleLoad();
    return {
      title: `${name}: answer refused`,
      from: `listed from ${where}`,
      details: await fail(
        `${name}: an answer came from ${label(answer.origin, answer.url)}, not from ${where}; it is not shown.`,
      ),
    };
  }
  if (answer.refused) {
    if (answer.refused !== "request") scheduleLoad();
    return {
      title: notCalled,
      from,
      details: await fail(
        answer.refused === "toolchange"
          ? `${name} was not called: ${where} has changed this tool since it was listed. The list is being made again.`
          : `${name} was not called: ${answer.error || "the page refused the call"}.`,
      ),
    };
  }
  if (answer.error) return { title, from, details: await fail(answer.error, answer.errorName) };
  return { title, from, details: await WebMCPBridge.agent.parseToolOutput(answer.raw ?? "", name) };
}

// showQuestion shows a consequential call an MCP client asks to run, with Run it and Decline:
// the origin first and apart, the tool, the page's title quoted and short, the arguments (their
// box scrolls), so that nothing the page chose moves Run it far down or reads as the origin.
function showQuestion(q: Question): void {
  if (document.querySelector(`.confirm[data-key="${CSS.escape(q.key)}"]`)) return;
  const el = (tag: string, text: string, className = ""): HTMLElement =>
    Object.assign(document.createElement(tag), { textContent: text, className });
  const box = el("div", "", "confirm");
  box.dataset.key = q.key;
  box.dataset.tool = q.tool;
  const yes = el("button", "Run it", "confirm-yes"),
    no = el("button", "Decline", "confirm-no");
  const answer = (ok: boolean): void => {
    if (performance.now() - questionsChanged < CLICK_DELAY_MS) return; // it moved under the pointer
    box.remove();
    questionsMoved();
    void chrome.runtime.sendMessage({ type: "confirm-answer", key: q.key, yes: ok });
  };
  yes.onclick = () => answer(true);
  no.onclick = () => answer(false);
  const origin = el("div", q.origin, "confirm-origin");
  origin.dir = "ltr";
  const title = quotedTitle(q.title);
  box.append(
    origin,
    el("b", `An MCP client asks to run ${pageText(q.tool, 128)}`),
    el("div", title ? `on the page titled ${title}` : "", "confirm-title"),
    el("pre", q.args),
    yes,
    no,
  );
  $("confirms").append(box);
  questionsMoved();
}

// questionsChanged is when the questions last appeared, went or moved: until CLICK_DELAY_MS
// after it, their buttons are disabled and a click on them is not taken.
let questionsChanged = 0;
let enableTimer = 0;
function questionsMoved(): void {
  questionsChanged = performance.now();
  const buttons = document.querySelectorAll<HTMLButtonElement>(".confirm button");
  for (const b of buttons) b.disabled = true;
  clearTimeout(enableTimer);
  enableTimer = setTimeout(() => {
    for (const b of document.querySelectorAll<HTMLButtonElement>(".confirm button")) b.disabled = false;
  }, CLICK_DELAY_MS);
}

// listen follows the tab (it navigates, or another tab becomes active in the panel's window),
// the allowed origins, and the questions of MCP clients.
function listen(): void {
  chrome.tabs.onUpdated.addListener((tabId, change) => {
    if (tabId === state.followed && (change.url !== undefined || change.status === "complete")) scheduleLoad();
  });
  chrome.tabs.onActivated.addListener((info) => {
    if (!params.has("tabUrl") && info.windowId === state.windowId) scheduleLoad();
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    if (tabId === state.followed) {
      drop();
      showOrigin("", "");
      $("status").textContent = "The tab was closed.";
    }
  });
  onAllowedChange(() => {
    if (state.view)
      void chrome.tabs
        .get(state.view.relay.tabId)
        .then((t) => state.view && showAllowSwitch(state.view.origin, t.incognito));
  });
  chrome.runtime.onMessage.addListener((raw: unknown, sender) => {
    if (sender.id !== chrome.runtime.id || sender.tab || sender.url !== backgroundURL) return;
    const m = (raw || {}) as { type?: string; question?: Question; key?: string };
    if (m.type === "confirm-request" && m.question) showQuestion(m.question);
    const done =
      m.type === "confirm-done" && m.key && document.querySelector(`.confirm[data-key="${CSS.escape(m.key)}"]`);
    if (done) {
      done.remove();
      questionsMoved();
    }
  });
  $("refresh").onclick = () => void load();
  let width = innerWidth;
  addEventListener("resize", () => {
    if (innerWidth !== width) {
      width = innerWidth;
      WebMCPBridgeRender.fitHTMLFrames($("result"));
    }
  });
}

// The URL the background's messages carry: its service worker's script in Chromium; in Firefox
// the page it makes for background.scripts, whose URL only the page itself can tell.
let backgroundURL = chrome.runtime.getURL("background.js");
async function findBackground(): Promise<void> {
  // Chromium has no background page (a service worker): the promise rejects, or there is no function.
  const page = await chrome.runtime.getBackgroundPage?.().catch(() => undefined);
  if (page) backgroundURL = page.location.href;
}

async function main(): Promise<void> {
  await findBackground();
  listen();
  const questions = (await chrome.runtime.sendMessage({ type: "confirm-waiting" }).catch(() => [])) as Question[];
  for (const q of questions || []) showQuestion(q);
  await WebMCPBridge.ready;
  await load();
}

void main();
