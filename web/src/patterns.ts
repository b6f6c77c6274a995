// The pattern checker of schema-check.ts, a chunk of its own: only pages whose schemas have a
// pattern fetch it, on the first such schema. Patterns are ECMA-262 syntax, translated to RE2
// as bridge/inputschema/pattern.go does; what RE2 cannot run is refused by name, and what RE2
// would not parse is refused as not valid (RE2's own error is Go's to say).
import { MAX_PATTERN_LENGTH, MAX_PATTERN_REPETITION, UNICODE_CLASSES } from "./generated/keywords.ts";

/** PatternProblem is why a pattern is refused: the rule of the keyword table and its values. */
export interface PatternProblem {
  readonly rule: "patternLong" | "patternUses" | "patternWrong" | "patternRepetition";
  readonly args: readonly (string | number)[];
}

/** patternProblem is why Compile refuses the well-formed pattern src, or null when it accepts it. */
export function patternProblem(src: string): PatternProblem | null {
  const length = src.length - (src.match(/[\uDC00-\uDFFF]/g) ?? []).length; // code points: src is well formed
  if (length > MAX_PATTERN_LENGTH) return { rule: "patternLong", args: [length, MAX_PATTERN_LENGTH] };
  const t = translatePattern(src);
  if ("feature" in t) return { rule: "patternUses", args: [src, t.feature] };
  if (!re2Parses(t.re2)) return { rule: "patternWrong", args: [src] };
  const product = repetitionProduct(parseRE2(t.re2));
  return product <= MAX_PATTERN_REPETITION
    ? null
    : { rule: "patternRepetition", args: [src, product, MAX_PATTERN_REPETITION] };
}

/** repetitionProduct is inputschema's (patternsize.go): how many items the pattern holds once
 * each counted repetition a{n,m} is written out m times (n when unbounded, at least once). */
function repetitionProduct(nodes: readonly Node[]): number {
  let sum = 0;
  for (const n of nodes) {
    const times = n.counted ? (n.counted.max < 0 ? n.counted.min : n.counted.max) : 1;
    sum += (n === leaf ? 1 : repetitionProduct(n.subs)) * Math.max(times, 1);
  }
  return sum;
}

const lookaround: readonly (readonly [string, string])[] = [
  ["(?=", "lookahead"],
  ["(?!", "negative lookahead"],
  ["(?<=", "lookbehind"],
  ["(?<!", "negative lookbehind"],
];

// pattern.go writes ECMAScript's \s as RE2 class items (from the range \t-\r to \x{feff}), \S in
// a class as items from the range \x00-\x08 to the range \x{ff00}-\x{10ffff}, and . as a class
// of its own. Only whether RE2 parses the result matters here, and that depends on the first
// and the last item alone (a neighbour's - makes a range with them): so these stand in for
// them, each with the same first and last item.
const ecmaSpace = "\\t-\\r\\x{feff}";
const ecmaNonSpace = "\\x00-\\x08\\x{ff00}-\\x{10ffff}";
const ecmaDot = "[^\\n]";

/** translatePattern is pattern.go's translatePattern: the RE2 text, or the ECMAScript-only
 * feature met first. */
function translatePattern(src: string): { re2: string } | { feature: string } {
  let out = "";
  let inClass = false;
  for (let i = 0; i < src.length;) {
    const rest = src.slice(i);
    const c = rest[0];
    let n = 1;
    if (c === "\\") {
      const e = translateEscape(rest, inClass);
      if ("feature" in e) return e;
      out += e.out;
      n = e.n;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c === "[" ? "\\[" : c;
    } else if (c === "(") {
      const l = lookaround.find(([prefix]) => rest.startsWith(prefix));
      if (l) return { feature: l[1] };
      out += c;
    } else if (c === ".") out += ecmaDot;
    else if (c === "[") {
      if (rest.startsWith("[]")) [out, n] = [out + "[^\\x00-\\x{10ffff}]", 2];
      else if (rest.startsWith("[^]")) [out, n] = [out + "(?s:.)", 3];
      else if (rest.startsWith("[^")) [out, n, inClass] = [out + "[^", 2, true];
      else [out, inClass] = [out + "[", true];
    } else out += c;
    i += n;
  }
  return { re2: out };
}

