// The one guarded flow of a tool, for the native wrapper (native.ts) and the fallback
// (modelcontext.ts) alike: check the schema at registration (on the page, from the generated
// keyword table; the pattern checker is fetched with the first schema that has a pattern),
// validate a call's arguments in the module, run the tool, normalize its result in the module;
// the callers release the compiled schema when the tool
// goes (host.releaseSchema).
// A call crosses into the module at most twice: once to validate (tools with a schema), once
// for the result (normalized, or the isError result of a throw).
import { checkInput, defaultPolicy, newSchema, refusal, state, type SchemaRef } from "./host.ts";
import { toJSON } from "./encode.ts";
import type { PatternCheck } from "./schema-check.ts";
import { importChunk, loadChunk } from "./chunk.ts";
import { errorBlock, errorResult, normalize, passThrough, reread, type NormalizedHead } from "./results.ts";
import { call, hasOwn, isArray, keys, parse, then } from "./builtins.ts";
import { MESSAGE_PREFIX } from "./generated/boundary.ts";

/** A tool's schema as registration sees it: none, checked JSON, or text it does not check (a
 * toJSON that returns a string, accepted unchecked as native WebMCP accepts it). */
export interface SchemaCheck {
  text: string | undefined;
  schema: SchemaRef | null;
}

/** checkToolSchema decides at registration whether a tool's inputSchema is within the enforced
 * subset, without the module: a schema the bridge cannot enforce is a TypeError that says where
 * and why (its path rides along). Cycles, depth and size are TypeErrors too. The answer is at
 * once, or, for the first schemas, a promise of it: the schema checker (in the script build, a
 * chunk) is fetched with the first schema, the pattern checker with the first pattern (a page
 * whose Content Security Policy refuses them leaves the check to the module, which refuses the
 * schema at the first call). */
