// Frames and their tools: a page (frames-parent.html, on the first origin) embeds
// frames-child.html from its own origin and from another one (OTHER, the second origin) and
// drives them. Each scenario is an export that runs in the parent and answers plain JSON that
// frames_test.go compares with what the fallback must give.

const mc = () => document.modelContext;
let ids = 0;
const events = []; // {from: origin, event, …} the children reported
window.addEventListener("message", (e) => { if (e.data && e.data.event) events.push({ from: e.origin, ...e.data }); });
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
// within rejects when p has not settled after ms.
const within = (p, ms, what) => Promise.race([p, tick(ms).then(() => { throw new Error("timed out: " + what); })]);
// addFrame embeds frames-child.html from origin (with allow, if given) and answers {el, win, send}.
async function addFrame(origin, allow) {
  const el = document.createElement("iframe");
  if (allow !== undefined) el.allow = allow;
  el.src = origin + "/test/frames-child.html";
  const loaded = new Promise((r) => (el.onload = r));
  document.body.append(el);
  await loaded;
  await tick(100); // the bridges' hello and their answers
  const win = el.contentWindow;
  // send asks the child to do cmd; it resolves with the child's answer, or rejects with its error name.
  const send = (cmd, fields = {}) => new Promise((resolve, reject) => {
    const id = ++ids;
    const on = (e) => {
      if (e.source !== win || !e.data || e.data.reply !== id) return;
      window.removeEventListener("message", on);
      e.data.error ? reject(Object.assign(new Error(e.data.message), { name: e.data.error })) : resolve(e.data.value);
    };
    window.addEventListener("message", on);
    win.postMessage({ cmd, id, ...fields }, "*");
  });
  return { el, win, send };
}
// nextToolchange resolves at the parent's next toolchange.
const nextToolchange = () => new Promise((r) => mc().addEventListener("toolchange", r, { once: true }));
// waitEvent answers the first event a child reported that pred accepts, or null after ms.
const waitEvent = async (pred, ms = 3000) => { for (let i = 0; i < ms / 20; i++) { const e = events.find(pred); if (e) return e; await tick(20); } return null; };
// names are the names of the tools getTools(options) lists.
const names = async (options) => (await mc().getTools(options)).map((t) => t.name);

// sameOriginChildTool: a same-origin child's tool is the parent's, runs there, and goes with
// toolchange.
export async function sameOriginChildTool() {
  const f = await addFrame(location.origin);
  const changed = nextToolchange();
  await f.send("register", { tool: { name: "child_tool", description: "child" } });
  await within(changed, 3000, "toolchange in the parent");
  const t = (await mc().getTools()).find((t) => t.name === "child_tool");
  const out = { origin: t.origin, window: t.window === f.win, result: await mc().executeTool(t, {}) };
  const gone = nextToolchange();
  await f.send("unregister", { name: "child_tool" });
  await within(gone, 3000, "toolchange on unregistration");
  out.after = (await names()).includes("child_tool");
  f.el.remove();
  return out;
}

// parentToolInSameOriginChild: the parent's tools are a same-origin child's, and run for it.
export async function parentToolInSameOriginChild() {
  const c = new AbortController();
  await mc().registerTool({ name: "parent_tool", description: "p", inputSchema: { type: "object", properties: { q: { type: "string" } } }, execute: async () => "hello from parent" }, { signal: c.signal });
  const f = await addFrame(location.origin);
  const seen = (await f.send("getTools", {})).filter((t) => t.name === "parent_tool");
  const result = await f.send("execute", { name: "parent_tool" });
  c.abort();
  await tick(200);
  const after = (await f.send("getTools", {})).map((t) => t.name);
  f.el.remove();
  return { seen, result, after };
}