function translateEscape(rest: string, inClass: boolean): { out: string; n: number } | { feature: string } {
  if (rest.length < 2) return { out: rest, n: rest.length };
  const c = rest[1];
  if (c >= "1" && c <= "9" && !inClass) return { feature: "a backreference" };
  if (c === "k" && rest.startsWith("<", 2) && !inClass) return { feature: "a named backreference" };
  if (c === "u") return translateUnicodeEscape(rest);
  if (c === "s") return { out: inClass ? ecmaSpace : "[" + ecmaSpace + "]", n: 2 };
  if (c === "S") return { out: inClass ? ecmaNonSpace : "[^" + ecmaSpace + "]", n: 2 };
  if (c === "b" && inClass) return { out: "\\x08", n: 2 };
  if (c === "0" && !/^[0-9]$/.test(rest.charAt(2))) return { out: "\\x00", n: 2 };
  if (c === "c" && /^[A-Za-z]$/.test(rest.charAt(2))) return { out: codePoint(rest.charCodeAt(2) % 32), n: 3 };
  return { out: rest.slice(0, 2), n: 2 };
}

function translateUnicodeEscape(rest: string): { out: string; n: number } {
  if (rest.startsWith("\\u{")) {
    const end = rest.indexOf("}");
    const digits = rest.slice(3, end);
    if (end > 3 && /^[0-9A-Fa-f]+$/.test(digits) && parseInt(digits, 16) <= 0x10ffff)
      return { out: codePoint(parseInt(digits, 16)), n: end + 1 };
  } else {
    const r = hex4(rest.slice(2));
    if (r !== null) {
      const lo = rest.startsWith("\\u", 6) ? hex4(rest.slice(8)) : null;
      if (r >= 0xd800 && r < 0xdc00 && lo !== null && lo >= 0xdc00 && lo < 0xe000)
        return { out: codePoint(0x10000 + ((r - 0xd800) << 10) + (lo - 0xdc00)), n: 12 };
      return { out: codePoint(r), n: 6 };
    }
  }
  return { out: rest.slice(0, 2), n: 2 };
}

function hex4(s: string): number | null {
  return /^[0-9A-Fa-f]{4}/.test(s) ? parseInt(s.slice(0, 4), 16) : null;
}

function codePoint(r: number): string {
  return "\\x{" + r.toString(16) + "}";
}

// re2Parses tells whether Go's regexp.Compile parses the RE2 text re (Perl syntax, as
// regexp.Compile parses it). It keeps only what decides that: a stack of groups, alternation
// bars and items, and the repetitions nested in each item. Which error RE2 would give is Go's
// to say.

/** Node is an item of the parse; counted is set for a{n}, a{n,} and a{n,m} (max -1: none). */
interface Node {
  readonly counted?: { readonly min: number; readonly max: number };
  readonly subs: readonly Node[];
}

type StackItem = Node | "(" | "|";

const leaf: Node = { subs: [] };
const perlClasses = new Set(["\\d", "\\D", "\\s", "\\S", "\\w", "\\W"]);

/** Unparsable is what the parse throws at the first thing RE2 would not parse. */
class Unparsable extends Error {}

function re2Parses(re: string): boolean {
  try {
    parseRE2(re);
    return true;
  } catch (e) {
    if (e instanceof Unparsable) return false;
    throw e;
  }
}

function unparsable(): never {
  throw new Unparsable();
}

function parseRE2(re: string): Node[] {
  const stack: StackItem[] = [];
  let t = re;
  let lastRepeat = false;
  while (t !== "") {
    let repeat = false;
    const c = t[0];
    if (c === "(") {
      t = t.startsWith("(?") ? perlFlags(t, stack) : (stack.push("("), t.slice(1));
    } else if (c === "|") {
      collapse(stack);
      if (stack.length >= 2 && stack[stack.length - 2] === "|") stack.splice(stack.length - 2, 1);
      stack.push("|");
      t = t.slice(1);
    } else if (c === ")") {
      closeGroup(stack);
      t = t.slice(1);
    } else if (c === "[") {
      t = parseClass(t);
      stack.push(leaf);
    } else if (c === "*" || c === "+" || c === "?") {
      t = repeatOp(stack, t.slice(1), lastRepeat);
      repeat = true;
    } else if (c === "{" && repeatBounds(t)) {
      const { min, max, rest } = repeatBounds(t) ?? { min: 0, max: 0, rest: "" };
      if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) unparsable();
      t = repeatOp(stack, rest, lastRepeat, { min, max });
      repeat = true;
    } else if (c === "\\") {
      t = parseEscapeItem(t, stack);
    } else {
      t = t.slice(String.fromCodePoint(t.codePointAt(0) ?? 0).length);
      stack.push(leaf);
    }
    lastRepeat = repeat;
  }
  collapse(stack);
  if (stack.includes("(")) unparsable();
  return stack.filter((s): s is Node => s !== "(" && s !== "|");
}

