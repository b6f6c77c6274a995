// What a page pays for the bridge over its life: start-up, many calls, a panic in the module.
// Each export returns plain data for lifecycle_test.go to check; the test build's door gives the
// module's stats.

const door = () => WebMCPBridge[Symbol.for("webmcp-bridge.module")];
const stats = async () => JSON.parse(await door().call("stats"));

// startup inserts the loader's script tag into a page without it (empty.html), registers a tool
// on the line after it has loaded, and answers the milliseconds from the insertion to ready, and
// "ok" once the registration resolved.
export async function startup() {
  const t0 = performance.now();
  const s = document.createElement("script");
  s.src = "../dist/webmcp-bridge.js?" + Math.random();
  document.head.append(s);
  await new Promise((r) => (s.onload = r));
  const reg = document.modelContext.registerTool({ name: "startup_" + Math.random().toString(36).slice(2), description: "d", execute: () => "x" });
  await WebMCPBridge.ready;
  const ms = performance.now() - t0;
  await reg;
  return { ms, reg: "ok" };
}

// manyCalls makes n concurrent normalize calls of a little HTML through the module and answers
// its stats before and after.
export async function manyCalls(n) {
  await WebMCPBridge.ready;
  const before = await stats();
  const calls = [];
  for (let i = 0; i < n; i++) calls.push(door().call("normalize", JSON.stringify({ type: "html", html: "<b>" + i + "</b><script>x()</script>" }), "", [], false));
  await Promise.all(calls);
  const after = await stats();
  return { before, after };
}

// panicInModule calls the test build's panicForTest and answers the head of its answer frame,
// and the result of a tool called after it.
export async function panicInModule() {
  await window.registered;
  const out = await door().call("panicForTest");
  const head = JSON.parse(out.slice(0, out.indexOf("\n")));
  const after = await WebMCPBridge.agent.callTool("text", {});
  return { head, after };
}