// crossOriginChildToolExposed: a cross-origin child's tool exposed to the parent is listed with
// fromOrigins, and runs.
export async function crossOriginChildToolExposed(OTHER) {
  const f = await addFrame(OTHER, "tools *");
  const changed = nextToolchange();
  await f.send("register", { tool: { name: "x_tool", description: "x" }, options: { exposedTo: [location.origin] } });
  await within(changed, 3000, "toolchange");
  const plain = (await names()).includes("x_tool");
  const t = (await mc().getTools({ fromOrigins: [OTHER] })).find((t) => t.name === "x_tool");
  const result = await mc().executeTool(t, {});
  f.el.remove();
  return { plain, origin: t.origin, window: t.window === f.win, result };
}

// abortReachesCrossOriginTool: the caller's abort reaches a cross-origin tool: its signal aborts
// and toolcancel fires there.
export async function abortReachesCrossOriginTool(OTHER) {
  const f = await addFrame(OTHER, "tools *");
  const changed = nextToolchange();
  await f.send("register", { tool: { name: "hang_tool", description: "h" }, options: { exposedTo: [location.origin] }, behavior: "hang" });
  await within(changed, 3000, "toolchange");
  const t = (await mc().getTools({ fromOrigins: [OTHER] })).find((t) => t.name === "hang_tool");
  const ctl = new AbortController();
  const p = mc().executeTool(t, {}, { signal: ctl.signal });
  const started = !!(await waitEvent((e) => e.event === "started" && e.name === "hang_tool"));
  ctl.abort("parent reason");
  let reason = null;
  try { await p; } catch (e) { reason = e; }
  const aborted = await waitEvent((e) => e.event === "aborted" && e.name === "hang_tool");
  const cancelled = !!(await waitEvent((e) => e.event === "toolcancel" && e.name === "hang_tool" && e.from === OTHER));
  f.el.remove();
  return { started, reason, aborted: aborted && aborted.reason, cancelled };
}

// crossOriginChildToolNotExposed: a cross-origin child's tool not exposed to the parent is neither
// listed nor run.
export async function crossOriginChildToolNotExposed(OTHER) {
  const f = await addFrame(OTHER, "tools *");
  await f.send("register", { tool: { name: "private_tool", description: "p" } });
  await tick(300);
  const listed = (await names({ fromOrigins: [OTHER] })).includes("private_tool");
  let error = null;
  try { await mc().executeTool({ name: "private_tool", description: "p", window: f.win, origin: OTHER }, {}); } catch (e) { error = e.name; }
  f.el.remove();
  return { listed, error };
}

// crossOriginChildWithoutAllow: a cross-origin child without allow=tools shares nothing with its
// parent (natively its calls fail with NotAllowedError).
export async function crossOriginChildWithoutAllow(OTHER) {
  const c = new AbortController();
  await mc().registerTool({ name: "offered_tool", description: "o", execute: async () => "no" }, { signal: c.signal, exposedTo: [OTHER] });
  const f = await addFrame(OTHER);
  let registered = "ok", childSees;
  try { await f.send("register", { tool: { name: "denied_tool", description: "d" }, options: { exposedTo: [location.origin] } }); } catch (e) { registered = e.name; }
  await tick(300);
  const listed = (await names({ fromOrigins: [OTHER] })).includes("denied_tool");
  try { childSees = (await f.send("getTools", { options: { fromOrigins: [location.origin] } })).map((t) => t.name).filter((n) => n !== "denied_tool"); } catch (e) { childSees = e.name; }
  c.abort();
  f.el.remove();
  return { listed, registered, childSees };
}

// parentToolExposedToCrossOriginChild: a parent tool exposed to a cross-origin child is its with
// fromOrigins, and runs for it; others are not.
export async function parentToolExposedToCrossOriginChild(OTHER) {
  const c = new AbortController();
  await mc().registerTool({ name: "shared_tool", description: "s", execute: async () => "hello from parent" }, { signal: c.signal, exposedTo: [OTHER] });
  await mc().registerTool({ name: "unshared_tool", description: "u", execute: async () => "no" }, { signal: c.signal });
  const f = await addFrame(OTHER, "tools *");
  const plain = (await f.send("getTools", {})).map((t) => t.name);
  const seen = (await f.send("getTools", { options: { fromOrigins: [location.origin] } })).map((t) => t.name + " " + t.origin);
  const result = await f.send("execute", { name: "shared_tool", options: { fromOrigins: [location.origin] } });
  c.abort();
  f.el.remove();
  return { plain, seen, result };
}