/** repeatOp applies a repetition (counted: {n,m}) to the top item. */
function repeatOp(stack: StackItem[], after: string, lastRepeat: boolean, counted?: Node["counted"]): string {
  const rest = after.startsWith("?") ? after.slice(1) : after;
  if (lastRepeat) unparsable();
  const top = stack[stack.length - 1];
  if (stack.length === 0 || top === "(" || top === "|") unparsable();
  const node: Node = { counted, subs: [top] };
  stack[stack.length - 1] = node;
  if (counted && (counted.min >= 2 || counted.max >= 2) && !repeatFits(node, 1000)) unparsable();
  return rest;
}

/** repeatFits: the counted repetitions nested in node make at most n copies of what they repeat. */
function repeatFits(node: Node, n: number): boolean {
  if (node.counted) {
    const m = node.counted.max < 0 ? node.counted.min : node.counted.max;
    if (node.counted.max === 0) return true;
    if (m > n) return false;
    if (m > 0) n = Math.floor(n / m);
  }
  return node.subs.every((s) => repeatFits(s, n));
}

/** repeatBounds reads {n}, {n,} or {n,m} (max -1: none; a count of -1: too large), or null
 * when t does not start with one: then { is a literal. */
function repeatBounds(t: string): { min: number; max: number; rest: string } | null {
  const low = decimal(t.slice(1));
  if (!low || low.rest === "") return null;
  let min = low.n;
  let max = min;
  let s = low.rest;
  if (s[0] === ",") {
    s = s.slice(1);
    if (s === "") return null;
    if (s[0] === "}") max = -1;
    else {
      const high = decimal(s);
      if (!high) return null;
      [max, s] = [high.n, high.rest];
      if (max < 0) min = -1;
    }
  }
  return s[0] === "}" ? { min, max, rest: s.slice(1) } : null;
}

/** decimal reads the digits at the start of s (no leading zero), -1 when RE2 finds them too
 * large (it stops counting at 1e8). */
function decimal(s: string): { n: number; rest: string } | null {
  const digits = /^[0-9]+/.exec(s)?.[0];
  if (digits === undefined || (digits.length > 1 && digits[0] === "0")) return null;
  let n = 0;
  for (const d of digits) {
    if (n >= 1e8) {
      n = -1;
      break;
    }
    n = n * 10 + Number(d);
  }
  return { n, rest: s.slice(digits.length) };
}

/** collapse replaces the items above the topmost group or bar with one item. */
function collapse(stack: StackItem[]): void {
  let i = stack.length;
  while (i > 0 && stack[i - 1] !== "(" && stack[i - 1] !== "|") i--;
  const items = stack.splice(i) as Node[];
  stack.push(items.length === 1 ? items[0] : { subs: items });
}

function closeGroup(stack: StackItem[]): void {
  collapse(stack);
  if (stack.length >= 2 && stack[stack.length - 2] === "|") stack.splice(stack.length - 2, 1);
  const open = stack.lastIndexOf("(");
  if (open < 0) unparsable();
  const items = stack.splice(open).filter((s): s is Node => s !== "(" && s !== "|");
  stack.push({ subs: items });
}

/** perlFlags reads (?flags), (?flags:, (?P<name> and (?<name>: a group goes on the stack. */
function perlFlags(t: string, stack: StackItem[]): string {
  const named = (t.length > 4 && t.startsWith("(?P<")) || (t.length > 3 && t.startsWith("(?<"));
  if (named) {
    const end = t.indexOf(">");
    const name = t.slice(t[2] === "P" ? 4 : 3, end);
    if (end < 0 || !/^[A-Za-z0-9_]+$/.test(name)) unparsable();
    stack.push("(");
    return t.slice(end + 1);
  }
  let negated = false;
  let sawFlag = false;
  for (let i = 2; i < t.length; i++) {
    const c = t[i];
    if ("imsU".includes(c)) sawFlag = true;
    else if (c === "-" && !negated) [negated, sawFlag] = [true, false];
    else if ((c === ":" || c === ")") && (!negated || sawFlag)) {
      if (c === ":") stack.push("(");
      return t.slice(i + 1);
    } else break;
  }
  return unparsable();
}

