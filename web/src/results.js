// A tool's result on its way to an agent: binaries made image blocks, plain text mapped here,
// everything else normalized by the module; the violations it reports go to the page.
import { callGo, policy, startModule, unavailable } from "./host.js";
import { encode } from "./encode.js";

const DEFAULT_MAX_TEXT_CHARS = 100000; // the default policy's, for plain text before the module starts

// idleAfterLoad resolves once the page has loaded and the main thread is idle: when the
// schema checks of registrations start the module, the page's own start-up never waits for it.
export function idleAfterLoad() {
  return new Promise((resolve) => {
    const idle = () => (globalThis.requestIdleCallback ? requestIdleCallback(() => resolve(), { timeout: 1000 }) : setTimeout(resolve, 50));
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  });
}

// ---- events to the page -------------------------------------------------------------------
export const violationListeners = new Set();
export function reportViolations(tool, violations, warned = false) {
  for (const v of violations) {
    if (!warned) console.warn(`webmcp-bridge: ${tool ? `tool "${tool}": ` : ""}${v.notice}`);
    const detail = { tool, ...v };
    for (const f of violationListeners) { try { f(detail); } catch (e) { console.error(e); } }
    window.dispatchEvent(new CustomEvent("webmcpbridgeviolation", { detail }));
  }
}

// Plain text is the most common result and needs no checks beyond its length (maxTextChars of
// the policy the module answered), so it is mapped here without a trip into the module; the
// output is exactly what Go would produce (a browser test compares the two). Anything else,
// or text that is long or not well-formed, goes to Go.
function plainText(value) {
  let text;
  if (typeof value === "string") text = value;
  else if (value && typeof value === "object" && value.type === "text" && typeof value.text === "string" &&
    typeof value.toJSON !== "function" && Object.keys(value).length === 2 && Object.getPrototypeOf(value) === Object.prototype) text = value.text;
  else return null;
  const max = policy ? policy.maxTextChars : DEFAULT_MAX_TEXT_CHARS;
  if (max > 0 && text.length > max) return null; // UTF-16 units ≥ characters
  if (typeof text.isWellFormed !== "function" || !text.isWellFormed()) return null;
  return { content: [{ type: "text", text }], resultType: "complete" };
}

// normalizeText returns the CallToolResult as JSON text, which is what executeTool hands on:
// only the module's small head (the violations) is parsed here, never the result itself.
export async function normalizeText(value, tool) {
  const fast = plainText(value);
  if (fast) return JSON.stringify(fast);
  if (!policy) await startModule();
  const json = encode(value);
  const { head, body } = typeof json === "string" ? await callGo("normalize", json, document.baseURI) : await callGo("refuse", json.refuse, json.size || 0);
  reportViolations(tool, head.violations);
  return body;
}

// errorText is the isError result (JSON text) for a tool that threw or rejected: the message
// as thrown, with the error's name only where it says more than "Error".
export async function errorText(err) {
  const isError = err instanceof Error || (err && typeof err === "object" && typeof err.message === "string");
  const name = isError && typeof err.name === "string" ? err.name : "";
  const message = isError ? err.message : String(err);
  const code = err && typeof err === "object" && err.code !== undefined ? String(err.code) : "";
  return (await callGo("errorResult", name, String(message).slice(0, 100000), code)).body;
}

// passThrough is what a tool returns when the module cannot run on this page: its value as the
// browser would pass it on without the bridge.
export function passThrough(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

// resolveBinary turns the binary forms a page may hand to content.image into a data URL. A
// binary over maxImageBytes is refused before it is read.
export async function resolveBinary(src) {
  if (typeof src === "string") return src;
  let blob;
  if (typeof Blob !== "undefined" && src instanceof Blob) blob = src;
  else if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) blob = new Blob([src]);
  else if (typeof HTMLCanvasElement !== "undefined" && src instanceof HTMLCanvasElement)
    blob = await new Promise((res) => src.toBlob(res, "image/png"));
  else if (typeof OffscreenCanvas !== "undefined" && src instanceof OffscreenCanvas)
    blob = await src.convertToBlob({ type: "image/png" });
  else if (typeof ImageBitmap !== "undefined" && src instanceof ImageBitmap) {
    const c = new OffscreenCanvas(src.width, src.height);
    c.getContext("2d").drawImage(src, 0, 0);
    blob = await c.convertToBlob({ type: "image/png" });
  } else throw new TypeError("content.image: expected base64, a data URL, a Blob, an ArrayBuffer, a typed array, a canvas or an ImageBitmap");
  if (!blob) throw new TypeError("content.image: the canvas gave no image (is it 0×0?)");
  if (!policy) await startModule().catch(() => {});
  const max = policy ? policy.maxImageBytes : 0;
  if (max > 0 && blob.size > max)
    throw new RangeError(`the image is ${blob.size} bytes, over the maxImageBytes limit of ${max} bytes`);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return "data:" + (blob.type || "application/octet-stream") + ";base64," + btoa(bin);
}

// isBinary tells the binary values a tool may return in place of an image block.
export function isBinary(v) {
  return v instanceof ArrayBuffer || ArrayBuffer.isView(v) ||
    (typeof Blob !== "undefined" && v instanceof Blob) ||
    (typeof HTMLCanvasElement !== "undefined" && v instanceof HTMLCanvasElement) ||
    (typeof OffscreenCanvas !== "undefined" && v instanceof OffscreenCanvas) ||
    (typeof ImageBitmap !== "undefined" && v instanceof ImageBitmap);
}

// prepare turns binary results (alone or in a returned array) into image blocks, so that Go
// receives one JSON text.
export async function prepare(value) {
  value = await value;
  if (isBinary(value)) return { type: "image", data: await resolveBinary(value) };
  if (Array.isArray(value) && value.some(isBinary))
    return Promise.all(value.map(async (v) => (isBinary(v) ? { type: "image", data: await resolveBinary(v) } : v)));
  return value;
}

// runTool runs a page's execute and turns whatever happens into the JSON text of a
// CallToolResult. Where the module cannot run, the tool's own value goes on as passValue makes
// it, and its own error is thrown.
export async function runTool(tool, input, ctx, passValue) {
  let value;
  try {
    value = await tool.execute(input, ctx);
  } catch (e) {
    return failed(e);
  }
  if (unavailable) return passValue(value);
  try {
    return await normalizeText(await prepare(value), tool.name);
  } catch (e) {
    if (unavailable) return passValue(value);
    return failed(e);
  }
}

// failed is the isError result (JSON text) for e; where the module cannot run, e is thrown on.
export async function failed(e) {
  try {
    return await errorText(e);
  } catch (e2) {
    throw unavailable ? e : e2;
  }
}

