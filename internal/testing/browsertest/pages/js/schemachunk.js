// The schema checker as a chunk (schemachunk_test.go): a page that registers tools without a
// schema, a page that tries to hand the loader a chunk of its own, then schemas.

const outcome = (p) => p.then(() => "registered", (e) => `${e.name}: ${e.message}${e.path ? " @" + e.path : ""}`);

// registerPlain registers a tool without an inputSchema and lets a second pass.
export async function registerPlain() {
  const r = await outcome(document.modelContext.registerTool({ name: "plain", description: "d", execute: () => "x" }));
  await new Promise((r) => setTimeout(r, 300));
  return r;
}

// handOverFake tries what a hostile page could to feed the loader: it assigns a function to the
// global chunks hand themselves over through, and it adds the schema chunk's script itself, whose
// hand-over then runs while the page's element is the current script. Either taken would call it.
export async function handOverFake() {
  window.fakeChunkCalled = false;
  const fake = (needs, give) => {
    window.fakeChunkCalled = true;
    give({ checkSchema: () => null, NEEDS_PATTERNS: "" });
  };
  try {
    window.__webmcpBridgeChunk = fake;
  } catch {}
  const s = document.createElement("script");
  s.src = "/dist/webmcp-bridge-schema.js";
  document.head.append(s);
  await new Promise((r) => (s.onload = s.onerror = r));
  return window.fakeChunkCalled;
}

const tool = (name, inputSchema) => ({ name, description: "d", execute: () => "x", inputSchema });

// registerSchemas registers, at once, a tool whose schema the bridge cannot enforce, one whose
// schema it can, and one under the first name while its schema waits; then a second bad one.
export async function registerSchemas() {
  const mc = document.modelContext;
  const bad = outcome(mc.registerTool(tool("bad", { type: "object", additionalProperties: true })));
  const good = outcome(mc.registerTool(tool("good", { type: "object", properties: { q: { type: "string" } } })));
  const taken = outcome(mc.registerTool({ name: "good", description: "d", execute: () => "x" }));
  const answers = { bad: await bad, good: await good, taken: await taken };
  const later = await outcome(mc.registerTool(tool("later", { type: "object", properties: { q: { type: "strin" } } })));
  const names = (await mc.getTools()).map((t) => t.name).sort();
  return { ...answers, later, names, fakeCalled: window.fakeChunkCalled === true };
}