/** parseEscapeItem reads an escape outside a class: an assertion, \Q…\E, a class or a character. */
function parseEscapeItem(t: string, stack: StackItem[]): string {
  const two = t.slice(0, 2);
  if (two === "\\A" || two === "\\b" || two === "\\B" || two === "\\z") {
    stack.push(leaf);
    return t.slice(2);
  }
  if (two === "\\C") unparsable();
  if (two === "\\Q") {
    const end = t.indexOf("\\E", 2);
    const literal = end < 0 ? t.slice(2) : t.slice(2, end);
    if (literal !== "") stack.push(leaf);
    return end < 0 ? "" : t.slice(end + 2);
  }
  stack.push(leaf);
  if (two === "\\p" || two === "\\P") return unicodeClass(t);
  if (perlClasses.has(two)) return t.slice(2);
  return parseEscape(t).rest;
}

/** unicodeClass reads \pN, \p{Name} or \p{^Name} (and \P): the name must be one RE2 knows. */
function unicodeClass(t: string): string {
  let name: string;
  let rest: string;
  if (t[2] === "{") {
    const end = t.indexOf("}");
    if (end < 0) unparsable();
    [name, rest] = [t.slice(3, end), t.slice(end + 1)];
  } else {
    const c = t.length > 2 ? String.fromCodePoint(t.codePointAt(2) ?? 0) : "";
    [name, rest] = [c, t.slice(2 + c.length)];
  }
  if (name.startsWith("^")) name = name.slice(1);
  if (!UNICODE_CLASSES.has(canonicalClassName(name))) unparsable();
  return rest;
}

/** canonicalClassName is how Go's regexp/syntax compares class names (ASCII only). */
function canonicalClassName(name: string): string {
  let out = "";
  for (const c of name) {
    if (c === "_" || c === "-" || c === " ") continue;
    out +=
      out === "" && c >= "a" && c <= "z" ? c.toUpperCase() : out !== "" && c >= "A" && c <= "Z" ? c.toLowerCase() : c;
  }
  return out;
}

/** parseClass reads a class at t ("[…"), returning what follows it. */
function parseClass(t: string): string {
  let s = t.slice(1);
  if (s.startsWith("^")) s = s.slice(1);
  for (let first = true; s === "" || s[0] !== "]" || first; first = false) {
    const two = s.slice(0, 2);
    if (two === "\\p" || two === "\\P") {
      s = unicodeClass(s);
      continue;
    }
    if (perlClasses.has(two)) {
      s = s.slice(2);
      continue;
    }
    const lo = classChar(s);
    s = lo.rest;
    if (s.length >= 2 && s[0] === "-" && s[1] !== "]") {
      const hi = classChar(s.slice(1));
      if (hi.rune < lo.rune) unparsable();
      s = hi.rest;
    }
  }
  return s.slice(1);
}

function classChar(s: string): { rune: number; rest: string } {
  if (s === "") unparsable();
  if (s[0] === "\\") return parseEscape(s);
  const rune = s.codePointAt(0) ?? 0;
  return { rune, rest: s.slice(rune > 0xffff ? 2 : 1) };
}

const cEscapes = new Map([
  ["a", 7],
  ["f", 12],
  ["n", 10],
  ["r", 13],
  ["t", 9],
  ["v", 11],
]);

/** parseEscape reads a one-character escape at s ("\…"): octal, \xHH, \x{…}, a C escape or
 * escaped punctuation. */
function parseEscape(s: string): { rune: number; rest: string } {
  if (s.length < 2) unparsable();
  const c = s[1];
  const octal = /^[0-7]{1,3}/.exec(s.slice(1));
  if (octal && (c === "0" || octal[0].length > 1))
    return { rune: parseInt(octal[0], 8), rest: s.slice(1 + octal[0].length) };
  const cEscape = cEscapes.get(c);
  if (cEscape !== undefined) return { rune: cEscape, rest: s.slice(2) };
  const hexBraces = /^x\{([0-9A-Fa-f]+)\}/.exec(s.slice(1));
  if (hexBraces) {
    const r = parseInt(hexBraces[1], 16);
    if (r <= 0x10ffff) return { rune: r, rest: s.slice(1 + hexBraces[0].length) };
  } else if (/^x[0-9A-Fa-f]{2}/.test(s.slice(1))) return { rune: parseInt(s.slice(2, 4), 16), rest: s.slice(4) };
  const p = s.codePointAt(1) ?? 0;
  if (p < 0x80 && !/^[0-9A-Za-z]$/.test(c)) return { rune: p, rest: s.slice(2) };
  return unparsable();
}
