// patterns.ts: which ECMAScript patterns the module can run (as RE2), and why the others are
// refused.
import "./globals.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_PATTERN_LENGTH, MAX_PATTERN_REPETITION } from "../src/generated/keywords.ts";
import { patternProblem } from "../src/patterns.ts";

describe("patternProblem", () => {
  it("accepts the patterns forms and tools write", () => {
    for (const p of [
      "^\\d{5}(-\\d{4})?$",
      "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$",
      "\\p{L}+",
      "^\\S+$",
      "a.c",
      "[\\s\\S]",
    ])
      assert.equal(patternProblem(p), null, p);
  });

  it("names the ECMAScript-only feature RE2 cannot run", () => {
    for (const [p, feature] of [
      ["(?=a)", "lookahead"],
      ["(?!a)", "negative lookahead"],
      ["(?<=a)b", "lookbehind"],
      ["(?<!a)b", "negative lookbehind"],
      ["(a)\\1", "a backreference"],
    ])
      assert.deepEqual(patternProblem(p), { rule: "patternUses", args: [p, feature] }, p);
  });

  it("refuses what RE2 would not parse", () => {
    for (const p of ["[z-a]", "a{1000}{1000}"])
      assert.deepEqual(patternProblem(p), { rule: "patternWrong", args: [p] });
  });

  it(`refuses a pattern over ${MAX_PATTERN_LENGTH} characters, counting code points`, () => {
    assert.deepEqual(patternProblem("x".repeat(MAX_PATTERN_LENGTH + 1)), {
      rule: "patternLong",
      args: [MAX_PATTERN_LENGTH + 1, MAX_PATTERN_LENGTH],
    });
    assert.equal(patternProblem("😀".repeat(MAX_PATTERN_LENGTH)), null, "two UTF-16 units, one character each");
  });

  it(`refuses counted repetitions that write out more than ${MAX_PATTERN_REPETITION} items`, () => {
    assert.deepEqual(patternProblem("a{600}b{600}"), {
      rule: "patternRepetition",
      args: ["a{600}b{600}", 1200, MAX_PATTERN_REPETITION],
    });
    assert.equal(patternProblem("(a{10}){10}b{900}"), null, "100 + 900 items");
  });
});