export function checkToolSchema(inputSchema: unknown, what = "registerTool: inputSchema"): SchemaCheck | PendingCheck {
  if (inputSchema === undefined) return { text: undefined, schema: null };
  const text = toJSON(inputSchema, what);
  if (text === "null") throw new TypeError(what + " is not JSON");
  if (!/^[{[]/.test(text)) return { text, schema: null };
  const value: unknown = parse(text);
  const decide = (check: PatternCheck | null): SchemaCheck | null => {
    if (!checker) return null;
    const problem = checker.checkSchema(value, check);
    if (problem === checker.NEEDS_PATTERNS) return null;
    if (problem) throw Object.assign(new TypeError(problem.message), { path: problem.path });
    return { text, schema: newSchema(text) };
  };
  const unchecked = (): SchemaCheck => ({ text, schema: newSchema(text) }); // the module checks it
  const withPatterns = (): Promise<SchemaCheck> =>
    checker ? loadPatterns().then((check) => decide(check) ?? unchecked()) : Promise.resolve(unchecked());
  return (
    decide(patternCheck) ?? {
      pending: call(then, loadChecker(), () => decide(patternCheck) ?? withPatterns()) as Promise<SchemaCheck>,
    }
  );
}

/** A check that waits for the schema or the pattern checker. */
interface PendingCheck {
  pending: Promise<SchemaCheck>;
}

/** isPending tells a check that waits (read as an own member: a page cannot fake one). */
export const isPending = (c: SchemaCheck | PendingCheck): c is PendingCheck => hasOwn(c, "pending");

/** What the schema checker's chunk (chunk-schema.ts) gives. */
type SchemaChecker = Pick<typeof import("./schema-check.ts"), "checkSchema" | "NEEDS_PATTERNS">;

let checker: SchemaChecker | null = null;
let checkerLoading: Promise<unknown> | null = null;
let patternCheck: PatternCheck | null = null;
let patternsLoading: Promise<PatternCheck | null> | null = null;

/** loadChecker fetches the schema checker once (checker stays null when it cannot be loaded). */
function loadChecker(): Promise<unknown> {
  checkerLoading ??= call(
    then,
    loadChunk<SchemaChecker>("./schema-check.ts", null, __WEBMCP_CHUNKED__ ? null : () => import("./schema-check.ts")),
    (c: SchemaChecker) => (checker = c),
    notLoaded("schema"),
  );
  return checkerLoading;
}

/** What the pattern checker's chunk gives (patterns.ts). */
type PatternsCode = typeof import("./patterns.ts");

/** loadPatterns fetches the pattern checker once: null when it cannot be loaded. */
function loadPatterns(): Promise<PatternCheck | null> {
  patternsLoading ??= call(
    then,
    __WEBMCP_CHUNKED__ ? importChunk<PatternsCode>("./patterns.ts") : import("./patterns.ts"),
    (m: PatternsCode) => (patternCheck = m.patternProblem),
    notLoaded("pattern"),
  );
  return patternsLoading;
}

const notLoaded = (what: string) => (e: unknown) => {
  console.warn(`${MESSAGE_PREFIX}the ${what} checker did not load (${String(e)}); the module checks ${what}s`);
  return null;
};

/** The module is needed and cannot run: tools then work as the page wrote them, unless the page
 * refuses unchecked results (refusal() then answers instead). */
const unavailable = (): boolean => state.unavailable !== null && refusal() === null;

/** What a guarded call gives: the result text for the agent, or an error to throw (the
 * arguments failed their schema and results are raw: a DataError, as native WebMCP throws). */
type Outcome = { text: string | null; head?: NormalizedHead } | { error: Error };

/** agentCalls counts the agent side's calls under way per tool: their results come back with the
 * model input, so the agent side needs no crossing of its own (see agent.ts). */
export const agentCalls = new Map<string, number>();

// agentHeads holds, for a short while, what the module said of the results of the agent side's
// calls, by their exact text: a raw output identical to one of them was produced by the module.
// At most 8 are kept (kept: their texts, in a ring), none over 4 MiB of text (a larger one is read
// again: one more crossing). Objects without a prototype: a later script's Map.prototype.get
// cannot pass the page's own text off as the module's.
const agentHeads = { __proto__: null } as unknown as Record<string, NormalizedHead>,
  kept = { __proto__: null } as unknown as Record<number, string>;
let keptAt = 0;
const AGENT_HEADS_KEPT = 8,
  AGENT_HEAD_MAX_CHARS = 4 << 20;
function keepAgentHead(out: Outcome, forAgent: boolean): Outcome {
  if (
    !forAgent ||
    !("text" in out) ||
    out.text === null ||
    out.text.length > AGENT_HEAD_MAX_CHARS ||
    !out.head ||
    !out.head.modelInput
  )
    return out;
  const slot = keptAt++ % AGENT_HEADS_KEPT,
    old = kept[slot];
  if (old !== undefined) delete agentHeads[old];
  kept[slot] = out.text;
  agentHeads[out.text] = out.head;
  return out;
}

/** takeAgentHead is what the module said of the result whose text is raw, once. */
export function takeAgentHead(raw: string): NormalizedHead | undefined {
  const head = agentHeads[raw];
  delete agentHeads[raw];
  return head;
}

/** preparedHook, set by the extension's hand-off alone (extension.ts; the page's script has no
 * such calls), says whether a call of the tool name that starts now hands on its value prepared,
 * not normalized, for an agent that normalizes it itself (runPrepared). */
export const preparedHook: { take: ((name: string) => boolean) | null } = { take: null };

// checkedCalls are the calls webmcp-mcp announced through its private door (the extension's
// hand-off, extension.ts; under -open, the isolated world's port, internal/devtools/inject.js):
// each says that its arguments, exactly the text args, passed the tool's schema, the JSON text
// schema, in a check webmcp-mcp made natively with the module's own validator and the default
// limits. A call of the tool whose arguments are that text, while the tool's schema is that
// schema and the page's policy the default one, skips the module's check (takeChecked): the
// module does not start for it. Whoever runs such a call runs arguments that were checked
// against the schema the tool has, so a page script that takes one first gains nothing. At most
// CHECKED_KEPT are kept, in a ring; objects without a prototype, read by index: no setter or
// method a page script patches is reached.
const checkedCalls = { __proto__: null } as unknown as Record<number, { name: string; schema: string; args: string }>;
let checkedAt = 0;
const CHECKED_KEPT = 16;

/** expectChecked announces a call of the tool name with arguments args (JSON text) that passed
 * schema (JSON text) natively; the returned function withdraws it (the call did not run). Only
 * webmcp-mcp's private doors call it: no page script can reach it. */
export function expectChecked(name: string, schema: string, args: string): () => void {
  const slot = checkedAt++ % CHECKED_KEPT,
    entry = { name, schema, args };
  checkedCalls[slot] = entry;
  return () => {
    if (checkedCalls[slot] === entry) delete checkedCalls[slot];
  };
}

// webmcp-mcp's loader (the raw-results build) runs inside internal/devtools/inject.js, whose
// scope declares webmcpMcpDoor: the loader hands expectChecked to that script's door there, a
// binding no page script can reach. It does so only where it runs as that script (no script
// element), and no other build has this code.
declare const webmcpMcpDoor: { arm: typeof expectChecked | null; warm: typeof warmForCalls | null } | undefined;
if (
  __WEBMCP_RAW_RESULTS__ &&
  typeof webmcpMcpDoor === "object" &&
  webmcpMcpDoor !== null &&
  typeof document !== "undefined" &&
  !document.currentScript
) {
  webmcpMcpDoor.arm = expectChecked;
  webmcpMcpDoor.warm = warmForCalls;
}

/** warmForCalls makes now what every call needs and the loader makes on its first need: the
 * fresh realm whose JSON reads a call's arguments (builtins.ts, loadersJSON), which costs tens
 * of milliseconds. An agent that lists a page's tools (webmcp-mcp, through its door or the
 * extension's hand-off) says so, so that its first call costs no more than the next ones. */
export function warmForCalls(): void {
  parse("0");
}

// takeChecked takes the announced call that matches, if any.
function takeChecked(name: string, schema: SchemaRef, argsJSON: string): boolean {
  if (!defaultPolicy()) return false;
  for (let i = 0; i < CHECKED_KEPT; i++) {
    const c = checkedCalls[i];
    if (c && c.name === name && c.args === argsJSON && sameSchema(c.schema, schema)) {
      delete checkedCalls[i];
      return true;
    }
  }
  return false;
}

// sameSchemaText holds, by schema key, the last announced text found to be that schema.
const sameSchemaText = { __proto__: null } as unknown as Record<number, string>;

// sameSchema says whether text is the tool's schema: the same JSON value, members in any order
// (webmcp-mcp reads a schema as Go does and writes it again, its members sorted).
function sameSchema(text: string, schema: SchemaRef): boolean {
  if (text === schema.json || sameSchemaText[schema.key] === text) return true;
  let same = false;
  try {
    same = sameJSON(parse(text), parse(schema.json));
  } catch {
    /* not JSON: not the same */
  }
  if (same) sameSchemaText[schema.key] = text;
  return same;
}

// sameJSON compares two parsed JSON values (own members only: they come from JSON.parse).
function sameJSON(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (isArray(a) !== isArray(b)) return false;
  const ka = keys(a),
    kb = keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (!hasOwn(b, k) || !sameJSON((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

// runPrepared is a call whose value goes out prepared: the arguments checked as always, then the
// tool's value as webmcp-mcp's loader gives it (binaries as data: URLs; a throw, or arguments
// that fail their schema, as an error block), never the module's result with its notices.
async function runPrepared(
  name: string,
  schema: SchemaRef | null,
  args: string | (() => string),
  run: (args: Record<string, unknown>) => unknown,
): Promise<Outcome> {
  try {
    const out = await guarded(name, schema, typeof args === "string" ? args : args(), false, run, false);
    return "error" in out ? { text: errorBlock(out.error) } : out;
  } catch (e) {
    return { text: errorBlock(e) };
  }
}

/** runGuarded is the flow of one call: args gives the arguments' JSON text (or throws: too deep,
 * too large, a cycle); run runs the tool with the arguments read back from that text, so the
 * tool gets exactly what was validated. With normalizeOn false, results are raw (the tool's own
 * value as native WebMCP passes it). */
export async function runGuarded(
  name: string,
  schema: SchemaRef | null,
  args: string | (() => string),
  normalizeOn: boolean,
  run: (args: Record<string, unknown>) => unknown,
): Promise<Outcome> {
  if (!__WEBMCP_CHUNKED__ && normalizeOn && preparedHook.take?.(name)) return runPrepared(name, schema, args, run);
  const forAgent = normalizeOn && (agentCalls.get(name) ?? 0) > 0;
  try {
    return keepAgentHead(await guarded(name, schema, args, normalizeOn, run, forAgent), forAgent);
  } catch (e) {
    const refused = normalizeOn && refusal();
    if (refused) return { text: refused };
    throw e;
  }
}

async function guarded(
  name: string,
  schema: SchemaRef | null,
  args: string | (() => string),
  normalizeOn: boolean,
  run: (args: Record<string, unknown>) => unknown,
  forAgent: boolean,
): Promise<Outcome> {
  let argsJSON: string;
  try {
    argsJSON = typeof args === "string" ? args : args();
  } catch (e) {
    return failed(e, forAgent);
  }
  // The page's script (chunked) has no door: only the extension's and webmcp-mcp's loaders do.
  if (schema && !unavailable() && (__WEBMCP_CHUNKED__ || !takeChecked(name, schema, argsJSON))) {
    let invalid = null;
    try {
      invalid = await checkInput<NormalizedHead>(schema, argsJSON, forAgent);
    } catch (e) {
      if (!unavailable()) return failed(e, forAgent);
    }
    if (invalid)
      return normalizeOn
        ? { text: invalid.body, head: invalid.head }
        : { error: new DOMException(invalid.message, "DataError") };
  }
  let value: unknown;
  try {
    value = await run(parse(argsJSON) as Record<string, unknown>);
  } catch (e) {
    if (!normalizeOn) throw e;
    return failed(e, forAgent);
  }
  if (!normalizeOn) return { text: await rawText(value) };
  if (unavailable()) return { text: await passThrough(value) };
  try {
    const { head, body } = await normalize(value, name, forAgent);
    return { text: body, head };
  } catch (e) {
    if (unavailable()) return { text: await passThrough(value) };
    return failed(e, forAgent);
  }
}

// rawText is what native WebMCP hands an agent for a tool's value: strings as they are, anything
// else as JSON (undefined as "undefined"; binaries, which JSON would make {}, as data: URLs, as
// the bridge's content.image gives them); a form whose submission navigated (a symbol) gives null.
const rawText = async (v: unknown): Promise<string | null> =>
  v === undefined ? "undefined" : typeof v === "symbol" ? null : passThrough(v);

// failed is the isError result for e; where the module cannot run, e is thrown on.
async function failed(e: unknown, forAgent: boolean): Promise<Outcome> {
  try {
    const { head, body } = await errorResult(e, forAgent);
    return { text: body, head };
  } catch (e2) {
    throw unavailable() ? e : e2;
  }
}

/** normalizeForeign is what this page hands an agent for another frame's result: the raw text
 * that frame sent, normalized again by this page's module, trusting nothing (where the module
 * cannot run, as it came). */
export async function normalizeForeign(raw: string | null, tool: string): Promise<string | null> {
  if (raw === null || unavailable()) return raw;
  try {
    return (await reread(raw, tool)).body;
  } catch (e) {
    if (unavailable()) return raw;
    const refused = refusal();
    if (refused) return refused;
    throw e;
  }
}

/** normalizeValue is WebMCPBridge.normalize: any value as a CallToolResult's JSON text. */
export async function normalizeValue(value: unknown): Promise<string> {
  return (await normalize(value, "", false, false)).body;
}
