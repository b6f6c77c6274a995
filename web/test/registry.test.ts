// registry.ts: the annotations getTools() gives for a tool, whatever the page wrote.
import "./globals.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hints } from "../src/registry.ts";

describe("hints", () => {
  it("gives every annotation the draft defines, false when the page left it out", () => {
    assert.deepEqual(hints({}), {
      consequentialHint: false,
      debugging: false,
      readOnlyHint: false,
      untrustedContentHint: false,
    });
  });

  it("reads truthy values as true, as the IDL's boolean conversion does", () => {
    assert.deepEqual(hints({ readOnlyHint: 1, consequentialHint: "yes", debugging: {}, untrustedContentHint: 0 }), {
      consequentialHint: true,
      debugging: true,
      readOnlyHint: true,
      untrustedContentHint: false,
    });
  });

  it("keeps nothing but the draft's members", () => {
    assert.deepEqual(Object.keys(hints({ readOnlyHint: true, destructiveHint: true, toString: 1 })).sort(), [
      "consequentialHint",
      "debugging",
      "readOnlyHint",
      "untrustedContentHint",
    ]);
  });
});
