// Confirmations: a consequential tool (consequentialHint, not readOnlyHint) that an MCP client
// calls runs only once the person said yes in the browser — in the side panel when it is open,
// or in a notification. The question shows the page (from chrome.tabs), the tool and the
// arguments; no answer within the client's confirm timeout is a no.
/// <reference types="chrome" />

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
export function ask(q: Question, timeoutMs: number, signal: AbortSignal): Promise<Decision> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    const finish = (d: Decision): void => {
      if (!open.delete(q.key)) return;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      chrome.notifications.clear(q.key).catch(() => undefined);
      chrome.runtime.sendMessage({ type: "confirm-done", key: q.key }).catch(() => undefined);
      resolve(d);
    };
    const onAbort = (): void => finish("cancelled");
    open.set(q.key, { q, decide: finish });
    signal.addEventListener("abort", onAbort);
    chrome.runtime.sendMessage({ type: "confirm-request", question: q }).catch(() => undefined); // an open panel
    chrome.notifications
      .create(q.key, {
        type: "basic",
        iconUrl: ICON,
        requireInteraction: true,
        title: `Run ${q.tool} on ${q.origin}?`,
        message: `An MCP client asks to run "${q.tool}" on ${q.title || q.url} with ${q.args}`,
        buttons: [{ title: "Run it" }, { title: "Decline" }],
      })
      .catch(() => undefined); // no notifications (headless): the panel still asks
  });
}

/** Questions still waiting, for a panel that opens now. */
export function waiting(): Question[] {
  return [...open.values()].map((o) => o.q);
}

/** The person's answer to question key, from the panel or a notification. */
export function decide(key: string, yes: boolean): void {
  open.get(key)?.decide(yes ? "yes" : "no");
}

chrome.notifications?.onButtonClicked.addListener((id, button) => decide(id, button === 0));
