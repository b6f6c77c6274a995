// The built-ins the bridge relies on where a page could interfere, captured once when the loader
// runs — before any later page script can replace them — and used only through these captures:
// the message getters of the frames exchange and the extension's hand-off, Reflect.apply, the
// JSON functions, the Object functions that read a value's shape. The one place they live.
/* eslint-disable @typescript-eslint/unbound-method -- captured unbound on purpose: called with Reflect.apply */
import { GLOBAL_EXPORTS, GLOBAL_STARTED } from "./generated/boundary.ts";

export const apply = Reflect.apply;
export const { keys, getPrototypeOf, getOwnPropertyDescriptor, defineProperty, hasOwn } = Object;
export const isArray = Array.isArray;
export const ObjectPrototype = Object.prototype;

// Promise's then as it is at load: the loader's waits on its own promises go through it, so
// that a later script that patches Promise.prototype never receives what the loader is handed
// (a chunk's exports) nor hands it a value of its own. What the loader keeps it keeps in
// objects without a prototype ({ __proto__: null }), where no setter a script put on a
// prototype is ever reached.
export const { then } = Promise.prototype;
/** Promise as it was at load: the loader's own promises are never a later script's. */
export const LoadPromise = Promise;

/** append adds v at the end of list as an own property: no setter on Array.prototype sees it. */
export function append<T>(list: T[], v: T): void {
  defineProperty(list, list.length, { value: v, writable: true, enumerable: true, configurable: true });
}

// The JSON the bridge uses: a fresh realm's wherever there is a document (loadersJSON), made on
// the first need; in a Worker, the Worker's own (no page script runs there).
let loaders: Pick<JSON, "parse" | "stringify"> | null = null;
const atLoad = { parse: JSON.parse, stringify: JSON.stringify };

/** parse and stringify are the loader's JSON.parse and JSON.stringify (see loadersJSON). */
export const parse = (text: string): unknown => (loaders ??= loadersJSON()).parse(text);
export const stringify = (value: unknown, replacer?: (key: string, value: unknown) => unknown): string =>
  (loaders ??= loadersJSON()).stringify(value, replacer);

/** loadersJSON is the JSON of a frame the loader makes and removes at once, whose realm no page
 * script has touched: this realm's JSON may be a script's that ran before the loader, and no
 * test of it (Function.prototype.toString reads "[native code]" for a callable Proxy) can tell.
 * The frame has a srcdoc, so that its insertion fires no load event a page's listener could
 * reach its window from; it is made with the DOM members captured at load, on the first need
 * (a realm costs the page's thread, and the page's MutationObservers see the frame). Values it
 * parses belong to that realm. Without a document (a Worker) it is this realm's, as it was at
 * load. A script that ran first and patched what makes a frame still wins. */
function loadersJSON(): Pick<JSON, "parse" | "stringify"> {
  if (!dom) return atLoad;
  let frame: HTMLIFrameElement | null = null;
  try {
    frame = call(dom.createElement, document, "iframe") as HTMLIFrameElement;
    call(dom.setAttribute, frame, "srcdoc", "");
    call(dom.appendChild, call(dom.documentElement, document), frame);
    const realm = call(dom.contentWindow, frame) as (Window & typeof globalThis) | null;
    return realm ? realm.JSON : atLoad;
  } catch {
    return atLoad;
  } finally {
    if (frame) call(dom.remove, frame);
  }
}

/** getter is the getter of a prototype's accessor property, as it is now. */
function getter<T>(proto: object, name: string): (this: T) => unknown {
  const d = getOwnPropertyDescriptor(proto, name);
  if (!d || typeof d.get !== "function") throw new TypeError(`no getter ${name}`);
  return d.get as (this: T) => unknown;
}

/** The members of a MessageEvent, read through the getters captured at load. */
const messageEvent = {
  data: getter<MessageEvent>(MessageEvent.prototype, "data"),
  source: getter<MessageEvent>(MessageEvent.prototype, "source"),
  origin: getter<MessageEvent>(MessageEvent.prototype, "origin"),
  ports: getter<MessageEvent>(MessageEvent.prototype, "ports"),
};

/** The EventTarget, Event and MessagePort methods the extension's hand-off and the module's
 * Worker use. */
export const events = {
  addEventListener: EventTarget.prototype.addEventListener,
  removeEventListener: EventTarget.prototype.removeEventListener,
  stopImmediatePropagation: Event.prototype.stopImmediatePropagation,
  preventDefault: Event.prototype.preventDefault,
  postMessage: MessagePort.prototype.postMessage,
  start: MessagePort.prototype.start,
};

/** The Worker the module host starts and what it uses of one, as they were at load: a later script
 * that replaces window.Worker, patches Worker.prototype or makes blob: URLs of its own never
 * sees the module's requests or answers (null where there is no Worker). */
export const workers =
  typeof Worker === "function"
    ? {
        Worker,
        postMessage: Worker.prototype.postMessage,
        terminate: Worker.prototype.terminate,
        errorMessage: getter<ErrorEvent>(ErrorEvent.prototype, "message"),
        Blob,
        createObjectURL: URL.createObjectURL,
        revokeObjectURL: URL.revokeObjectURL,
      }
    : null;

