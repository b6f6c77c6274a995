// Tools across the frames of one page, for the fallback. Every frame of the page (the same top)
// that loads the bridge says hello to the others over postMessage; each answers with the tools
// the other may see — all of them to its own origin, and to another origin those whose exposedTo
// names it — sends the list again when it changes, runs the calls it receives (with the same
// checks as its own calls) and says bye when its document goes. Every message is checked: it
// must come from a window of this page, and only data meant for an origin is sent, with that
// origin as the target. Across origins only a frame and its parent talk, and a parent talks to a
// cross-origin child only where the child's <iframe allow> grants the tools feature.
import { NAME_RE } from "./declarative.js";

const KEY = "webmcpBridge";
const lost = (message) => new DOMException("executeTool: " + message, "UnknownError");

// hints are a tool's annotations with every member the draft defines, as booleans (native
// Chromium 156 adds a debugging member, which the newest tests do not expect).
export const hints = (a) => ({ consequentialHint: !!a.consequentialHint, readOnlyHint: !!a.readOnlyHint, untrustedContentHint: !!a.untrustedContentHint });

// connectFrames starts the exchange for the fallback's registry tools; changed(false) says the
// other frames' tools changed, describe makes a RegisteredTool, run runs a local tool. It
// returns {origin, list(fromOrigins), call(tool, inputJSON, signal), push()}.
export function connectFrames({ tools, changed, describe, run }) {
  // window, top and this document's origin, as they are now (a page can replace self, parent
  // and origin; window and top it cannot).
  const me = self.origin, up = window.parent;
  const peers = new Map(); // Window → {origin, tools}: the frames that told this one their tools
  const calls = new Map(); // id → {win, resolve, reject}: this document's calls in other frames
  const hosted = new Map(); // Window → Map(id → AbortController): other frames' calls running here
  let ids = 0;
  const post = (w, origin, type, fields) => { try { w.postMessage(Object.assign({ [KEY]: type }, fields), origin); } catch (e) { /* gone, or an opaque origin */ } };
  const exposed = (e, origin) => origin === me || !!e.exposedTo && e.exposedTo.includes(origin);
  const visible = (origin) => [...tools.values()].filter((e) => exposed(e, origin))
    .map(({ annotations, description, name, text, title }) => ({ annotations, description, name, text, title }));

  // allowed says whether this document and the frame w of origin may share tools: the same
  // origin, or a parent and its cross-origin child whose <iframe allow> lists the tools feature
  // for it, or for any origin ("tools", "tools *"; 'src' is taken as any origin too), the
  // child trusting its parent: a parent that does not allow it never answers.
  function allowed(w, origin) {
    if (origin === "null") return false;
    if (origin === me || w === up) return true;
    if (w.parent !== window) return false;
    const el = [...document.querySelectorAll("iframe,frame")].find((f) => f.contentWindow === w);
    const rule = el && (el.getAttribute("allow") || "").split(";").map((s) => s.trim().split(/\s+/)).find(([f]) => f === "tools");
    return !!rule && (rule.length < 2 || rule.some((o) => o === "*" || o === "'src'" || o === origin || o === "'self'" && origin === me));
  }
  // clean keeps of another frame's list only well-formed tools, as plain data.
  const clean = (list) => (Array.isArray(list) ? list : []).filter((t) => t && typeof t === "object" && NAME_RE.test(t.name)).map((t) => ({
    annotations: t.annotations ? hints(Object(t.annotations)) : undefined,
    description: String(t.description), name: String(t.name), text: typeof t.text === "string" ? t.text : undefined, title: String(t.title),
  }));
  function drop(w) {
    const p = peers.get(w);
    peers.delete(w);
    for (const [id, c] of calls) if (c.win === w) { calls.delete(id); c.reject(lost("its frame went away")); }
    hosted.get(w)?.forEach((ac) => ac.abort()); // its calls here are cancelled
    hosted.delete(w);
    if (p && p.tools.length) changed(false);
  }
  // watch looks, while calls run between frames, for a frame removed without a bye (a detached
  // iframe's document may not get to send one): its calls end as if it had said bye.
  let watching = 0;
  const watch = () => {
    watching = watching || setInterval(() => {
      const wins = new Set([...calls.values()].map((c) => c.win).concat([...hosted.keys()]));
      for (const w of wins) if (w.closed) drop(w);
      if (!wins.size) watching = clearInterval(watching) || 0;
    }, 200);
  };
  // host runs another frame's call of a tool exposed to it, and answers with the result.
  function host(w, origin, { id, name, input }) {
    const e = tools.get(name);
    const reply = (value, x) => post(w, origin, "result", x ? { id, error: x.name, message: String(x.message) } : { id, value });
    let ok = false;
    try { ok = typeof input === "string" && /^[{[]/.test(input) && !!JSON.parse(input); } catch (x) { /* not JSON */ }
    if (!e || !exposed(e, origin) || !ok) return reply(null, lost("no tool " + name));
    const ac = new AbortController(), mine = hosted.get(w) || hosted.set(w, new Map()).get(w);
    mine.set(id, ac);
    watch();
    run(e, input, ac.signal).then((v) => reply(v), (x) => reply(null, x instanceof DOMException ? x : lost(String(x && x.message || x))))
      .then(() => mine.delete(id) && !mine.size && hosted.delete(w));
  }

  const state = {
    origin: me,
    list(from) {
      const out = [];
      for (const [w, p] of peers) {
        if (w.closed) drop(w);
        else if (p.origin === me || from.includes(p.origin)) for (const t of p.tools) out.push(describe(t, w, p.origin));
      }
      return out;
    },
    call(tool, inputJSON, signal) {
      const w = tool.window, p = peers.get(w);
      if (!p || p.origin !== tool.origin || !p.tools.some((t) => t.name === tool.name)) return Promise.reject(lost("no tool " + tool.name));
      return new Promise((resolve, reject) => {
        const id = ++ids;
        calls.set(id, { win: w, resolve, reject });
        watch();
        post(w, p.origin, "call", { id, name: tool.name, input: inputJSON });
        if (signal) signal.addEventListener("abort", () => { if (calls.delete(id)) { reject(signal.reason); post(w, p.origin, "abort", { id }); } }, { once: true });
      });
    },
    push() { for (const [w, p] of peers) post(w, p.origin, "tools", { tools: visible(p.origin) }); },
  };

  // The message's members are read through the getters as they are now: a page that patches
  // MessageEvent later must not see what passes (the extension's hand-off comes this way too).
  const apply = Reflect.apply, own = Object.prototype.hasOwnProperty;
  const [data, source, from] = ["data", "source", "origin"].map((k) => Object.getOwnPropertyDescriptor(MessageEvent.prototype, k).get);
  addEventListener("message", (e) => {
    const d = apply(data, e, []), w = apply(source, e, []), origin = apply(from, e, []);
    if (!d || typeof d !== "object" || !apply(own, d, [KEY]) || typeof d[KEY] !== "string" || !w || w === window) return;
    try { if (w.top !== top) return; } catch (x) { return; } // another page's window
    const type = d[KEY], peer = peers.get(w);
    if (!allowed(w, origin)) return;
    if (type === "hello" || type === "tools") {
      const before = peer ? JSON.stringify(peer.tools) : "[]", list = type === "tools" ? clean(d.tools) : [];
      peers.set(w, { origin, tools: list });
      if (type === "hello" || !peer || peer.origin !== origin) post(w, origin, "tools", { tools: visible(origin) });
      if (before !== JSON.stringify(list)) changed(false);
    } else if (!peer || peer.origin !== origin) return; // calls and results only from frames that said hello
    else if (type === "call") host(w, origin, d);
    else if (type === "abort") hosted.get(w)?.get(d.id)?.abort();
    else if (type === "result") {
      const c = calls.get(d.id);
      if (!c || c.win !== w) return;
      calls.delete(d.id);
      if (typeof d.error === "string") c.reject(new DOMException(String(d.message), /^(Data|NotAllowed|Security)Error$/.test(d.error) ? d.error : "UnknownError"));
      else c.resolve(typeof d.value === "string" ? d.value : null);
    } else if (type === "bye") drop(w);
  });
  // hello goes to every frame of the page (at most 99 children each: a page may replace
  // window.length); it carries nothing but the question.
  const hello = (w) => {
    if (w !== window) post(w, "*", "hello");
    try { for (let i = 0; i < w.length && i < 99; i++) hello(w[i]); } catch (e) { /* not a window */ }
  };
  addEventListener("pagehide", () => { for (const [w, p] of peers) post(w, p.origin, "bye"); });
  hello(top);
  return state;
}
