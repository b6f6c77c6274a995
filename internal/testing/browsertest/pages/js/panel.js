// The extension's side panel (web/extension/panel.html), driven as a person would: each export
// runs in the panel, opened as a tab pointed at a page, and returns plain data for the Go tests.
// The panel's CSP lets it import nothing from the test server, so runJSInline evaluates this
// file's text there: it imports nothing itself.

// until polls f every 20 ms and resolves true once f returns something truthy, or false after ms
// milliseconds.
const until = (f, ms = 5000) => new Promise((r) => {
  const t0 = Date.now();
  const t = setInterval(() => { const v = f(); if (v || Date.now() - t0 > ms) { clearInterval(t); r(!!v); } }, 20);
});

// readResult answers what the panel shows of its last result: its title, the origin it names,
// and its text.
function readResult() {
  return {
    title: document.querySelector("#result-title").textContent,
    from: (document.querySelector("#result-origin") || {}).textContent || "",
    text: document.querySelector("#result").innerText,
  };
}

// listAndCall waits for the panel's tool list, clicks the tool name and answers the tools
// listed, the origin the panel names, and the result: its text, its origin and its sandboxed
// frames.
export async function listAndCall(name) {
  await until(() => document.body.dataset.ready, 10000);
  const tools = [...document.querySelectorAll(".tool")].map((c) => c.dataset.tool);
  document.querySelector(`.tool[data-tool="${name}"] button`).click();
  await until(() => document.body.dataset.lastTool === name, 10000);
  const box = document.querySelector("#result");
  return {
    tools, origin: document.querySelector("#origin").textContent, frames: box.querySelectorAll("iframe[sandbox='']").length,
    text: box.innerText, from: document.querySelector("#result-origin").textContent,
  };
}

// listing waits (up to 10 s) for the panel's tool list — for wait.origin's, if given, or one
// with the tool wait.tool — and answers whether it came, the origin it names, the tools and
// greet's description.
export async function listing(wait = {}) {
  const ready = await until(() => document.body.dataset.ready &&
    (wait.origin === undefined || document.body.dataset.origin === wait.origin) &&
    (wait.tool === undefined || document.querySelector(`.tool[data-tool="${wait.tool}"]`)), 10000);
  const card = document.querySelector('.tool[data-tool="greet"]');
  return {
    ready, origin: (document.querySelector("#origin") || {}).textContent || "",
    tools: [...document.querySelectorAll(".tool")].map((c) => c.dataset.tool),
    desc: card ? card.querySelector(".tool-desc").textContent : "",
  };
}

// keepGreetButton keeps the button of the greet tool listed now, for callStale.
export function keepGreetButton() {
  window.staleButton = document.querySelector('.tool[data-tool="greet"] button');
  return true;
}

// callGreet clicks greet's button — the one keepGreetButton kept when stale, the one listed now
// otherwise — and answers whether a result came and what the panel shows of it.
export async function callGreet(stale) {
  delete document.body.dataset.lastTool;
  (stale ? window.staleButton : document.querySelector('.tool[data-tool="greet"] button')).click();
  const done = await until(() => document.body.dataset.lastTool === "greet");
  return { done, ...readResult() };
}

// relayWire speaks the relay's protocol from the panel to the tab showing pageURL, over two
// ports: a list, calls addressed to wrongOrigin, to no origin, from the port that never listed,
// and to the listed origin; it answers each answer and keeps the first port as window.wire.
export async function relayWire(pageURL, wrongOrigin) {
  const [tab] = await chrome.tabs.query({ url: pageURL });
  const connect = (tabId) => {
    const port = chrome.tabs.connect(tabId, { name: "webmcp-bridge-panel", frameId: 0 });
    let n = 0;
    const waiting = new Map();
    port.onMessage.addListener((m) => { if (waiting.has(m.id)) { waiting.get(m.id)(m); waiting.delete(m.id); } });
    port.onDisconnect.addListener(() => { void chrome.runtime.lastError; for (const r of waiting.values()) r({}); waiting.clear(); });
    const ask = (msg) => new Promise((r) => {
      const id = ++n;
      waiting.set(id, r);
      setTimeout(() => r({}), 5000);
      try { port.postMessage({ id, ...msg }); } catch (e) { r({}); }
    });
    return { port, ask, call: (origin) => ask({ op: "call", name: "greet", args: {}, origin }) };
  };
  const a = connect(tab.id), b = connect(tab.id);
  const list = await a.ask({ op: "list" });
  const wrong = await a.call(wrongOrigin);
  const noOrigin = await a.ask({ op: "call", name: "greet", args: {} });
  const unlisted = await b.call(list.origin);
  const right = await a.call(list.origin);
  window.wire = a;
  b.port.disconnect();
  return { list, wrong, noOrigin, unlisted, right };
}

