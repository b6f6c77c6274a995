// checkSchema decides in the page, without the Go module, whether registerTool accepts a tool's
// inputSchema: it accepts and refuses what bridge/inputschema's Compile does for the same JSON
// value, and refuses with the same first problem — the same path and the same rule of the
// keyword table Go generates (generated/keywords.ts), said in the table's words. What only Go
// can say (RE2's own error for a pattern it cannot parse) Go says, when it compiles the schema.
// internal/testing/schemacheck runs both over one corpus.

import { JSON_TYPES, KEYWORDS, MAX_DEPTH, MESSAGES, TOO_DEEP, type ValueShape } from "./generated/keywords.ts";
import type { PatternProblem } from "./patterns.ts";

/** The pattern checker (patterns.ts), a chunk fetched on first need: see checkSchema. */
export type PatternCheck = (src: string) => PatternProblem | null;

/** NEEDS_PATTERNS is checkSchema's answer for a schema with a pattern when it has no pattern
 * checker: ask again with one. */
export const NEEDS_PATTERNS = "needs the pattern checker";

/** Why a schema is refused: path is a JSON Pointer into the schema (the offending keyword),
 * rule the table's name for what was wrong (a key of MESSAGES, or the kind of a keyword that is
 * excluded or refused, or "tooDeep"), message the TypeError's message. */
