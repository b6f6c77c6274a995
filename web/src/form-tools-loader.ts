// The declarative API's part the loader keeps: SubmitEvent's agentInvoked and respondWith (from
// load, as native WebMCP has them), the calls under way that they read, native WebMCP's forms'
// results normalized, and a watcher that fetches the forms code (form-tools.ts; in the script
// build a chunk, webmcp-bridge-forms.js) when the document first has a <form toolname>: a page
// without one never fetches it.
import { runGuarded } from "./flow.ts";
import { call, then } from "./builtins.ts";
import { loadChunk } from "./chunk.ts";
import { MESSAGE_PREFIX } from "./generated/boundary.ts";
import type { FormEntry, Registry } from "./registry.ts";

/** A form's call under way. */
export interface Call {
  auto: boolean;
  event?: SubmitEvent;
  open?: boolean;
  navigated?: boolean;
  response?: Promise<unknown>;
  done(v: unknown): void;
  fail(why: string | Error, gone?: boolean): void;
}

/** What the forms code shares with the loader: form → the call waiting for its submission or its
 * response, and the submit events of agents' calls (agentInvoked). */
export interface FormCalls {
  running: Map<EventTarget | null, Call>;
  agentSubmits: WeakSet<Event>;
}
const running: FormCalls["running"] = new Map();
const agentSubmits: FormCalls["agentSubmits"] = new WeakSet();

/** What the forms chunk gives (chunk-form-tools.ts). */
type FormsCode = Pick<typeof import("./form-tools.ts"), "watchForms" | "runForm">;
let forms: FormsCode | null = null;

/** watchForms keeps the declarative tools of this document in tools once it has a form with a
 * toolname: until then it only watches for one; then the forms code is fetched and watches. */
export function watchForms(tools: Registry, changed: () => void): void {
  patchSubmitEvent();
  const has = (): boolean => document.querySelector("form[toolname]") !== null;
  const observer = new MutationObserver(() => {
    if (has()) load();
  });
  const load = (): void => {
    observer.disconnect();
    void call(
      then,
      loadChunk<FormsCode>("./form-tools.ts", null, __WEBMCP_CHUNKED__ ? null : () => import("./form-tools.ts")),
      (code: FormsCode) => {
        forms = code;
        code.watchForms(tools, changed, { running, agentSubmits });
      },
      (e: unknown) => console.warn(`${MESSAGE_PREFIX}the forms code did not load (${String(e)}); forms are no tools`),
    );
  };
  if (has()) return load();
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["toolname"] });
}

/** runForm is the execute steps of a declarative tool (form-tools.ts's runForm): a form is a
 * tool only once the forms code runs. */
export function runForm(entry: FormEntry, ...rest: DropFirst<Parameters<FormsCode["runForm"]>>): Promise<unknown> {
  if (!forms) return Promise.reject(new Error("The forms code is not loaded"));
  return forms.runForm(entry, ...rest);
}
type DropFirst<T extends unknown[]> = T extends [unknown, ...infer R] ? R : never;

/** patchSubmitEvent gives SubmitEvent, where the browser has no WebMCP of its own, agentInvoked
 * and respondWith(), and notes a running call's form.submit() (the form then navigates). */
function patchSubmitEvent(): void {
  const SubmitProto = (globalThis.SubmitEvent && SubmitEvent.prototype) as SubmitEvent | undefined;
  if (SubmitProto && !("respondWith" in (SubmitProto as object))) {
    Object.defineProperty(SubmitProto, "agentInvoked", {
      configurable: true,
      get(this: SubmitEvent) {
        return agentSubmits.has(this);
      },
    });
    SubmitProto.respondWith = function respondWith(this: SubmitEvent, response: unknown) {
      const call = running.get(this.target);
      if (!call || call.event !== this || !call.open || !this.defaultPrevented)
        throw new DOMException(
          "respondWith: only during an agent's submit event, after preventDefault()",
          "InvalidStateError",
        );
      call.response = Promise.resolve(response);
    };
    // A submit handler may call form.submit() in place of respondWith: the form navigates.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call
    const submit = HTMLFormElement.prototype.submit;
    HTMLFormElement.prototype.submit = function (this: HTMLFormElement) {
      const call = running.get(this);
      if (call && call.open) call.navigated = true;
      return submit.call(this);
    };
  }
}

// normalizeDeclarative makes native WebMCP's declarative results MCP CallToolResults: an agent's
// respondWith(promise) hands the browser the normalized JSON text of the promise's value (or an
// isError result where it rejects), as the bridge's wrapper of registerTool does for script tools.
export function normalizeDeclarative(): void {
  const proto = globalThis.SubmitEvent && SubmitEvent.prototype,
    respond = proto && proto.respondWith; // eslint-disable-line @typescript-eslint/unbound-method -- called with .call
  if (typeof respond !== "function") return;
  proto.respondWith = function respondWith(this: SubmitEvent, response: unknown) {
    if (!(this.agentInvoked && this.defaultPrevented)) return respond.call(this, response);
    const name = (this.target as Element | null)?.getAttribute("toolname") ?? "";
    return respond.call(
      this,
      runGuarded(name, null, "{}", true, () => response).then((out) => {
        if ("error" in out) throw out.error;
        return out.text;
      }),
    );
  };
}
