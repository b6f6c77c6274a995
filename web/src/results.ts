// A tool's result on its way to an agent: binaries handed to the module as bytes, plain text
// mapped here, everything else normalized by the module; the violations it reports go to the page.
import { MESSAGE_PREFIX, TEXT_RESULT, type Binary } from "./generated/boundary.ts";
import { POLICY_DEFAULTS } from "./generated/policy.ts";
import { callGo, startModule, state } from "./host.ts";
import { encode, tooLarge, type Refusal } from "./encode.ts";
import { getPrototypeOf, isArray, keys, ObjectPrototype, stringify } from "./builtins.ts";
import type { ModelInput, Violation } from "./types.ts";

// ---- events to the page -------------------------------------------------------------------
export const violationListeners = new Set<(v: Violation) => void>();

// warnedOf holds what the console was told, by tool and reason, so that a tool whose every call
// loses the same markup is named once, not per call; bounded, as a page may vary its reasons.
const warnedOf = new Set<string>();
const MAX_WARNED = 1000;

/** reportViolations tells the page: a console warning (unless warned, once per tool and reason),
 * the listeners and an event (for every violation). */
export function reportViolations(tool: string, violations: readonly Omit<Violation, "tool">[], warned = false): void {
  for (const v of violations) {
    const key = stringify([tool, v.type, v.limit, v.reason]);
    if (!warned && !warnedOf.has(key)) {
      if (warnedOf.size >= MAX_WARNED) warnedOf.clear();
      warnedOf.add(key);
      console.warn(`${MESSAGE_PREFIX}${tool ? `tool "${tool}": ` : ""}${v.notice}`);
    }
    const detail: Violation = { tool, ...v };
    for (const f of violationListeners) {
      try {
        f(detail);
      } catch (e) {
        console.error(e);
      }
    }
    window.dispatchEvent(new CustomEvent("webmcpbridgeviolation", { detail }));
  }
}

/** What the module answers for one normalized result: the violations and, for the agent side,
 * the model input and the tables of its text/csv resources. */
export interface NormalizedHead {
  violations?: Omit<Violation, "tool">[];
  modelInput?: ModelInput;
  tables?: Record<string, string[][]>;
}
interface Normalized {
  head: NormalizedHead;
  body: string;
}

// Plain text is the most common result and needs no checks beyond its length (maxTextChars of
// the policy in force), so it is mapped here without a trip into the module: the text's JSON in
// the frame Go writes around it (TEXT_RESULT, generated). Anything else, or text that is long or
// not well-formed, goes to Go.
function plainText(value: unknown): string | null {
  let text: string;
  if (typeof value === "string") text = value;
  else if (isTextBlock(value)) text = value.text;
  else return null;
  const max = (state.policy ?? POLICY_DEFAULTS).maxTextChars;
  if (max > 0 && text.length > max) return null; // UTF-16 units ≥ characters
  if (typeof text.isWellFormed !== "function" || !text.isWellFormed()) return null;
  return TEXT_RESULT[0] + stringify(text) + TEXT_RESULT[1];
}

// isTextBlock tells a plain {type: "text", text} object, with no other member and no toJSON.
function isTextBlock(value: unknown): value is { type: "text"; text: string } {
  const v = value as { type?: unknown; text?: unknown; toJSON?: unknown } | null;
  return (
    !!v &&
    typeof v === "object" &&
    v.type === "text" &&
    typeof v.text === "string" &&
    typeof v.toJSON !== "function" &&
    keys(v).length === 2 &&
    getPrototypeOf(v) === ObjectPrototype
  );
}

/** normalize returns the CallToolResult as JSON text and what the module said of it: one
 * crossing, none for plain text (unless forAgent, which needs the model input). A tool's result
 * (ofTool) in webmcp-mcp's loader is only prepared: its server normalizes it. */
