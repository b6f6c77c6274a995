// The forms code as a chunk (formschunk_test.go): a page without a tool form, then one.

const mc = () => document.modelContext;
const tick = (ms) => new Promise((r) => setTimeout(r, ms));

// plainForm adds a form that is no tool, and waits.
export async function plainForm() {
  document.body.insertAdjacentHTML("beforeend", `<form id="plain"><input name="q"><button>Go</button></form>`);
  await tick(300);
  return (await mc().getTools()).length;
}

// toolForm adds a form with a toolname whose submit handler answers with the query, waits for its
// tool, calls it as an agent would (submitted at once: toolautosubmit) and answers what the tool was and what the call gave.
export async function toolForm() {
  document.body.insertAdjacentHTML(
    "beforeend",
    `<form toolname="find" tooldescription="Find things" toolautosubmit><input name="query" required><button>Go</button></form>`,
  );
  const f = document.querySelector("form[toolname=find]");
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    e.respondWith(Promise.resolve("found " + f.query.value + " " + e.agentInvoked));
  });
  for (let i = 0; i < 200; i++) {
    const t = (await mc().getTools()).find((t) => t.name === "find");
    if (t) {
      const result = await mc().executeTool(t, { query: "x" });
      return { description: t.description, schema: JSON.stringify(t.inputSchema), result: String(result) };
    }
    await tick(25);
  }
  throw new Error("no tool find");
}