// afterSwap, once the page has swapped greet for another tool of that name, calls greet through
// window.wire (listed before the swap, addressed to origin) and through the panel's button, and
// answers the wire's refusal and raw result, the description and text the panel shows, and
// whether the panel then lists the new tool.
export async function afterSwap(origin) {
  const old = await window.wire.call(origin);
  window.wire.port.disconnect();
  delete document.body.dataset.lastTool;
  const card = document.querySelector('.tool[data-tool="greet"]');
  const desc = card.querySelector(".tool-desc").textContent;
  card.querySelector("button").click();
  await until(() => document.body.dataset.lastTool === "greet");
  const text = document.querySelector("#result").innerText;
  const listed = await until(() => document.body.dataset.ready &&
    (document.querySelector('.tool[data-tool="greet"] .tool-desc') || {}).textContent === "Another greet, swapped in", 10000);
  return { refused: old.refused || "", raw: old.raw, desc, text, listed };
}

// allowOrigin turns on the switch that lets MCP clients use the listed origin's tools, once the
// panel lists that origin, as a person would.
export async function allowOrigin(origin) {
  const ready = await until(() => document.body.dataset.ready && document.body.dataset.origin === origin &&
    !document.querySelector("#allow-box").hidden, 10000);
  const box = document.querySelector("#allow");
  if (ready && !box.checked) box.click();
  return ready && box.checked;
}

// answerConfirm waits for an MCP client's question and answers it (yes: Run it, else Decline).
export async function answerConfirm(yes) {
  await until(() => document.querySelector(".confirm"), 15000);
  const box = document.querySelector(".confirm");
  if (!box) return null;
  const q = { tool: box.dataset.tool, where: box.querySelector("div").textContent, args: box.querySelector("pre").textContent };
  const button = box.querySelector(yes ? ".confirm-yes" : ".confirm-no");
  await until(() => !button.disabled, 5000); // a question just shown takes no click yet
  button.click();
  return q;
}

// callWith fills the named tool's form (values: field → text; "" leaves it empty), clicks Call
// and answers the result's text and the notices listed under it.
export async function callWith(name, values) {
  await until(() => document.body.dataset.ready && document.querySelector(`.tool[data-tool="${name}"]`), 10000);
  const card = document.querySelector(`.tool[data-tool="${name}"]`);
  for (const [field, value] of Object.entries(values)) {
    const label = [...card.querySelectorAll("label")].find((l) => l.textContent.replace(" *", "") === field);
    document.getElementById(label.htmlFor).value = value;
  }
  delete document.body.dataset.lastTool;
  card.querySelector("button").click();
  await until(() => document.body.dataset.lastTool === name, 10000);
  return { ...readResult(), notices: [...document.querySelectorAll("#notices li")].map((li) => li.textContent) };
}

// cancelRunning calls the named tool, waits until the panel shows its elapsed time and Cancel,
// clicks Cancel and answers what it showed meanwhile and the result.
export async function cancelRunning(name) {
  await until(() => document.body.dataset.ready && document.querySelector(`.tool[data-tool="${name}"]`), 10000);
  delete document.body.dataset.lastTool;
  document.querySelector(`.tool[data-tool="${name}"] button`).click();
  const cancel = document.querySelector("#cancel");
  const running = await until(() => !cancel.hidden && /^[0-9.]+ s$/.test(document.querySelector("#elapsed").textContent), 5000);
  await new Promise((r) => setTimeout(r, 300));
  const elapsed = document.querySelector("#elapsed").textContent;
  cancel.click();
  await until(() => document.body.dataset.lastTool === name, 10000);
  return { running, elapsed, cancelHidden: cancel.hidden, ...readResult() };
}

// questionLayout waits for n questions and answers how the first reads: its first line (class
// and text), its whole text, the title line's length, whether any control or format character
// is shown, and how far Run it is below the question's top (px).
export async function questionLayout(n) {
  await until(() => document.querySelectorAll(".confirm").length >= n, 15000);
  const box = document.querySelector(".confirm");
  const first = box.firstElementChild;
  const title = box.querySelector(".confirm-title");
  return {
    firstClass: first.className, firstText: first.textContent, text: box.textContent,
    titleChars: title ? [...title.textContent].length : -1,
    formatChars: /[\p{Cc}\p{Cf}]/u.test(box.textContent),
    runItBelow: box.querySelector(".confirm-yes").getBoundingClientRect().top - box.getBoundingClientRect().top,
  };
}

// clickWhereRunItWas notes where the first question's Run it is; when that question goes, it
// clicks that point at once (a click meant for it) and records what it hit (window.clickedAfter).
export function clickWhereRunItWas() {
  const first = document.querySelector(".confirm");
  const r = first.querySelector(".confirm-yes").getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  window.clickedAfter = null;
  const observer = new MutationObserver(() => {
    if (first.isConnected) return;
    observer.disconnect();
    const hit = document.elementFromPoint(x, y);
    hit?.click();
    window.clickedAfter = { hit: hit ? hit.className : "", question: hit?.closest(".confirm")?.dataset.key || "" };
  });
  observer.observe(document.getElementById("confirms"), { childList: true, subtree: true });
  return first.dataset.key;
}

// clickedAfter waits for clickWhereRunItWas's click and answers what it hit and how many
// questions are still shown.
export async function clickedAfter() {
  await until(() => window.clickedAfter, 15000);
  return { ...window.clickedAfter, left: document.querySelectorAll(".confirm").length };
}
