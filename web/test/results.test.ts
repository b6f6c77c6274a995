// results.ts: a tool's result as it leaves the page — plain text framed without the module,
// binaries as bytes, and the page told of what was removed.
import "./globals.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MESSAGE_PREFIX, TEXT_RESULT } from "../src/generated/boundary.ts";
import { POLICY_DEFAULTS } from "../src/generated/policy.ts";
import { hasBinaries, isBinary, normalize, passThrough, reportViolations, violationListeners } from "../src/results.ts";
import type { Violation } from "../src/types.ts";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const pngBase64 = Buffer.from(png).toString("base64");

describe("normalize of plain text", () => {
  it("frames a string as a text result without starting the module", async () => {
    const { head, body } = await normalize("hello\n<b>", "greet", false);
    assert.deepEqual(head, { violations: [] });
    assert.equal(body, TEXT_RESULT[0] + JSON.stringify("hello\n<b>") + TEXT_RESULT[1]);
    assert.deepEqual(JSON.parse(body), {
      content: [{ type: "text", text: "hello\n<b>" }],
      resultType: "complete",
    });
  });

  it("frames a {type: 'text', text} block the same way", async () => {
    const { body } = await normalize({ type: "text", text: "hi" }, "greet", false);
    assert.deepEqual(JSON.parse(body), { content: [{ type: "text", text: "hi" }], resultType: "complete" });
  });
});

describe("passThrough", () => {
  it("passes a string as it is and any other value as its JSON", async () => {
    assert.equal(await passThrough("<b>as written</b>"), "<b>as written</b>");
    assert.equal(await passThrough({ n: 1 }), '{"n":1}');
    assert.equal(await passThrough(Promise.resolve([1, 2])), "[1,2]");
  });

  it("gives a binary as an image block with a data: URL of its type", async () => {
    const out = JSON.parse(await passThrough(new Blob([png], { type: "image/png" }))) as unknown;
    assert.deepEqual(out, { type: "image", data: `data:image/png;base64,${pngBase64}` });
    const untyped = JSON.parse(await passThrough(png.buffer)) as unknown;
    assert.deepEqual(untyped, { type: "image", data: `data:application/octet-stream;base64,${pngBase64}` });
  });

  it("replaces binaries in a returned array and in an image block's data, keeping the rest", async () => {
    const blob = new Blob([png], { type: "image/png" });
    const out = JSON.parse(
      await passThrough(["caption", blob, { type: "image", data: blob, alt: "a dot" }]),
    ) as unknown;
    assert.deepEqual(out, [
      "caption",
      { type: "image", data: `data:image/png;base64,${pngBase64}` },
      { type: "image", data: `data:image/png;base64,${pngBase64}`, alt: "a dot" },
    ]);
  });

  it(`refuses a binary over maxImageBytes (${POLICY_DEFAULTS.maxImageBytes}) before reading it`, async () => {
    const big = new Blob([new Uint8Array(POLICY_DEFAULTS.maxImageBytes + 1)]);
    await assert.rejects(passThrough(big), {
      name: "RangeError",
      message: `the image is ${big.size} bytes, over the maxImageBytes limit of ${POLICY_DEFAULTS.maxImageBytes} bytes`,
    });
  });
});

describe("isBinary and hasBinaries", () => {
  it("tell the binaries a tool may return in place of an image block", () => {
    for (const v of [png, png.buffer, new DataView(png.buffer), new Blob([png])]) assert.ok(isBinary(v));
    for (const v of ["data:image/png;base64,AA==", [png], { data: png }, null]) assert.ok(!isBinary(v));
    assert.ok(hasBinaries([1, { type: "image", data: png }]));
    assert.ok(!hasBinaries([[png]]), "only the result, its items and their image blocks' data are looked at");
  });
});

describe("reportViolations", () => {
  const violation: Omit<Violation, "tool"> = {
    item: 0,
    type: "html",
    limit: "",
    reason: "script removed",
    notice: "[html: a script was removed]",
  };

  it("warns once per tool and reason, and tells the listeners and the page every time", (t) => {
    const warn = t.mock.method(console, "warn", () => {});
    const heard: Violation[] = [];
    const listener = (v: Violation): void => void heard.push(v);
    violationListeners.add(listener);
    t.after(() => violationListeners.delete(listener));
    const events: unknown[] = [];
    const onEvent = (e: Event): void => void events.push((e as CustomEvent).detail);
    window.addEventListener("webmcpbridgeviolation", onEvent);
    t.after(() => window.removeEventListener("webmcpbridgeviolation", onEvent));

    reportViolations("render", [violation]);
    reportViolations("render", [violation]);
    reportViolations("other", [violation]);

    assert.deepEqual(
      warn.mock.calls.map((c) => c.arguments[0] as string),
      [`${MESSAGE_PREFIX}tool "render": ${violation.notice}`, `${MESSAGE_PREFIX}tool "other": ${violation.notice}`],
    );
    assert.deepEqual(
      heard.map((v) => v.tool),
      ["render", "render", "other"],
    );
    assert.deepEqual(events, heard);
  });

  it("keeps a listener that throws from stopping the others", (t) => {
    t.mock.method(console, "warn", () => {});
    const error = t.mock.method(console, "error", () => {});
    let heard = 0;
    const bad = (): void => {
      throw new Error("listener bug");
    };
    const good = (): void => void heard++;
    violationListeners.add(bad);
    violationListeners.add(good);
    t.after(() => {
      violationListeners.delete(bad);
      violationListeners.delete(good);
    });
    reportViolations("t", [violation]);
    assert.equal(heard, 1);
    assert.equal(error.mock.callCount(), 1);
  });
});
