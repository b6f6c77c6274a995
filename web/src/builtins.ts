// The built-ins the bridge relies on where a page could interfere, captured once when the loader
// runs — before any later page script can replace them — and used only through these captures:
// the message getters of the frames exchange and the extension's hand-off, Reflect.apply, the
// JSON functions, the Object functions that read a value's shape. The one place they live.
/* eslint-disable @typescript-eslint/unbound-method -- captured unbound on purpose: called with Reflect.apply */

export const apply = Reflect.apply;
export const { stringify, parse } = JSON;
export const { keys, getPrototypeOf, getOwnPropertyDescriptor, defineProperty, hasOwn } = Object;
export const isArray = Array.isArray;
export const ObjectPrototype = Object.prototype;

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

/** The EventTarget, Event and MessagePort methods the extension's hand-off uses. */
export const events = {
  addEventListener: EventTarget.prototype.addEventListener,
  removeEventListener: EventTarget.prototype.removeEventListener,
  stopImmediatePropagation: Event.prototype.stopImmediatePropagation,
  postMessage: MessagePort.prototype.postMessage,
  start: MessagePort.prototype.start,
};

/** call calls a captured method f on self. */
export function call<R>(f: (...args: never[]) => R, self: unknown, ...args: unknown[]): R {
  return apply(f as (...a: unknown[]) => R, self, args);
}

/** read reads a MessageEvent member through its captured getter. */
export function read(e: MessageEvent, member: keyof typeof messageEvent): unknown {
  return apply(messageEvent[member], e, []);
}
