// The loader's side of the tools across frames (frame-tools.ts, in the script build a chunk,
// webmcp-bridge-frames.js): this document's origin, parent and the captures, taken at load, and
// a listener that fetches the exchange when the page has frames — this document is a frame, has
// frames at load, or another frame of the page says hello (its message is handed on). A page of
// one document with no frame never fetches it.
import { append, apply, call, events, then, hasOwn, isArray, parse, read, stringify } from "./builtins.ts";
import { loadChunk } from "./chunk.ts";
import { MESSAGE_PREFIX } from "./generated/boundary.ts";
import { FRAMES_KEY } from "./registry.ts";
import type { Frames, FramesOf } from "./frame-tools.ts";

/** What the frames chunk gives (chunk-frame-tools.ts). */
type FramesCode = Pick<typeof import("./frame-tools.ts"), "connectFrames">;

/** linkFrames is the Frames of the fallback's registry: until the exchange runs, no other frame's
 * tools (none has said hello yet). */
export function linkFrames(of: FramesOf): Frames {
  const me = self.origin,
    up = window.parent;
  const captures = { apply, hasOwn, isArray, parse, read, stringify, addEventListener: events.addEventListener };
  const queued: MessageEvent[] = [];
  let exchange: Frames | null = null,
    loading = false;
  const load = (): void => {
    if (loading) return;
    loading = true;
    void call(
      then,
      loadChunk<FramesCode>("./frame-tools.ts", null, __WEBMCP_CHUNKED__ ? null : () => import("./frame-tools.ts")),
      (code: FramesCode) => (exchange = code.connectFrames(of, { me, up, captures, queued })),
      (e: unknown) =>
        console.warn(`${MESSAGE_PREFIX}the frames code did not load (${String(e)}); no tools across frames`),
    );
  };
  const onMessage = (e: MessageEvent): void => {
    const d = read(e, "data");
    if (exchange || !d || typeof d !== "object" || !apply(hasOwn, null, [d, FRAMES_KEY])) return;
    if (queued.length < 100) append(queued, e);
    load();
  };
  call(events.addEventListener, window, "message", onMessage);
  if (up !== window || window.length > 0) load();
  return {
    origin: me,
    list: (from) => (exchange ? exchange.list(from) : []),
    call: (tool, inputJSON, signal) =>
      exchange
        ? exchange.call(tool, inputJSON, signal)
        : Promise.reject(new DOMException("executeTool: no tool " + tool.name, "UnknownError")),
    push: () => exchange?.push(),
  };
}
