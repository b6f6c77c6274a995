// schema-check.ts: whether registerTool accepts an inputSchema, decided in the page without the
// module, and the TypeError's words when it does not. (internal/testing/schemacheck holds it to
// bridge/inputschema's Compile over a corpus of thousands; these are the cases a page author meets.)
import "./globals.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_DEPTH } from "../src/generated/keywords.ts";
import { patternProblem } from "../src/patterns.ts";
import { checkSchema, NEEDS_PATTERNS } from "../src/schema-check.ts";

const refusal = (path: string, rule: string, reason: string) => ({
  path,
  rule,
  message: `registerTool: inputSchema${path}: ${reason}`,
});

describe("checkSchema", () => {
  it("accepts no schema, true, false, and the schemas tools write", () => {
    for (const schema of [
      undefined,
      null,
      true,
      false,
      {},
      {
        type: "object",
        title: "Search",
        properties: {
          q: { type: "string", minLength: 1, description: "what to look for" },
          limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
          tags: { type: "array", items: { enum: ["a", "b"] }, uniqueItems: true },
        },
        required: ["q"],
        additionalProperties: false,
      },
    ])
      assert.equal(checkSchema(schema), null, JSON.stringify(schema));
  });

  it("refuses a keyword it does not enforce rather than ignore it, saying where", () => {
    assert.deepEqual(
      checkSchema({ type: "object", properties: { a: { type: "string", frobnicate: 1 } } }),
      refusal(
        "/properties/a/frobnicate",
        "unknown",
        '"frobnicate" is not a keyword this bridge enforces, so it is refused rather than ignored',
      ),
    );
  });

  it("refuses references and formats, with the table's reason", () => {
    assert.deepEqual(
      checkSchema({ properties: { a: { type: "string", format: "email" } } }),
      refusal(
        "/properties/a/format",
        "excluded",
        "format is not supported (excluded from the WebMCP input schema subset)",
      ),
    );
    assert.deepEqual(
      checkSchema({ $ref: "#/$defs/x" }),
      refusal("/$ref", "excluded", "references are not supported (excluded from the WebMCP input schema subset)"),
    );
  });

  it("refuses a keyword whose value has the wrong shape", () => {
    assert.deepEqual(checkSchema({ required: "q" }), refusal("/required", "names", "must be an array of strings"));
    assert.deepEqual(
      checkSchema({ properties: { q: { type: "strin" } } }),
      refusal("/properties/q/type", "notAType", '"strin" is not a JSON Schema type'),
    );
    assert.deepEqual(
      checkSchema({ additionalProperties: true }),
      refusal("/additionalProperties", "false", "only additionalProperties: false is supported"),
    );
    assert.deepEqual(
      checkSchema("object"),
      refusal("", "notASchema", "a schema must be an object or a boolean, not string"),
    );
  });

  it(`refuses a schema nested more than ${MAX_DEPTH} levels deep before reading it`, () => {
    let deep: unknown = { type: "string" };
    for (let i = 0; i < MAX_DEPTH + 1; i++) deep = { not: deep };
    assert.deepEqual(
      checkSchema(deep),
      refusal("", "tooDeep", `nested more than ${MAX_DEPTH} levels deep (the limit)`),
    );
    assert.equal(checkSchema({ properties: { a: { not: { type: "string" } } } }), null);
  });

  it("asks for the pattern checker at the first pattern, and uses it when given", () => {
    const schema = { properties: { zip: { type: "string", pattern: "^\\d{5}$" } } };
    assert.equal(checkSchema(schema), NEEDS_PATTERNS);
    assert.equal(checkSchema(schema, patternProblem), null);
    assert.deepEqual(
      checkSchema({ pattern: "(?<=a)b" }, patternProblem),
      refusal(
        "/pattern",
        "patternUses",
        '"(?<=a)b" uses lookbehind, which this bridge does not support (ECMAScript-only regular expression syntax)',
      ),
    );
  });
});
