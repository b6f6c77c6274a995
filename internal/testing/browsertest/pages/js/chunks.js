// The pattern checker as a chunk (chunks_test.go): the loader alone, then schemas with patterns.

// addLoader adds the loader to a page without it (empty.html) and waits for it.
export async function addLoader() {
  const s = document.createElement("script");
  s.src = "../dist/webmcp-bridge.js";
  document.head.append(s);
  await new Promise((r) => (s.onload = r));
  await new Promise((r) => setTimeout(r, 500));
  return typeof WebMCPBridge === "object";
}

const tool = (name, pattern) => ({
  name, description: "d", execute: () => "x",
  inputSchema: { type: "object", properties: { q: { type: "string", pattern } } },
});
const outcome = (p) => p.then(() => "registered", (e) => `${e.name}: ${e.message}${e.path ? " @" + e.path : ""}`);

// registerPatterns registers tools whose schemas have patterns — while the checker is still
// being fetched, one of them under a name another registration takes meanwhile — and answers
// how each went and the tools there are.
export async function registerPatterns() {
  const mc = document.modelContext;
  const first = outcome(mc.registerTool(tool("held", "^a+$")));
  const taken = outcome(mc.registerTool({ name: "held", description: "d", execute: () => "x" }));
  const good = outcome(mc.registerTool(tool("good", "^[a-z]+$")));
  const wrong = outcome(mc.registerTool(tool("wrong", "(a")));
  const ecmaOnly = outcome(mc.registerTool(tool("ecma_only", "(?=a)")));
  const answers = {
    first: await first, taken: await taken, good: await good, wrong: await wrong, ecmaOnly: await ecmaOnly,
  };
  const names = (await mc.getTools()).map((t) => t.name).sort();
  return { ...answers, names };
}
