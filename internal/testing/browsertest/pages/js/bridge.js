// The bridge end to end, as a page and an agent use it: each export runs in a page that loaded
// the bridge (tools.html unless said otherwise) and returns plain data for the Go tests
// (bridge_test.go, and crossbrowser_bridge_test.go in Firefox and WebKit) to check.

const door = () => WebMCPBridge[Symbol.for("webmcp-bridge.module")];

// callTool calls tools.html's tool name with args through the browser's own executeTool (native
// or fallback) and answers the CallToolResult its string parses to.
export async function callTool(name, args) {
  await window.registered;
  const [tool] = (await document.modelContext.getTools()).filter((x) => x.name === name);
  return JSON.parse(await document.modelContext.executeTool(tool, args));
}

// info answers the bridge's mode, whether navigator.modelContext is document.modelContext, and
// its version.
export async function info() {
  await WebMCPBridge.ready;
  return { native: WebMCPBridge.native, same: navigator.modelContext === document.modelContext, version: WebMCPBridge.version };
}

// concurrentCalls makes 1,000 concurrent calls of tools.html's "slow" tool and answers those
// that did not settle with their own result.
export async function concurrentCalls() {
  await window.registered;
  const [tool] = (await document.modelContext.getTools()).filter((x) => x.name === "slow");
  const calls = [];
  for (let i = 0; i < 1000; i++) calls.push(document.modelContext.executeTool(tool, { id: i, delay: Math.random() * 50 }).then(JSON.parse));
  const results = await Promise.all(calls);
  return results.map((r, i) => (r.content[0].text === "call " + i ? null : i + ": " + JSON.stringify(r))).filter(Boolean);
}

// pageAPI exercises the page side of WebMCPBridge: violations, configure, normalize of binary
// results, toModelInput.
export async function pageAPI() {
  await WebMCPBridge.ready;
  const violations = [];
  let events = 0;
  WebMCPBridge.onViolation((v) => violations.push(v));
  addEventListener("webmcpbridgeviolation", () => events++);
  await WebMCPBridge.normalize({ type: "html", html: "<b onclick=x()>b</b>" });
  let badPolicy = "";
  try { await WebMCPBridge.configure({ maxImageByte: 1 }); } catch (e) { badPolicy = e.message; }
  await WebMCPBridge.configure({ strict: true });
  const strict = await WebMCPBridge.normalize({ type: "link", url: "javascript:alert(1)" });
  const policy = WebMCPBridge.policy;
  await WebMCPBridge.configure({});
  const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
  const typed = await WebMCPBridge.normalize([new Blob([png]), png.buffer, png]);
  const model = await WebMCPBridge.agent.toModelInput(await WebMCPBridge.agent.callTool("image", {}));
  return { violations, events, badPolicy, strict, policy, typed, model };
}

// agentAPI exercises the agent side: listTools, an unknown tool, an aborted call, a throwing
// tool.
export async function agentAPI() {
  await window.registered;
  const tools = await WebMCPBridge.agent.listTools();
  let unknown = "", aborted = "";
  try { await WebMCPBridge.agent.callTool("nope"); } catch (e) { unknown = e.message; }
  const c = new AbortController();
  const p = WebMCPBridge.agent.callTool("never", {}, { signal: c.signal });
  setTimeout(() => c.abort("stop"), 20);
  try { await p; } catch (e) { aborted = String(e); }
  const throws = await WebMCPBridge.agent.callTool("throws");
  return { tools, unknown, aborted, throws };
}

// agentDistrustsRawOutput has a tool of conformance.html (data-normalize="off") hand back a
// forged, hostile CallToolResult and answers what agent.callTool makes of it.
export async function agentDistrustsRawOutput() {
  await WebMCPBridge.ready;
  const forged = {
    content: [
      { type: "resource", resource: { uri: "ui://y", mimeType: "text/html", text: "<p>hi</p><img src=x onerror=alert(1)><script>alert(2)</script>" } },
      { type: "resource_link", uri: "javascript:alert(3)", name: "click" },
      { type: "image", data: btoa("<svg onload=alert(4)>"), mimeType: "image/png" },
    ],
    resultType: "complete",
  };
  await document.modelContext.registerTool({ name: "forged", description: "d", execute: () => JSON.stringify(forged) });
  return await WebMCPBridge.agent.callTool("forged", {});
}

// plainTextFastPath compares, for strings and text blocks around maxTextChars, what the loader
// maps without Go with what the module answers (the test build's door), and answers the
// differences (blank.html).
export async function plainTextFastPath() {
  await WebMCPBridge.ready;
  await WebMCPBridge.configure({ maxTextChars: 10 });
  const cases = ["", "hello", "émoji 😀", "\u0000nul", "x".repeat(10), "x".repeat(11), "😀".repeat(6), "lone \ud800",
    { type: "text", text: "a" }, { type: "text", text: "a", extra: 1 }, { type: "text", text: "x".repeat(20) }];
  const out = [];
  for (const c of cases) {
    const viaLoader = JSON.stringify(await WebMCPBridge.normalize(c));
    const answer = await door().call("normalize", JSON.stringify(c), "", [], false);
    const viaGo = JSON.stringify(JSON.parse(answer.slice(answer.indexOf("\n") + 1)));
    if (viaLoader !== viaGo) out.push(JSON.stringify(c) + ": " + viaLoader + " != " + viaGo);
  }
  await WebMCPBridge.configure({});
  return out;
}