// frameGoesDuringCall: a call rejects with UnknownError when the frame that runs the tool goes.
export async function frameGoesDuringCall() {
  const f = await addFrame(location.origin);
  const changed = nextToolchange();
  await f.send("register", { tool: { name: "doomed_tool", description: "d" }, behavior: "hang" });
  await within(changed, 3000, "toolchange");
  const t = (await mc().getTools()).find((t) => t.name === "doomed_tool");
  const p = mc().executeTool(t, {});
  await waitEvent((e) => e.event === "started" && e.name === "doomed_tool");
  f.el.remove();
  let error = null;
  try { await within(p, 3000, "the call"); } catch (e) { error = e.name; }
  return { error, listed: (await names()).includes("doomed_tool") };
}

// callerFrameGoes: a tool's signal aborts, with toolcancel, when the frame that called it goes.
export async function callerFrameGoes() {
  let started, aborted = null, cancelled = false;
  const running = new Promise((r) => (started = r));
  const c = new AbortController();
  await mc().registerTool({ name: "long_tool", description: "l", execute: (a, { signal }) => { started(); signal.addEventListener("abort", () => (aborted = signal.reason && signal.reason.name)); return new Promise(() => {}); } }, { signal: c.signal });
  mc().addEventListener("toolcancel", (e) => { if (e.toolName === "long_tool") cancelled = true; });
  const f = await addFrame(location.origin);
  f.send("execute", { name: "long_tool" }).catch(() => {});
  await within(running, 3000, "the tool started");
  f.el.remove();
  for (let i = 0; i < 150 && !(aborted && cancelled); i++) await tick(20);
  c.abort();
  return { aborted, cancelled };
}

// sameOriginChildForm: a same-origin child's form is the parent's tool, and its response comes
// back.
export async function sameOriginChildForm() {
  const f = await addFrame(location.origin);
  const changed = nextToolchange();
  await f.send("form", { html: '<form toolname="child_form" tooldescription="A form" toolautosubmit><input name="q"></form>', respond: "form" });
  await within(changed, 3000, "toolchange");
  const t = (await mc().getTools()).find((t) => t.name === "child_form");
  const result = await mc().executeTool(t, { q: "hi" });
  f.el.remove();
  return { schema: t.inputSchema, result };
}

// forgedMessages: forged messages change nothing: a denied frame's tool list, another frame's
// results.
export async function forgedMessages(OTHER) {
  const bad = await addFrame(OTHER);
  await bad.send("forge", { message: { webmcpBridge: "tools", tools: [{ name: "forged_tool", description: "f", title: "" }] } });
  const good = await addFrame(location.origin);
  const changed = nextToolchange();
  await good.send("register", { tool: { name: "slow_tool", description: "s" }, behavior: "hang" });
  await within(changed, 3000, "toolchange");
  const ally = await addFrame(OTHER, "tools *");
  const t = (await mc().getTools()).find((t) => t.name === "slow_tool");
  let settled = "pending";
  mc().executeTool(t, {}).then((v) => (settled = "resolved " + v), (e) => (settled = "rejected " + e.name));
  await waitEvent((e) => e.event === "started" && e.name === "slow_tool");
  for (let id = 0; id < 20; id++) await ally.send("forge", { message: { webmcpBridge: "result", id, value: "forged" } });
  await tick(300);
  const out = { forgedListed: (await names({ fromOrigins: [OTHER] })).includes("forged_tool"), settled };
  for (const f of [bad, good, ally]) f.el.remove();
  return out;
}