interface SchemaRefusal {
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

/**
 * checkSchema checks a decoded inputSchema against the subset the bridge enforces: null when
 * the module would compile it, else where and why registerTool rejects it (the TypeError's
 * message and the path it carries). undefined and null mean no schema, which passes.
 *
 * schema is a JSON value as JSON.parse returns it: give it JSON.parse of the text the module
 * would get, and both sides see the same value (a Date or a toJSON method is the loader's to
 * resolve first). Strings are read as Go reads that text (a lone surrogate is U+FFFD) and a
 * number that is not finite as the null JSON.stringify writes for it.
 *
 * A schema with a pattern needs the pattern checker (patterns.ts, which most pages never
 * fetch): without one, checkSchema answers NEEDS_PATTERNS when it meets the first pattern.
 */
export function checkSchema(
  schema: unknown,
  patternCheck: PatternCheck | null = null,
): SchemaRefusal | null | typeof NEEDS_PATTERNS {
  if (schema === undefined || schema === null) return null;
  patterns = patternCheck;
  try {
    const e = tooDeep(schema, 0) ? { path: "", rule: "tooDeep", reason: TOO_DEEP } : checkSubschema(schema, "");
    return e && { path: e.path, rule: e.rule, message: "registerTool: inputSchema" + e.path + ": " + e.reason };
  } catch (e) {
    if (e === needsPatterns) return NEEDS_PATTERNS;
    throw e;
  } finally {
    patterns = null;
  }
}

/** The pattern checker of the check under way, and what stops the check without one. */
let patterns: PatternCheck | null = null;
const needsPatterns = {};

interface Refusal {
  readonly path: string;
  readonly rule: string;
  readonly reason: string;
}

type Rule = keyof typeof MESSAGES;

/** refusal is the refusal at path by rule, its reason the rule's message filled with args. */
function refusal(path: string, rule: Rule, ...args: readonly (string | number)[]): Refusal {
  let i = 0;
  const reason = MESSAGES[rule].replace(/%[qsd]/g, (verb) => {
    const a = args[i++] ?? "";
    return verb === "%q" ? JSON.stringify(a) : String(a);
  });
  return { path, rule, reason };
}

type JSONObject = ReadonlyMap<string, unknown>;

/** checkSubschema checks the schema v found at path: an object or a boolean. */
function checkSubschema(v: unknown, path: string): Refusal | null {
  if (typeof v === "boolean") return null;
  const m = objectOf(v);
  if (!m) return refusal(path, "notASchema", typeName(v));
  return checkObject(m, path);
}

/** checkObject looks every member up in the keyword table, in Go's (byte) order of names. */
function checkObject(m: JSONObject, path: string): Refusal | null {
  for (const k of [...m.keys()].sort(compareCodePoints)) {
    const at = path + "/" + k;
    const row = KEYWORDS.get(k);
    if (!row) return refusal(at, "unknown", k);
    if (row.kind === "excluded" || row.kind === "refused")
      return { path: at, rule: row.kind, reason: row.reason ?? "" };
    if (row.kind !== "enforced" || !row.value) continue;
    const e = checkValue(at, row.value, m.get(k)) ?? checkKeyword(k, m, path);
    if (e) return e;
  }
  return null;
}

/** checkValue checks that the value v of the keyword at path has its shape; for the shapes
 * made of schemas only the container (checkKeyword checks the subschemas). */
function checkValue(path: string, shape: ValueShape, v: unknown): Refusal | null {
  switch (shape) {
    case "types":
      return checkTypes(path, v);
    case "array":
      return Array.isArray(v) ? null : refusal(path, "array");
    case "count":
      return isNumber(v) && v >= 0 && Number.isInteger(v) ? null : refusal(path, "count");
    case "number":
      return isNumber(v) ? null : refusal(path, "number");
    case "positive number":
      return !isNumber(v) ? refusal(path, "number") : v > 0 ? null : refusal(path, "positive");
    case "boolean":
      return typeof v === "boolean" ? null : refusal(path, "boolean");
    case "pattern":
      return typeof v === "string" ? null : refusal(path, "string");
    case "names":
      return checkNames(path, v);
    case "schemas":
      return Array.isArray(v) && v.length > 0 ? null : refusal(path, "schemas");
    case "schema map":
      return objectOf(v) ? null : refusal(path, "object");
    case "item schema":
      return Array.isArray(v) ? refusal(path, "tuple") : null;
    case "false":
      return v === false ? null : refusal(path, "false");
    case "any":
    case "schema":
      return null;
  }
}

/** checkKeyword checks what a keyword's compile function checks beyond its value's shape:
 * subschemas, patterns, and contains's minContains and maxContains. */
function checkKeyword(k: string, m: JSONObject, path: string): Refusal | null {
  const at = path + "/" + k;
  const v = m.get(k);
  switch (k) {
    case "pattern": {
      if (!patterns) throw needsPatterns;
      const problem = patterns(wellFormed(v as string));
      return problem && refusal(at, problem.rule, ...problem.args);
    }
    case "items":
    case "not":
      return checkSubschema(v, at);
    case "contains":
      return (
        checkSubschema(v, at) ??
        checkContainsCount(m, path, "minContains") ??
        checkContainsCount(m, path, "maxContains")
      );
    case "prefixItems":
    case "allOf":
    case "anyOf":
    case "oneOf":
      return firstOf((v as readonly unknown[]).map((sub, i) => () => checkSubschema(sub, at + "/" + String(i))));
    case "properties": {
      const props = objectOf(v) ?? new Map<string, unknown>();
      const names = [...props.keys()].sort(compareCodePoints);
      return firstOf(names.map((name) => () => checkSubschema(props.get(name), at + "/" + escapePointer(name))));
    }
  }
  return null;
}

function checkContainsCount(m: JSONObject, path: string, k: string): Refusal | null {
  return m.has(k) ? checkValue(path + "/" + k, "count", m.get(k)) : null;
}

function firstOf(checks: readonly (() => Refusal | null)[]): Refusal | null {
  for (const c of checks) {
    const e = c();
    if (e) return e;
  }
  return null;
}

function checkTypes(path: string, v: unknown): Refusal | null {
  let names: readonly string[];
  if (typeof v === "string") names = [wellFormed(v)];
  else if (Array.isArray(v)) {
    const e = checkNames(path, v);
    if (e) return e;
    if (v.length === 0) return refusal(path, "emptyTypes");
    names = (v as readonly string[]).map(wellFormed);
  } else return refusal(path, "types");
  const wrong = names.find((t) => !JSON_TYPES.includes(t));
  return wrong === undefined ? null : refusal(path, "notAType", wrong);
}

/** checkNames checks an array of distinct strings. */
function checkNames(path: string, v: unknown): Refusal | null {
  if (!Array.isArray(v)) return refusal(path, "names");
  const seen = new Set<string>();
  for (const e of v as readonly unknown[]) {
    if (typeof e !== "string") return refusal(path, "names");
    const name = wellFormed(e);
    if (seen.has(name)) return refusal(path, "twice", name);
    seen.add(name);
  }
  return null;
}

// JSON values as Go's jsonvalue reads them.

/** tooDeep reports arrays and objects nested deeper than the module reads (v is at depth). */
function tooDeep(v: unknown, depth: number): boolean {
  if (typeof v !== "object" || v === null) return false;
  if (depth >= MAX_DEPTH) return true;
  return Object.values(v).some((e) => tooDeep(e, depth + 1));
}

/** objectOf is v's members when v is a JSON object, names as Go reads them (the last of two
 * names that read alike wins, as in the JSON text the module gets). */
function objectOf(v: unknown): JSONObject | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const m = new Map<string, unknown>();
  for (const [k, e] of Object.entries(v)) {
    if (e !== undefined) m.set(wellFormed(k), e);
  }
  return m;
}

function isNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/** typeName is jsonvalue.TypeName: integer for a number without a fraction. */
function typeName(v: unknown): string {
  if (v === null || (typeof v === "number" && !Number.isFinite(v))) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** wellFormed replaces lone surrogates with U+FFFD, as Go's JSON reader does. */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g, (c) => (c.length === 2 ? c : "\uFFFD"));
}

/** compareCodePoints orders strings as Go does (by UTF-8 bytes, that is by code points),
 * where JavaScript's sort compares UTF-16 units. */
function compareCodePoints(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length;) {
    const x = a.codePointAt(i) ?? 0;
    const d = x - (b.codePointAt(i) ?? 0);
    if (d !== 0) return d;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

function escapePointer(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}
