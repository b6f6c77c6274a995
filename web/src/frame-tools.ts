// Tools across the frames of one page, for the fallback (a chunk of the script build,
// webmcp-bridge-frames.js, fetched by frame-tools-loader.ts when the page has frames). Every frame
// of the page (the same top) that loads the bridge says hello to the others over postMessage; each
// answers with the tools the other may see — all of them to its own origin, and to another origin
// those whose exposedTo names it — sends the list again when it changes, runs the calls it receives
// (with the same checks as its own calls) and says bye when its document goes. Every message is
// checked: it must come from a window of this page, and only data meant for an origin is sent, with
// that origin as the target. Across origins only a frame and its parent talk, and a parent talks to
// a cross-origin child only where the child's <iframe allow> grants the tools feature.
import { TOOL_NAME } from "./generated/boundary.ts";
import { FRAMES_KEY as KEY, hints, type Entry, type Registry, type ToolInfo } from "./registry.ts";
import type { RegisteredTool } from "./types.ts";
import type * as builtins from "./builtins.ts";

/** The captures of builtins.ts taken when the loader ran, which the loader hands this code (a
 * chunk of the script build, fetched later): it uses them, never the page's globals of then. */
type FramesCaptures = Pick<typeof builtins, "apply" | "hasOwn" | "isArray" | "parse" | "read" | "stringify"> & {
  addEventListener: (typeof builtins.events)["addEventListener"];
};
let b: FramesCaptures;
const lost = (message: string): DOMException => new DOMException("executeTool: " + message, "UnknownError");

/** The exchange, as the fallback's ModelContext uses it. */
export interface Frames {
  origin: string;
  list(fromOrigins: string[]): RegisteredTool[];
  call(tool: RegisteredTool, inputJSON: string, signal?: AbortSignal): Promise<string | null>;
  push(): void;
}
interface Peer {
  origin: string;
  tools: ToolInfo[];
}
interface PendingCall {
  win: Window;
  resolve(v: string | null): void;
  reject(e: unknown): void;
}
type Message = Record<string, unknown>;

/** What the exchange serves: the fallback's registry tools; changed(false) says the other frames'
 * tools changed, describe makes a RegisteredTool, run runs a local tool. */
export interface FramesOf {
  tools: Registry;
  changed: (local?: boolean) => void;
  describe: (e: ToolInfo, win: Window, origin: string) => RegisteredTool;
  run: (e: Entry, inputJSON: string, signal?: AbortSignal) => Promise<string | null>;
}

/** What the loader took at load (frame-tools-loader.ts): this document's origin and parent as
 * they were then (a page can replace self, parent and origin; window and top it cannot), the
 * captures, and the messages of other frames that came before this code. */
interface FramesAtLoad {
  me: string;
  up: Window;
  captures: FramesCaptures;
  queued: MessageEvent[];
}