export async function normalize(value: unknown, tool: string, forAgent: boolean, ofTool = true): Promise<Normalized> {
  if (__WEBMCP_RAW_RESULTS__ && ofTool) return { head: { violations: [] }, body: await passThrough(value) };
  const prepared = await prepareBinaries(value);
  const fast = forAgent || prepared.binaries.length ? null : plainText(prepared.value);
  if (fast) return { head: { violations: [] }, body: fast };
  if (!state.policy) await startModule();
  return toModule(encode(prepared.value), tool, (json) =>
    callGo<"normalize", NormalizedHead>("normalize", json, document.baseURI, prepared.binaries, forAgent),
  );
}

/** reread normalizes a raw output again (another frame's, an agent's from anywhere), trusting
 * nothing: a string as JSON text, anything else as a value. */
export async function reread(raw: unknown, tool: string): Promise<Normalized> {
  await startModule();
  return toModule(typeof raw === "string" ? (tooLarge(raw) ?? raw) : encode(raw), tool, (json) =>
    callGo<"parseToolOutput", NormalizedHead>("parseToolOutput", json, document.baseURI),
  );
}

// toModule hands JSON text to the module through send, or the refusal of text too deep or too
// large to cross (an isError result), and tells the page of the violations.
async function toModule(
  json: string | Refusal,
  tool: string,
  send: (json: string) => Promise<Normalized>,
): Promise<Normalized> {
  const { head, body } =
    typeof json === "string"
      ? await send(json)
      : await callGo<"refuse", NormalizedHead>("refuse", json.refuse, json.size);
  reportViolations(tool, head.violations ?? []);
  return { head, body };
}

/** errorFields are the message as thrown, the error's name and its code ("" when it has none). */
function errorFields(err: unknown): { name: string; message: string; code: string } {
  const isError =
    err instanceof Error ||
    (!!err && typeof err === "object" && typeof (err as { message?: unknown }).message === "string");
  const name = isError && typeof (err as { name?: unknown }).name === "string" ? (err as { name: string }).name : "";
  const message = isError ? String((err as { message: string }).message) : String(err);
  const code =
    err && typeof err === "object" && (err as { code?: unknown }).code !== undefined
      ? String((err as { code: unknown }).code)
      : "";
  return { name, message, code };
}

/** errorBlock is an error block for err as a tool's value prepared, not normalized: what
 * webmcp-mcp's loader and the extension's hand-off give an agent that normalizes it itself. */
export function errorBlock(err: unknown): string {
  const { name, message, code } = errorFields(err);
  return stringify({ type: "error", message, ...(name && { name }), ...(code && { code }) });
}

/** errorResult is the isError result for a tool that threw or rejected: an error block with the
 * message as thrown and the error's name, whether the name is shown decided by Go. */
export async function errorResult(err: unknown, forAgent: boolean): Promise<Normalized> {
  if (__WEBMCP_RAW_RESULTS__) return { head: { violations: [] }, body: errorBlock(err) };
  const { name, message, code } = errorFields(err);
  const max = (state.policy ?? POLICY_DEFAULTS).maxTextChars;
  return callGo<"errorResult", NormalizedHead>(
    "errorResult",
    name,
    max > 0 ? message.slice(0, max + 1) : message,
    code,
    forAgent,
  );
}

/** passThrough is a tool's value as the browser passes it on without the bridge: where the module
 * cannot run on this page. Binaries are given as data: URLs, as the bridge's content.image did. */
export async function passThrough(value: unknown): Promise<string> {
  const { value: v, binaries } = await prepareBinaries(value);
  if (binaries.length) {
    const at = (b: Binary, data: string): unknown =>
      b.field ? { ...((b.index < 0 ? v : (v as unknown[])[b.index]) as object), data } : { type: "image", data };
    const out: unknown = isArray(v) ? [...(v as unknown[])] : v;
    let top = out;
    for (const b of binaries) {
      const data = "data:" + (b.mimeType || "application/octet-stream") + ";base64," + base64(b.bytes);
      if (b.index < 0) top = at(b, data);
      else (out as unknown[])[b.index] = at(b, data);
    }
    return stringify(top);
  }
  return typeof v === "string" ? v : (stringify(v) ?? "undefined");
}

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

