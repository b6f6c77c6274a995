// A page that put setters on Array.prototype and Object.prototype and patched Map.prototype.set
// and Promise.prototype.then after the loader (prototype.html) registers a tool whose schema
// the bridge cannot enforce: it answers how registerTool ended and what the patches caught.
export async function registerNonsense() {
  window.armed = true;
  const outcome = await document.modelContext
    .registerTool({
      name: "nonsense",
      description: "d",
      execute: () => "x",
      inputSchema: { type: "object", properties: { q: { type: "nonsense-type" } } },
    })
    .then(
      () => "registered",
      (e) => `${e.name}: ${e.message}`,
    );
  window.armed = false;
  return { Outcome: outcome, Caught: window.caught };
}
