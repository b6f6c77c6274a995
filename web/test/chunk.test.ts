// chunk.ts: a chunk is fetched beside the loader, with its nonce, and only the script the loader
// added can hand it over, once; a page script can neither hand the loader a chunk of its own nor
// read one.
import "./globals.ts";
import { CHUNK_FILES, loaderLoaded, loaderScript, runAs, scriptsAdded, served } from "./page-double.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadChunk } from "../src/chunk.ts";

loaderLoaded();

const GLOBAL = "__webmcpBridgeChunk";
const g = globalThis as Record<string, unknown>;
const schemaURL = new URL(CHUNK_FILES["./schema-check.ts"], loaderScript.src).href;

/** handOver is what a built chunk's script does: hand the loader a function of its needs. */
const handOver = (exports: (needs: unknown) => unknown) => (): void => {
  g[GLOBAL] = (needs: unknown, give: (e: unknown) => void) => give(exports(needs));
};

describe("loadChunk", () => {
  it("gives what the bundled import gives, where chunks are bundled in", async () => {
    assert.deepEqual(await loadChunk("./schema-check.ts", null, () => Promise.resolve({ bundled: true })), {
      bundled: true,
    });
  });

  it("fetches the chunk beside the loader with its nonce, gives it the needs, and takes what it gives", async () => {
    served.set(
      schemaURL,
      handOver((needs) => ({ check: "schema", needs })),
    );
    const got = await loadChunk("./schema-check.ts", { captures: 1 }, null);
    assert.deepEqual(got, { check: "schema", needs: { captures: 1 } });
    const script = scriptsAdded.at(-1);
    assert.equal(script?.src, schemaURL);
    assert.equal(script?.nonce, "n0nce");
    assert.equal(script?.parent, null, "the script element is removed once the chunk is taken");
  });

  it("ignores a chunk handed over by any other script, and lets no script read one", async () => {
    const page = new (globalThis as unknown as { HTMLScriptElement: new () => object }).HTMLScriptElement();
    served.set(schemaURL, () => {
      // A page script runs first, while the loader waits, and offers a chunk of its own.
      runAs(
        page as never,
        handOver(() => ({ check: "forged" })),
      );
      handOver(() => ({ check: "schema" }))();
    });
    assert.deepEqual(await loadChunk("./schema-check.ts", null, null), { check: "schema" });
    assert.equal(g[GLOBAL], undefined, "the global reads as undefined");
  });

  it("takes a chunk once: a second hand-over from the same script is ignored", async () => {
    let calls = 0;
    served.set(schemaURL, () => {
      handOver(() => ({ call: ++calls }))();
      handOver(() => ({ call: ++calls }))();
    });
    assert.deepEqual(await loadChunk("./schema-check.ts", null, null), { call: 1 });
    assert.equal(calls, 1);
  });

  it("rejects where the chunk does not load or does not hand itself over", async () => {
    served.delete(schemaURL);
    await assert.rejects(loadChunk("./schema-check.ts", null, null), {
      message: "schema-chunk.js did not load",
    });
    served.set(schemaURL, () => {});
    await assert.rejects(loadChunk("./schema-check.ts", null, null), {
      message: "schema-chunk.js did not hand itself over",
    });
  });

  it("rejects a chunk whose code throws, with its error", async () => {
    served.set(schemaURL, () => {
      g[GLOBAL] = () => {
        throw new TypeError("chunk bug");
      };
    });
    await assert.rejects(loadChunk("./schema-check.ts", null, null), { name: "TypeError", message: "chunk bug" });
  });
});
