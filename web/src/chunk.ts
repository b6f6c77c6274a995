// The chunks of the script build (webmcp-bridge.js): code only some pages need, fetched beside the
// loader on first need. A chunk is a classic script (so it loads wherever the loader did: under
// script-src 'self', with the loader's nonce, and in a sandboxed document with an opaque origin,
// where a module import would need CORS). internal/build/jsbuild wraps each one so that the
// first and only thing its script does is hand a function to the loader through a global the
// loader defined at load; the loader takes it only while the script element it added itself is
// the one running (document.currentScript, read through the getter captured at load), once. A
// page script cannot hand the loader a chunk of its own, nor read one the loader takes. The
// loader then calls that function with what the chunk needs (captures, the guarded flow): the
// chunk's code runs then and uses nothing of the page's but what it is given. In the other
// builds (the ES module, the extension's, webmcp-mcp's) the chunks are bundled in.
import { call, defineProperty, dom, events, LoadPromise, scripts } from "./builtins.ts";

/** A chunk as its script hands it over: called with what it needs and a function that takes
 * what it gives back. */
type ChunkBody = (needs: unknown, give: (exports: unknown) => void) => void;

/** The script elements the loader added and waits for, each with what takes its chunk, by a
 * number: an object without a prototype, so that no setter a later script put on one sees a take. */
const waiting = { __proto__: null } as unknown as Record<number, { script: unknown; take: (body: ChunkBody) => void }>;
let added = 0;

// The global through which chunks hand themselves over, defined when the loader runs.
const loaderDOM = scripts;
if (__WEBMCP_CHUNKED__ && loaderDOM) {
  try {
    defineProperty(globalThis, __WEBMCP_CHUNK_GLOBAL__, {
      configurable: false,
      enumerable: false,
      get: () => undefined,
      set(body: unknown) {
        const running = call(loaderDOM.currentScript, document);
        for (let i = 0; i < added; i++) {
          const w = waiting[i];
          if (w && running && w.script === running && typeof body === "function") {
            delete waiting[i]; // once
            w.take(body as ChunkBody);
          }
        }
      },
    });
  } catch {
    // A script that ran first took the name: chunks then do not load (see loadChunk).
  }
}

/** loadChunk gives the exports of the chunk built from source (a web/src file), called with
 * needs: in the script build, its file fetched beside the loader, once per call; elsewhere,
 * bundled (the import). It rejects where the chunk cannot load (a CSP that refuses it, a
 * network error, a page that took the global first). */
export function loadChunk<T>(source: string, needs: unknown, bundled: (() => Promise<T>) | null): Promise<T> {
  if (bundled) return bundled();
  const file = (__WEBMCP_CHUNKS__ as Record<string, string>)[source];
  const s = scripts;
  const d = dom;
  if (!s || !d || !file)
    return new LoadPromise<T>((_, reject) => reject(new Error("no loader script to fetch " + source + " beside")));
  return new LoadPromise<T>((resolve, reject) => {
    const script = call(d.createElement, document, "script") as HTMLScriptElement;
    const n = added++;
    const gone = (): void => {
      delete waiting[n];
      call(d.remove, script);
    };
    waiting[n] = {
      script,
      take(body) {
        gone();
        try {
          body(needs, (exports) => resolve(exports as T));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
        reject(new Error(file + " gave nothing"));
      },
    };
    const failed = (why: string) => () => {
      gone();
      reject(new Error(file + why));
    };
    call(events.addEventListener, script, "error", failed(" did not load"));
    call(events.addEventListener, script, "load", failed(" did not hand itself over"));
    call(s.setNonce, script, s.nonce);
    call(s.setSrc, script, new s.URL(file, s.src).href);
    call(d.appendChild, call(d.documentElement, document), script);
  });
}

/** importChunk imports the ES module chunk built from source, in the script build, from beside
 * the loader (import() in a classic script resolves against the script's own URL). The
 * specifier is a value, not a literal: esbuild then neither follows it nor adds the helpers it
 * adds to a script for an external import() (__require, __toESM), which nothing would call. */
export function importChunk<T>(source: string): Promise<T> {
  const file = "./" + (__WEBMCP_CHUNKS__ as Record<string, string>)[source];
  return import(file) as Promise<T>;
}
