// The frames code as a chunk (frameschunk_test.go): a page of one document, then a child frame.

const tick = (ms) => new Promise((r) => setTimeout(r, ms));
const names = async () => (await document.modelContext.getTools()).map((t) => t.name).sort();

// alone registers a tool in a page without frames and answers the tools there are.
export async function alone() {
  await document.modelContext.registerTool({ name: "mine", description: "d", execute: () => "x" });
  await tick(300);
  return names();
}

// withChild adds a child frame with the bridge (frames-child.html), has it register a tool and
// answers the tools this page then lists.
export async function withChild() {
  const f = document.createElement("iframe");
  f.src = "/test/frames-child.html";
  document.body.append(f);
  await new Promise((r) => (f.onload = r));
  const replied = new Promise((r) => addEventListener("message", (e) => e.data && e.data.reply === 1 && r(e.data)));
  f.contentWindow.postMessage({ cmd: "register", id: 1, tool: { name: "kid", description: "d" } }, "*");
  await replied;
  for (let i = 0; i < 100; i++) {
    const list = await names();
    if (list.includes("kid")) return list;
    await tick(25);
  }
  return names();
}
