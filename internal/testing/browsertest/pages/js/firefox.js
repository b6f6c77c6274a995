// Firefox ESR's native WebMCP prototype with the bridge (crossbrowser_firefox_test.go, on
// firefox-native.html, which kept Firefox's own ModelContext as window.firefoxModelContext).

// nativePrototype registers a tool through the page's API, runs it through executeTool and
// through Firefox's own invokeTool (what Firefox's agent uses), then aborts it.
export async function nativePrototype() {
  const firefox = window.firefoxModelContext;
  const ac = new AbortController();
  await document.modelContext.registerTool({
    name: "page", description: "html", inputSchema: { type: "object", properties: {} },
    execute: () => ({ type: "html", html: "<b>x</b><script>alert(1)</script>" }),
  }, { signal: ac.signal });
  const tool = (await document.modelContext.getTools()).find((t) => t.name === "page");
  const executed = JSON.parse(await document.modelContext.executeTool(tool, {}));
  const invoked = firefox ? await firefox.invokeTool("page", {}) : null;
  ac.abort();
  await new Promise((r) => setTimeout(r, 50));
  const after = firefox ? (await firefox.getTools()).map((t) => t.name) : ["no native registry"];
  return { same: navigator.modelContext === document.modelContext, native: WebMCPBridge.native, executed, invoked, after };
}
