// The loader's realm check (loadframe_test.go).

const tick = (ms) => new Promise((r) => setTimeout(r, ms));

// atLoad answers the frames a MutationObserver saw the loader add while a page with three tools
// loaded and idled, and how long the loader's script took.
export async function atLoad() {
  await tick(500);
  return { frames: window.framesSeen.length, loaderMs: window.loaderMs };
}

// afterCall calls a tool (its result crosses JSON) and answers the frames seen until then and
// the result.
export async function afterCall() {
  const t = (await document.modelContext.getTools()).find((t) => t.name === "a");
  const result = await document.modelContext.executeTool(t, {});
  await tick(100);
  return { frames: window.framesSeen.length, result: String(result) };
}

// frameCheckMs is what one fresh realm costs the page's thread, as the loader's check makes one:
// an iframe added, its Function.prototype.toString read, removed (the median of 21).
export function frameCheckMs() {
  const runs = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    const f = document.createElement("iframe");
    document.documentElement.appendChild(f);
    const show = f.contentWindow.Function.prototype.toString;
    Reflect.apply(show, JSON.parse, []);
    f.remove();
    runs.push(performance.now() - t0);
  }
  return runs.sort((a, b) => a - b)[10];
}