/** connectFrames starts the exchange, answering the messages queued first. */
export function connectFrames(
  { tools, changed, describe, run }: FramesOf,
  { me, up, captures, queued }: FramesAtLoad,
): Frames {
  b = captures;
  const peers = new Map<Window, Peer>(); // the frames that told this one their tools
  const calls = new Map<number, PendingCall>(); // this document's calls in other frames
  const hosted = new Map<Window, Map<number, AbortController>>(); // other frames' calls running here
  let ids = 0;
  const post = (w: Window, origin: string, type: string, fields?: Message): void => {
    try {
      w.postMessage({ [KEY]: type, ...fields }, origin);
    } catch {
      /* gone, or an opaque origin */
    }
  };
  const exposed = (e: Entry, origin: string): boolean => origin === me || (!e.form && e.exposedTo.includes(origin));
  const visible = (origin: string): ToolInfo[] =>
    [...tools.values()]
      .filter((e) => exposed(e, origin))
      .map(({ annotations, description, name, text, title }) => ({ annotations, description, name, text, title }));

  function drop(w: Window): void {
    const p = peers.get(w);
    peers.delete(w);
    for (const [id, c] of calls)
      if (c.win === w) {
        calls.delete(id);
        c.reject(lost("its frame went away"));
      }
    hosted.get(w)?.forEach((ac) => ac.abort()); // its calls here are cancelled
    hosted.delete(w);
    if (p && p.tools.length) changed(false);
  }
  // watch looks, while calls run between frames, for a frame removed without a bye (a detached
  // iframe's document may not get to send one): its calls end as if it had said bye.
  let watching = 0;
  const watch = (): void => {
    watching =
      watching ||
      setInterval(() => {
        const wins = new Set([...calls.values()].map((c) => c.win).concat([...hosted.keys()]));
        for (const w of wins) if (w.closed) drop(w);
        if (!wins.size) {
          clearInterval(watching);
          watching = 0;
        }
      }, 200);
  };
  // host runs another frame's call of a tool exposed to it, and answers with the result.
  function host(w: Window, origin: string, { id, name, input }: Message): void {
    const e = tools.get(String(name));
    const reply = (value: string | null, x?: DOMException): void =>
      post(w, origin, "result", x ? { id, error: x.name, message: String(x.message) } : { id, value });
    let ok = false;
    try {
      ok = typeof input === "string" && /^[{[]/.test(input) && !!b.parse(input);
    } catch {
      /* not JSON */
    }
    if (!e || !exposed(e, origin) || !ok || typeof id !== "number") return reply(null, lost("no tool " + String(name)));
    const ac = new AbortController(),
      mine = hosted.get(w) ?? new Map<number, AbortController>();
    hosted.set(w, mine);
    mine.set(id, ac);
    watch();
    run(e, input as string, ac.signal)
      .then(
        (v) => reply(v),
        (x: unknown) => reply(null, x instanceof DOMException ? x : lost(String(x instanceof Error ? x.message : x))),
      )
      .then(
        () => mine.delete(id) && !mine.size && hosted.delete(w),
        () => {},
      );
  }

  const link: Link = { me, up, peers, calls, hosted, post, visible, changed, host, drop, watch, next: () => ++ids };
  const state = framesApi(link, describe);
  // The message's members are read through the getters captured at load (builtins.ts): a page
  // that patches MessageEvent later must not see what passes.
  b.apply(b.addEventListener, window, ["message", (e: MessageEvent) => onMessage(link, e)]);
  for (let i = 0; i < queued.length; i++) onMessage(link, queued[i]);
  // hello goes to every frame of the page (at most 99 children each: a page may replace
  // window.length); it carries nothing but the question.
  const hello = (w: Window): void => {
    if (w !== window) post(w, "*", "hello");
    try {
      for (let i = 0; i < w.length && i < 99; i++) hello(w[i]);
    } catch {
      /* not a window */
    }
  };
  b.apply(b.addEventListener, window, [
    "pagehide",
    () => {
      for (const [w, p] of peers) post(w, p.origin, "bye");
    },
  ]);
  if (top) hello(top);
  return state;
}

/** Link is what connectFrames's parts share: this document's origin and parent, the frames that
 * told it their tools, the calls between them, and how to post, host, drop and watch. */
interface Link {
  me: string;
  up: Window;
  peers: Map<Window, Peer>;
  calls: Map<number, PendingCall>;
  hosted: Map<Window, Map<number, AbortController>>;
  post: (w: Window, origin: string, type: string, fields?: Message) => void;
  visible: (origin: string) => ToolInfo[];
  changed: (local?: boolean) => void;
  host: (w: Window, origin: string, d: Message) => void;
  drop: (w: Window) => void;
  watch: () => void;
  next: () => number;
}

/** framesApi is the Frames the registry uses: the other frames' tools, calls into them, and the
 * push of this document's list. */
function framesApi(
  { me, peers, calls, post, visible, drop, watch, next }: Link,
  describe: (e: ToolInfo, win: Window, origin: string) => RegisteredTool,
): Frames {
  return {
    origin: me,
    list(from) {
      const out: RegisteredTool[] = [];
      for (const [w, p] of peers) {
        if (w.closed) drop(w);
        else if (p.origin === me || from.includes(p.origin))
          for (const t of p.tools) out.push(describe(t, w, p.origin));
      }
      return out;
    },
    call(tool, inputJSON, signal) {
      const w = tool.window,
        p = peers.get(w);
      if (!p || p.origin !== tool.origin || !p.tools.some((t) => t.name === tool.name))
        return Promise.reject(lost("no tool " + tool.name));
      return new Promise((resolve, reject) => {
        const id = next();
        calls.set(id, { win: w, resolve, reject });
        watch();
        post(w, p.origin, "call", { id, name: tool.name, input: inputJSON });
        if (signal)
          signal.addEventListener(
            "abort",
            () => {
              if (calls.delete(id)) {
                reject(signal.reason);
                post(w, p.origin, "abort", { id });
              }
            },
            { once: true },
          );
      });
    },
    push() {
      for (const [w, p] of peers) post(w, p.origin, "tools", { tools: visible(p.origin) });
    },
  };
}

/** onMessage answers one message of another frame of the page. */
function onMessage(link: Link, e: MessageEvent): void {
  const d = b.read(e, "data") as Message | null,
    w = b.read(e, "source") as Window | null,
    origin = String(b.read(e, "origin"));
  if (
    !d ||
    typeof d !== "object" ||
    !b.apply(b.hasOwn, null, [d, KEY]) ||
    typeof d[KEY] !== "string" ||
    !w ||
    w === window
  )
    return;
  try {
    if (w.top !== top) return;
  } catch {
    return;
  } // another page's window
  const type = d[KEY],
    peer = link.peers.get(w);
  if (!allowed(w, origin, link.me, link.up)) return;
  if (type === "hello" || type === "tools") {
    const before = peer ? b.stringify(peer.tools) : "[]",
      list = type === "tools" ? clean(d.tools) : [];
    link.peers.set(w, { origin, tools: list });
    if (type === "hello" || !peer || peer.origin !== origin)
      link.post(w, origin, "tools", { tools: link.visible(origin) });
    if (before !== b.stringify(list)) link.changed(false);
  } else if (!peer || peer.origin !== origin)
    return; // calls and results only from frames that said hello
  else if (type === "call") link.host(w, origin, d);
  else if (type === "abort") link.hosted.get(w)?.get(Number(d.id))?.abort();
  else if (type === "result") {
    const id = Number(d.id),
      c = link.calls.get(id);
    if (!c || c.win !== w) return;
    link.calls.delete(id);
    if (typeof d.error === "string")
      c.reject(
        new DOMException(
          String(d.message),
          /^(Data|NotAllowed|Security)Error$/.test(d.error) ? d.error : "UnknownError",
        ),
      );
    else c.resolve(typeof d.value === "string" ? d.value : null);
  } else if (type === "bye") link.drop(w);
}

// allowed says whether this document and the frame w of origin may share tools: the same
// origin, or a parent and its cross-origin child whose <iframe allow> lists the tools feature
// for it, or for any origin ("tools", "tools *"; 'src' is taken as any origin too), the
// child trusting its parent: a parent that does not allow it never answers.
function allowed(w: Window, origin: string, me: string, up: Window): boolean {
  if (origin === "null") return false;
  if (origin === me || w === up) return true;
  if (w.parent !== window) return false;
  const el = [...document.querySelectorAll<HTMLIFrameElement>("iframe,frame")].find((f) => f.contentWindow === w);
  const rule =
    el &&
    (el.getAttribute("allow") || "")
      .split(";")
      .map((s) => s.trim().split(/\s+/))
      .find(([f]) => f === "tools");
  return (
    !!rule &&
    (rule.length < 2 ||
      rule.some((o) => o === "*" || o === "'src'" || o === origin || (o === "'self'" && origin === me)))
  );
}

// clean keeps of another frame's list only well-formed tools, as plain data.
const clean = (list: unknown): ToolInfo[] =>
  (b.isArray(list) ? (list as Message[]) : [])
    .filter((t) => t && typeof t === "object" && typeof t.name === "string" && TOOL_NAME.test(t.name))
    .map((t) => ({
      annotations: t.annotations ? hints(Object(t.annotations) as Record<string, unknown>) : undefined,
      description: String(t.description),
      name: String(t.name),
      text: typeof t.text === "string" ? t.text : undefined,
      title: String(t.title),
    }));
