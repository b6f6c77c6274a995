// Turning JS values into the JSON text the module reads. What crosses into the module is bounded
// before it crosses: at most MAX_NESTING levels of arrays and objects, at most maxResultBytes of
// JSON.
import { MAX_NESTING } from "./generated/boundary.ts";
import { POLICY_DEFAULTS } from "./generated/policy.ts";
import { state } from "./host.ts";
import { isArray, keys, stringify } from "./builtins.ts";

/** What cannot cross, and why: too deep, or more than maxResultBytes (size -1: not counted to the end). */
export interface Refusal {
  refuse: "nesting" | "maxResultBytes";
  size: number;
}

const maxResultBytes = (): number => (state.policy ?? POLICY_DEFAULTS).maxResultBytes;

// measure walks the value once, without recursion, and stops as soon as either limit is
// exceeded: a sparse array of length 1e7 or a 400-million-character string is refused without
// being serialized.
function measure(value: unknown, maxBytes: number): Refusal | null {
  let bytes = 0;
  const over = (): boolean => maxBytes > 0 && bytes > maxBytes;
  // A lower bound of the JSON's UTF-8 size: a string's UTF-16 length is at most its bytes,
  // every other scalar is at least one byte, and so is every comma.
  const scalarBytes = (v: unknown): number => (typeof v === "string" ? v.length + 2 : 1);
  const isContainer = (v: unknown): v is object =>
    v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON !== "function";
  // Objects without a prototype, each a stack with its own top: no setter or method a script put
  // on a prototype sees the walk or cuts it short.
  const values = { __proto__: null } as unknown as unknown[],
    depths = { __proto__: null } as unknown as number[],
    path = { __proto__: null } as unknown as unknown[]; // the containers being walked, to tell a cycle
  let top = 0,
    deep = 0;
  const push = (v: unknown, depth: number): void => {
    values[top] = v;
    depths[top++] = depth;
  };
  push(value, 1);
  while (top) {
    const v = values[--top],
      depth = depths[top] ?? 0;
    if (depth === 0) {
      deep--; // all of v's members are done
      continue;
    }
    if (!isContainer(v)) {
      bytes += scalarBytes(v);
      if (over()) break;
      continue;
    }
    for (let i = 0; i < deep; i++)
      if (path[i] === v) throw new TypeError("the result cannot be serialized to JSON (it contains itself)");
    if (depth > MAX_NESTING) return { refuse: "nesting", size: 0 };
    path[deep++] = v;
    push(v, 0);
    if (isArray(v)) {
      bytes += 1 + 2 * v.length; // brackets, commas, and at least a byte per element
      if (over()) break;
      for (let i = v.length - 1; i >= 0; i--) {
        const e: unknown = v[i];
        if (isContainer(e)) push(e, depth + 1);
        else bytes += scalarBytes(e) - 1;
      }
    } else {
      bytes += 2;
      const ks = keys(v);
      for (let i = 0; i < ks.length; i++) {
        const k = ks[i],
          e = (v as Record<string, unknown>)[k];
        bytes += k.length + 3;
        if (isContainer(e)) push(e, depth + 1);
        else bytes += scalarBytes(e);
      }
    }
    if (over()) break;
  }
  return over() ? { refuse: "maxResultBytes", size: -1 } : null;
}

/** utf8Size is the UTF-8 size of s when it may be within maxBytes, -1 when it certainly is not. */
function utf8Size(s: string, maxBytes: number): number {
  if (maxBytes > 0 && s.length > maxBytes) return -1;
  if (s.length * 3 <= maxBytes) return s.length; // within the limit whatever the characters
  let n = s.length; // a byte per UTF-16 unit, and what more each needs:
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 4 bytes for 2 units
      i++;
    } else n += 2; // 3 bytes, a lone surrogate too (written as U+FFFD)
  }
  return n;
}

/** tooLarge is the refusal for text of JSON over maxResultBytes, or null. */
export function tooLarge(text: string): Refusal | null {
  const max = maxResultBytes();
  if (max <= 0) return null;
  const size = utf8Size(text, max);
  return size < 0 || size > max ? { refuse: "maxResultBytes", size } : null;
}

/** encode turns a value into the JSON text the module reads, or the refusal when it is too deep
 * or too large to cross. */
export function encode(value: unknown): string | Refusal {
  const over = measure(value, maxResultBytes());
  if (over) return over;
  let text: string | undefined;
  try {
    text = stringify(value);
  } catch (e) {
    if (e instanceof RangeError) return { refuse: "nesting", size: 0 }; // a toJSON that nests deeper
    try {
      text = stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    } catch (e2) {
      throw new TypeError(
        `the result cannot be serialized to JSON (${e2 instanceof Error ? e2.message : String(e2)})`,
        { cause: e2 },
      );
    }
  }
  text ??= "null";
  return tooLarge(text) ?? text;
}

/** toJSON is encode for what is not a tool's result (settings, schemas, arguments): too deep or
 * too large is a TypeError that says so. */
export function toJSON(value: unknown, what: string): string {
  const out = encode(value);
  if (typeof out === "string") return out;
  throw new TypeError(
    out.refuse === "nesting"
      ? `${what} is nested more than ${MAX_NESTING} levels deep (the limit)`
      : `${what} is more than ${maxResultBytes()} bytes of JSON (maxResultBytes)`,
  );
}
