// encode.ts: what a tool's result, settings or a schema become on their way into the module, and
// what is refused before it crosses.
import "./globals.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encode, toJSON, tooLarge } from "../src/encode.ts";
import { MAX_NESTING } from "../src/generated/boundary.ts";
import { POLICY_DEFAULTS } from "../src/generated/policy.ts";

/** nested is a value of depth arrays, one inside the other. */
function nested(depth: number): unknown {
  let v: unknown = "end";
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe("encode", () => {
  it("writes a value as JSON.stringify does", () => {
    for (const v of [null, true, 0, -1.5, "héllo \u2028", [1, "two", { three: [] }], { a: { b: null } }]) {
      assert.equal(encode(v), JSON.stringify(v));
    }
  });

  it("writes undefined, which JSON.stringify leaves out, as null", () => {
    assert.equal(encode(undefined), "null");
  });

  it("writes a bigint as its digits, where JSON.stringify throws", () => {
    assert.equal(encode({ id: 12345678901234567890n }), '{"id":"12345678901234567890"}');
  });

  it("follows toJSON, as JSON.stringify does", () => {
    assert.equal(encode({ when: new Date(0) }), '{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it(`accepts ${MAX_NESTING} levels of arrays and objects and refuses one more`, () => {
    assert.equal(typeof encode(nested(MAX_NESTING)), "string");
    assert.deepEqual(encode(nested(MAX_NESTING + 1)), { refuse: "nesting", size: 0 });
  });

  it("refuses a value over maxResultBytes without serializing it", () => {
    // A sparse array of ten million holes is 50 MB of JSON ("null," each): it is refused as soon
    // as its length is seen.
    const sparse: unknown[] = [];
    sparse.length = 1e7;
    assert.deepEqual(encode(sparse), { refuse: "maxResultBytes", size: -1 });
    const big = "x".repeat(POLICY_DEFAULTS.maxResultBytes);
    assert.deepEqual(encode({ big }), { refuse: "maxResultBytes", size: -1 });
  });

  it("throws a TypeError for a value that contains itself", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    assert.throws(() => encode(loop), { name: "TypeError", message: /contains itself/ });
  });

  it("lets the same object appear twice when it does not contain itself", () => {
    const shared = { n: 1 };
    assert.equal(encode([shared, shared]), '[{"n":1},{"n":1}]');
  });
});

describe("tooLarge", () => {
  const max = POLICY_DEFAULTS.maxResultBytes;

  it("counts UTF-8 bytes, not UTF-16 units", () => {
    // "é" is one UTF-16 unit and two UTF-8 bytes: half the limit in characters is over it.
    const text = "é".repeat(max / 2 + 1);
    assert.deepEqual(tooLarge(text), { refuse: "maxResultBytes", size: max + 2 });
    assert.equal(tooLarge("é".repeat(max / 2)), null);
  });

  it("counts a surrogate pair as the four bytes of its character", () => {
    const text = "😀".repeat(max / 4 + 1); // two units, four bytes each time
    assert.deepEqual(tooLarge(text), { refuse: "maxResultBytes", size: max + 4 });
    assert.equal(tooLarge("😀".repeat(max / 4)), null, "exactly maxResultBytes is within it");
  });

  it("counts a lone surrogate as the three bytes of U+FFFD, which the module reads in its place", () => {
    assert.deepEqual(tooLarge("\ud83d".repeat(max / 3 + 1)), { refuse: "maxResultBytes", size: max + 2 });
  });
});

describe("toJSON", () => {
  it("says what was refused and the limit", () => {
    assert.throws(() => toJSON(nested(MAX_NESTING + 1), "the settings"), {
      name: "TypeError",
      message: `the settings is nested more than ${MAX_NESTING} levels deep (the limit)`,
    });
    assert.equal(toJSON({ maxTextChars: 10 }, "the settings"), '{"maxTextChars":10}');
  });
});