/** What the loader fetches its chunks with (chunk.ts), as it was at load: its own <script>
 * script's URL and nonce (null for the ES module and in a Worker), document.currentScript's getter and
 * the setters of a script's src and nonce, so that a later script can neither redirect a chunk nor
 * see which element is the loader's. */
const loaderScript =
  typeof document !== "undefined" && document.currentScript instanceof HTMLScriptElement
    ? document.currentScript
    : null;
export const scripts = loaderScript
  ? {
      src: loaderScript.src,
      URL,
      nonce: loaderScript.nonce,
      currentScript: getter<Document>(Document.prototype, "currentScript"),
      setSrc: setter(HTMLScriptElement.prototype, "src"),
      setNonce: setter(HTMLElement.prototype, "nonce"),
    }
  : null;

/** setter is the setter of a prototype's accessor property, as it is now. */
function setter(proto: object, name: string): (this: unknown, v: unknown) => void {
  const d = getOwnPropertyDescriptor(proto, name);
  if (!d || typeof d.set !== "function") throw new TypeError(`no setter ${name}`);
  return d.set as (this: unknown, v: unknown) => void;
}

/** The DOM members with which the loader adds an element of its own (a chunk's script, the
 * frame of loadersJSON), captured at load (null without a document). */
export const dom =
  typeof document !== "undefined" && typeof HTMLIFrameElement === "function"
    ? {
        createElement: Document.prototype.createElement,
        appendChild: Node.prototype.appendChild,
        setAttribute: Element.prototype.setAttribute,
        remove: Element.prototype.remove,
        documentElement: getter<Document>(Document.prototype, "documentElement"),
        contentWindow: getter<HTMLIFrameElement>(HTMLIFrameElement.prototype, "contentWindow"),
      }
    : null;

/** call calls a captured method f on self. */
export function call<R>(f: (...args: never[]) => R, self: unknown, ...args: unknown[]): R {
  return apply(f as (...a: unknown[]) => R, self, args);
}

/** read reads a MessageEvent member through its captured getter. */
export function read(e: MessageEvent, member: keyof typeof messageEvent): unknown {
  return apply(messageEvent[member], e, []);
}

/** The two globals through which the Go module hands over its exports when it starts, held by
 * the bridge: take() gives what the module set (once); onStarted is called when it says so, and
 * only while it is set (during a start, when no other script runs) does the global offer it;
 * what it answers, the module gets. With them, in the Worker, what the module server writes the
 * module's long strings with (utf8Writer). */
export interface ModuleGlobals {
  take(): unknown;
  onStarted: (() => unknown) | null;
  encodeInto?: UTF8Writer;
  /** getOwnPropertyDescriptor as it was when the globals were claimed (on the page, when the
   * loader ran): the module server reads the exports with it, not with its own script's
   * capture, which on the page's thread is made later */
  own: typeof getOwnPropertyDescriptor;
}

/** A UTF8Writer writes s as UTF-8 into buffer at [at, at + room): the bytes written, or -1
 * where s does not fit. */
type UTF8Writer = (s: string, buffer: ArrayBufferLike, at: number, room: number) => number;

/** utf8Writer is TextEncoder's encodeInto over a view of [at, at + room), with TextEncoder and
 * Uint8Array as they are when it is called: by the Worker's script, before any other script of
 * that scope runs, so that nothing else ever sees the module's memory through them. (On the
 * page's thread the captures would have to be made by the loader when it runs, in bytes every
 * page pays; there the module reads its strings through syscall/js.) */
export function utf8Writer(): UTF8Writer {
  const encoder = new TextEncoder(),
    { encodeInto } = TextEncoder.prototype,
    Bytes = Uint8Array;
  return (s, buffer, at, room) => {
    const done = apply(encodeInto, encoder, [s, new Bytes(buffer, at, room)]);
    return done.read === s.length ? done.written : -1;
  };
}

/** claimModuleGlobals defines GLOBAL_EXPORTS and GLOBAL_STARTED on scope as non-configurable
 * accessors that only the bridge reads, before any module starts: the loader does it for the
 * page when it runs, the Worker's script for its own scope. No later script can redefine them
 * or read the exports, and a setter a script put on a prototype is never reached. It answers
 * null where a script that ran first has made either global its own (the page-thread module
 * then refuses to start). */
export function claimModuleGlobals(scope: object): ModuleGlobals | null {
  let held: unknown;
  const globals: ModuleGlobals = {
    take() {
      const v = held;
      held = undefined;
      return v;
    },
    onStarted: null,
    own: getOwnPropertyDescriptor,
  };
  const started = (): unknown => globals.onStarted?.();
  try {
    defineProperty(scope, GLOBAL_EXPORTS, {
      configurable: false,
      enumerable: false,
      get: () => undefined,
      set(v: unknown) {
        held = v;
      },
    });
    defineProperty(scope, GLOBAL_STARTED, {
      configurable: false,
      enumerable: false,
      get: () => (globals.onStarted ? started : undefined),
      set() {},
    });
  } catch {
    return null;
  }
  return globals;
}
