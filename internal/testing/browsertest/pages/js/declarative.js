// Declarative tools (forms) as an agent calls them: the export runs in declarative-tools.html
// and returns plain data for declarative_test.go to check.

// results waits for the page's three form tools, calls each through executeTool (greet with
// {who: "Ada"}) and answers, per tool, the string it resolved to or "rejected: <name>: <message>",
// and greet's inputSchema as JSON (as schema).
export async function results() {
  const mc = document.modelContext;
  for (let i = 0; i < 100 && (await mc.getTools()).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  const out = {};
  for (const [name, args] of [["greet", { who: "Ada" }], ["article", {}], ["broken", {}]]) {
    const tool = (await mc.getTools()).find((t) => t.name === name);
    try { out[name] = await mc.executeTool(tool, args); } catch (e) { out[name] = "rejected: " + e.name + ": " + e.message; }
  }
  out.schema = JSON.stringify((await mc.getTools()).find((t) => t.name === "greet").inputSchema);
  return out;
}
