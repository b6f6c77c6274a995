// The module's answers: a frame is one line of JSON (the head), FRAME_SEPARATOR and a body that
// may be empty (see wasm/module.go). A head {"error": {name, message, …}} is a failed call: it
// becomes the JS error it names, message unchanged, with what else it says (the setting or the
// schema path) riding along. The one reader of frames, for the loader and the module server.
import { parse, stringify } from "./builtins.ts";
import { FRAME_SEPARATOR } from "./generated/boundary.ts";

interface ErrorHead {
  readonly name?: string;
  readonly message: string;
  readonly [detail: string]: unknown;
}

export interface Frame<H> {
  readonly head: H;
  readonly body: string;
}

/** frameText writes a frame with head and an empty body, as the module writes its answers. */
export const frameText = (head: object): string => stringify(head) + FRAME_SEPARATOR;

/** frameOf reads a frame; a head that says error is thrown as that error. */
export function frameOf<H = Record<string, unknown>>(out: string): Frame<H> {
  const at = out.indexOf(FRAME_SEPARATOR);
  const head = parse(at < 0 ? out : out.slice(0, at)) as H & { error?: ErrorHead };
  if (head && head.error) throw typedError(head.error);
  return { head, body: at < 0 ? "" : out.slice(at + FRAME_SEPARATOR.length) };
}

/** typedError turns an error the module reports into the JS error it names. */
function typedError({ name, message, ...detail }: ErrorHead): Error {
  let e: Error;
  if (name === "TypeError") e = new TypeError(message);
  else if (name === "Error" || !name) e = new Error(message);
  else e = new DOMException(message, name);
  return Object.assign(e, detail);
}
