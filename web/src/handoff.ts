// The private hand-off between the extension's two content scripts of one page: the
// isolated-world helper (page-link.ts) and the MAIN-world bridge (extension.ts). Both sides are
// built from this file, so the protocol can change without extension authors noticing.
//
// The helper writes HANDOFF_ATTRIBUTE on the root element — {base, secret}: where the module's
// files are, and a fresh per-page secret — and the MAIN-world script reads and removes it before
// any page script runs. The helper then posts one window message {[RELAY_MARK]: true, secret}
// carrying a MessagePort, which the bridge takes and hides from page scripts. Requests on the
// port are HandOffRequests; the bridge answers with HandOffAnswers. Every message carries the
// secret; the helper strips it from what it hands on.

import type { CheckedArguments } from "./types.ts";

/** The root element's attribute that carries the hand-off. */
export const HANDOFF_ATTRIBUTE = "data-webmcp-bridge";
/** The window message's member that marks the port's message. */
export const RELAY_MARK = "webmcpBridgeRelay";

/** What the helper hands over in HANDOFF_ATTRIBUTE, as JSON. */
export interface HandOff {
  base: string;
  secret: string;
}

/** A request of the helper: list the tools, call one (its value prepared, not normalized), or
 * abort the call of id target. A call may say that its arguments were checked already
 * (checked: PageLink.callTool's option). */
export interface HandOffRequest {
  secret: string;
  id: number;
  op: "list" | "call" | "abort";
  name?: string;
  args?: Record<string, unknown>;
  checked?: CheckedArguments;
  target?: number;
}

/** An answer of the bridge (id), or an event: "toolchange", or "refused" (the MAIN-world script
 * ran before the helper and will not serve it: error says why). */
export interface HandOffAnswer {
  secret: string;
  id?: number;
  event?: "toolchange" | "refused";
  tools?: unknown;
  raw?: string;
  error?: string;
  errorName?: string;
}

/** What the MAIN-world script says when it finds no hand-off: the fix, for extension authors. */
export const NO_HANDOFF =
  "the extension's MAIN-world script (webmcp-bridge-extension.js) ran before its hand-off, so " +
  "this page has no bridge: in the manifest's content_scripts, list first the isolated-world " +
  "script that calls connectPage() (webmcp-bridge-wasm/content), then webmcp-bridge-extension.js " +
  'with "world": "MAIN", both "run_at": "document_start"';

/** What the helper says when no MAIN-world script took the hand-off. */
export const NO_BRIDGE =
  "no MAIN-world script took the hand-off of connectPage(): list webmcp-bridge-extension.js (under " +
  "that name) in the manifest's content_scripts after the script that calls connectPage(), with " +
  '"world": "MAIN" and "run_at": "document_start", for the same matches';
