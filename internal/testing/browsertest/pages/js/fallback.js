// What a page that refuses unchecked results (data-fallback="refuse", setFallback("refuse"))
// answers where the module cannot run: for csp.html?fallback=refuse and csp-module.html.

// refused calls the three tools through executeTool first (their calls start the module, which
// cannot run), then reads ready, and answers what each gave and what the page was told.
export async function refused() {
  for (let i = 0; i < 500 && !window.registered; i++) await new Promise((r) => setTimeout(r, 10));
  const registered = await window.registered.then(() => "ok", (e) => "rejected: " + e);
  const mc = document.modelContext;
  const tools = await mc.getTools();
  const run = (name, args) => mc.executeTool(tools.find((t) => t.name === name), args).then((r) => JSON.parse(r), (e) => "rejected: " + e);
  const data = await run("data", {});
  const typed = await run("typed", { color: "red" });
  const hello = await run("hello", {});
  const ready = await WebMCPBridge.ready.then(() => "resolved", (e) => e.message);
  return {
    Ready: ready, Registered: registered, Hello: hello, Data: data, Typed: typed,
    Warnings: window.warnings.filter((w) => w.includes("webmcp-bridge")), Violations: window.violations,
  };
}

// fetchedOnce, on csp.html, calls a tool whose result needs the module and answers its
// structuredContent, how ready settled and the page's warnings about the bridge.
export async function fetchedOnce() {
  await window.registered;
  const mc = document.modelContext;
  const tools = await mc.getTools();
  const data = JSON.parse(await mc.executeTool(tools.find((t) => t.name === "data"), {}));
  const ready = await WebMCPBridge.ready.then(() => "resolved", (e) => e.message);
  return { Data: data.structuredContent ?? null, Ready: ready, Warnings: window.warnings.filter((w) => w.includes("webmcp-bridge")) };
}
