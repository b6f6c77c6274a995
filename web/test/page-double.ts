// A page as far as chunk.ts and builtins.ts reach it, for the tests of chunk loading: a
// document whose current script is the loader's own <script> element, and a browser that runs
// the script elements added to it, one at a time, from the files of `served` (by URL). Import
// it after globals.ts and before the modules under test, which capture the DOM when they load.
const g = globalThis as Record<string, unknown>;

/** The chunk files the loader knows (__WEBMCP_CHUNKS__), by the source web/src imports them as. */
export const CHUNK_FILES = { "./schema-check.ts": "schema-chunk.js" }; // the build names the real ones
g.__WEBMCP_CHUNKS__ = CHUNK_FILES;

/** What the page serves, by URL: a script's code, run as the browser runs a classic script. */
export const served = new Map<string, () => void>();

class DOMNode extends EventTarget {
  parent: DOMNode | null = null;
  appendChild(child: DOMNode): DOMNode {
    child.parent = this;
    if (child instanceof HTMLScriptElement) {
      scriptsAdded.push(child);
      setTimeout(() => runScript(child), 0);
    }
    return child;
  }
}
class Element extends DOMNode {
  remove(): void {
    this.parent = null;
  }
}
class HTMLElement extends Element {
  #nonce = "";
  get nonce(): string {
    return this.#nonce;
  }
  set nonce(v: string) {
    this.#nonce = v;
  }
}
export class HTMLScriptElement extends HTMLElement {
  #src = "";
  get src(): string {
    return this.#src;
  }
  set src(v: string) {
    this.#src = v;
  }
}
class HTMLIFrameElement extends HTMLElement {
  get contentWindow(): null {
    return null;
  }
}
class Document extends DOMNode {
  running: HTMLScriptElement | null = null;
  readonly root = new HTMLElement();
  get currentScript(): HTMLScriptElement | null {
    return this.running;
  }
  get documentElement(): HTMLElement {
    return this.root;
  }
  createElement(name: string): HTMLElement {
    return name === "script"
      ? new HTMLScriptElement()
      : name === "iframe"
        ? new HTMLIFrameElement()
        : new HTMLElement();
  }
}

/** runScript runs a script as the browser does: it is the current script while its code runs,
 * then "load" fires, or "error" where nothing is served at its URL. */
function runScript(script: HTMLScriptElement): void {
  const code = served.get(script.src);
  if (!code) {
    script.dispatchEvent(new Event("error"));
    return;
  }
  runAs(script, code);
  script.dispatchEvent(new Event("load"));
}

/** runAs runs code with script as the document's current script. */
export function runAs(script: HTMLScriptElement | null, code: () => void): void {
  const before = document.running;
  document.running = script;
  try {
    code();
  } finally {
    document.running = before;
  }
}

/** The loader's own script element, with its URL and nonce, current while the loader loads. */
export const loaderScript = new HTMLScriptElement();
loaderScript.src = "https://shop.example/assets/webmcp-bridge.js";
loaderScript.nonce = "n0nce";

const document = new Document();
Object.assign(g, { Node: DOMNode, Element, HTMLElement, HTMLScriptElement, HTMLIFrameElement, Document, document });
document.running = loaderScript;
/** loaderLoaded ends the loader's turn as the current script (call it once the modules under
 * test are imported). */
export const loaderLoaded = (): void => void (document.running = null);
/** The script elements added to the document, in order. */
export const scriptsAdded: HTMLScriptElement[] = [];
