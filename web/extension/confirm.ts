// Confirmations: a consequential tool (consequentialHint, not readOnlyHint) that an MCP client
// calls runs only once the person said yes in the browser — in the side panel when it is open,
// or in a notification. The question shows the origin (from chrome.tabs) first and apart, then
// the tool, the page's title quoted and short (question.ts) and the arguments; no answer within
// the client's confirm timeout is a no.
/// <reference types="chrome" />
import { CLICK_DELAY_MS, pageText, quotedTitle } from "./question.ts";

/** What the person is asked about. */
export interface Question {
  key: string;
  origin: string;
  url: string;
  title: string;
  tool: string;
  args: string;
}

/** How a question ended. */
export type Decision = "yes" | "no" | "timeout" | "cancelled";

const open = new Map<string, { q: Question; decide: (d: Decision) => void }>();

// A notification needs an icon: a 1×1 PNG.
const ICON =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAC" +
  "hwGA60e6kgAAAABJRU5ErkJggg==";

/** Whether a tool's annotations ask for the person's confirmation. */
export function needsConfirm(annotations: unknown): boolean {
  const a = (annotations && typeof annotations === "object" ? annotations : {}) as Record<string, unknown>;
  return a.consequentialHint === true && a.readOnlyHint !== true;
}

// ask puts q to the person and resolves with their decision; signal withdraws the question.
// Nothing it calls can keep it from resolving: a browser API that throws is a question not
// shown there, never a call left hanging.
export function ask(q: Question, timeoutMs: number, signal: AbortSignal): Promise<Decision> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    const finish = (d: Decision): void => {
      if (!open.delete(q.key)) return;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(d);
      notificationsChanged = Date.now();
      attempt(() => chrome.notifications.clear(q.key));
      attempt(() => chrome.runtime.sendMessage({ type: "confirm-done", key: q.key }));
    };
    const onAbort = (): void => finish("cancelled");
    open.set(q.key, { q, decide: finish });
    signal.addEventListener("abort", onAbort);
    attempt(() => chrome.runtime.sendMessage({ type: "confirm-request", question: q })); // an open panel
    notify(q);
  });
}

// attempt runs an extension API call whose failure only means that no one heard it (no panel
// open, no notifications): a throw, or a rejected promise, is dropped.
function attempt(f: () => Promise<unknown> | undefined): void {
  void Promise.resolve()
    .then(f)
    .catch(() => undefined);
}

// notify shows q as a notification with Run it and Decline. Firefox refuses buttons (a
// TypeError at once): there the notification says where to answer, and a click on it opens the
// sidebar. Headless Chromium may show none: the panel still asks.
function notify(q: Question): void {
  notificationsChanged = Date.now();
  const title = quotedTitle(q.title);
  const base = {
    type: "basic" as const,
    iconUrl: ICON,
    title: q.origin, // first and apart: the origin, from the browser
    message: `An MCP client asks to run ${pageText(q.tool, 128)} with ${pageText(q.args, 200)}`,
    contextMessage: title ? `on the page titled ${title}` : "",
  };
  void Promise.resolve()
    .then(() =>
      chrome.notifications.create(q.key, {
        ...base,
        requireInteraction: true,
        buttons: [{ title: "Run it" }, { title: "Decline" }],
      }),
    )
    .catch(() =>
      chrome.notifications.create(q.key, { ...base, message: base.message + ". Answer in the webmcp-bridge sidebar." }),
    )
    .catch(() => undefined);
}

/** Questions still waiting, for a panel that opens now. */
export function waiting(): Question[] {
  return [...open.values()].map((o) => o.q);
}

/** The person's answer to question key, from the panel or a notification. */
export function decide(key: string, yes: boolean): void {
  open.get(key)?.decide(yes ? "yes" : "no");
}

/** What a click on a notification's button does: the first (Run it) says yes, the other no. */
export function notificationButton(id: string, button: number): void {
  if (Date.now() - notificationsChanged < CLICK_DELAY_MS) return; // one may have moved under the pointer
  decide(id, button === 0);
}

// notificationsChanged is when a question's notification last appeared or went: a button click
// within CLICK_DELAY_MS after it is not taken (the notification stays, to be clicked again).
let notificationsChanged = 0;

chrome.notifications?.onButtonClicked.addListener(notificationButton);
// A click on the notification itself (Firefox's has no buttons) opens the sidebar to answer in.
chrome.notifications?.onClicked.addListener(() => {
  const sidebar = (globalThis as { browser?: { sidebarAction?: { open(): Promise<void> } } }).browser?.sidebarAction;
  attempt(() => sidebar?.open());
});
