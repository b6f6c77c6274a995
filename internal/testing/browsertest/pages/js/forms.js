// Forms as tools (forms.html): what an agent may send is what a person could enter.

const tool = async (name) => {
  for (let i = 0; i < 100; i++) {
    const t = (await document.modelContext.getTools()).find((t) => t.name === name);
    if (t) return t;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("no tool " + name);
};

// call runs the signup tool with args: its answer, or the error's name.
async function call(args) {
  try {
    return JSON.parse(await document.modelContext.executeTool(await tool("signup"), args));
  } catch (e) {
    return { rejected: e.name };
  }
}

// constraints answers the signup tool's schema and what each call gives: lengths out of
// range, a disabled option, then two calls in a row (the second must not see the first's note).
export async function constraints() {
  const schema = (await tool("signup")).inputSchema;
  const results = {
    long: await call({ code: "x".repeat(500), plan: "free" }),
    short: await call({ code: "ab", plan: "free" }),
    disabled: await call({ code: "abcdefgh", plan: "staff" }),
    inGroup: await call({ code: "abcdefgh", plan: "old" }),
    longNote: await call({ code: "abcdefgh", plan: "free", note: "too long" }),
    first: await call({ code: "abcdefgh", plan: "pro", note: "hi" }),
    second: await call({ code: "abcdefghi" }),
  };
  return { schema, results, submitted: window.submitted };
}