// ---- binaries -----------------------------------------------------------------------------

/** The binary values a tool may return, alone, in a returned array, or as an image block's data. */
type BinarySource = Blob | ArrayBuffer | ArrayBufferView | HTMLCanvasElement | OffscreenCanvas | ImageBitmap;

/** isBinary tells the binary values a tool may return in place of an image block. */
export function isBinary(v: unknown): v is BinarySource {
  return (
    v instanceof ArrayBuffer ||
    ArrayBuffer.isView(v) ||
    (typeof Blob !== "undefined" && v instanceof Blob) ||
    (typeof HTMLCanvasElement !== "undefined" && v instanceof HTMLCanvasElement) ||
    (typeof OffscreenCanvas !== "undefined" && v instanceof OffscreenCanvas) ||
    (typeof ImageBitmap !== "undefined" && v instanceof ImageBitmap)
  );
}

/** blobOf turns a binary into a Blob (a canvas or an ImageBitmap as PNG). */
export async function blobOf(src: BinarySource): Promise<Blob> {
  let blob: Blob | null;
  if (src instanceof Blob) blob = src;
  else if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) blob = new Blob([src as BlobPart]);
  else if (typeof HTMLCanvasElement !== "undefined" && src instanceof HTMLCanvasElement)
    blob = await new Promise<Blob | null>((res) => src.toBlob(res, "image/png"));
  else if (src instanceof OffscreenCanvas) blob = await src.convertToBlob({ type: "image/png" });
  else {
    const c = new OffscreenCanvas(src.width, src.height);
    c.getContext("2d")?.drawImage(src, 0, 0);
    blob = await c.convertToBlob({ type: "image/png" });
  }
  if (!blob) throw new TypeError("the canvas gave no image (is it 0×0?)");
  return blob;
}

// bytesOf reads a binary's bytes into a buffer of the bridge's own (never the page's, which a
// transfer would detach). A binary over maxImageBytes is refused before it is read.
async function bytesOf(src: BinarySource, index: number, field: "" | "data"): Promise<Binary> {
  const blob = await blobOf(src);
  const max = (state.policy ?? POLICY_DEFAULTS).maxImageBytes;
  if (max > 0 && blob.size > max)
    throw new RangeError(`the image is ${blob.size} bytes, over the maxImageBytes limit of ${max} bytes`);
  return { index, field, bytes: new Uint8Array(await blob.arrayBuffer()), mimeType: blob.type };
}

const blockData = (v: unknown): unknown =>
  v && typeof v === "object" && (v as { type?: unknown }).type === "image" ? (v as { data?: unknown }).data : undefined;

/** hasBinaries says whether prepareBinaries would find a binary in value. */
export function hasBinaries(value: unknown): boolean {
  const here = (v: unknown): boolean => isBinary(v) || isBinary(blockData(v));
  return here(value) || (isArray(value) && value.some(here));
}

/** prepareBinaries takes the binaries out of a result — the result itself, the items of a
 * returned array, an image block's data there — as bytes, leaving null in their place. */
async function prepareBinaries(value: unknown): Promise<{ value: unknown; binaries: Binary[] }> {
  value = await value;
  const binaries: Binary[] = [];
  const take = async (v: unknown, index: number): Promise<unknown> => {
    if (isBinary(v)) {
      binaries.push(await bytesOf(v, index, ""));
      return null;
    }
    const data = blockData(v);
    if (isBinary(data)) {
      binaries.push(await bytesOf(data, index, "data"));
      return { ...(v as object), data: null };
    }
    return v;
  };
  if (isArray(value) && hasBinaries(value)) value = await Promise.all(value.map((v: unknown, i) => take(v, i)));
  else value = await take(value, -1);
  return { value, binaries };
}
