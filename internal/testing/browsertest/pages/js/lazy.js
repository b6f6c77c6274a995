// When the module starts: each export returns plain data for lazy_test.go's TestLazyStart, which
// counts the requests the server answers meanwhile. None reads WebMCPBridge.ready, which would
// start the module by itself.

const door = () => WebMCPBridge[Symbol.for("webmcp-bridge.module")];

// idleThenPlainText waits for lazy.html's tools and two idle seconds, then answers the text of
// the plain-text tool called through executeTool, and how the refused schema was refused.
export async function idleThenPlainText() {
  await window.registered;
  await new Promise((r) => setTimeout(r, 2000));
  const tools = await document.modelContext.getTools();
  const text = JSON.parse(await document.modelContext.executeTool(tools.find((t) => t.name === "hello"), {})).content[0].text;
  return { Text: text, Refused: await window.refused };
}

// articleHTML answers the sanitized HTML of lazy.html's article tool, called through the agent
// side (the first call that needs the module).
export async function articleHTML() {
  const r = await WebMCPBridge.agent.callTool("article", {});
  return r.content[0].resource.text;
}

// search calls lazy.html's search tool through the agent side with each query and answers the
// texts.
export async function search(...queries) {
  const results = [];
  for (const q of queries) results.push(await WebMCPBridge.agent.callTool("search", { q }));
  return results.map((r) => r.content[0].text);
}

// where answers where the module runs: "worker", "main", or "" when none runs.
export function where() {
  return door().info().mode;
}

// startEager adds the loader with data-start="eager" to a page without it and answers whether
// the module runs within five seconds, without being asked.
export async function startEager() {
  const s = document.createElement("script");
  s.src = "../dist/webmcp-bridge.js";
  s.dataset.start = "eager";
  document.head.append(s);
  await new Promise((r) => (s.onload = r));
  for (let i = 0; i < 250; i++) {
    if (door().info().running) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}
