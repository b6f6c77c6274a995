// The side panel: lists the active tab's tools, calls a tool through the tab's relay, and
// normalizes the raw output again with the panel's own copy of the module before rendering it —
// the page is never trusted.
"use strict";
(async () => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);

  async function targetTab() {
    if (params.has("tabUrl")) { // tests open the panel as a tab and name the page to inspect
      const [t] = await chrome.tabs.query({ url: params.get("tabUrl") });
      return t;
    }
    const [t] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return t;
  }

  const ask = (tab, msg) => chrome.tabs.sendMessage(tab.id, { webmcpBridge: true, ...msg });

  async function load() {
    $("tools").replaceChildren();
    const tab = await targetTab();
    if (!tab) { $("status").textContent = "No tab to inspect."; return; }
    $("tab").textContent = new URL(tab.url).host;
    let answer;
    try { answer = await ask(tab, { op: "list" }); } catch (e) { answer = { error: "the bridge is not running in this tab (reload it?)" }; }
    if (!answer || answer.error) { $("status").textContent = (answer && answer.error) || "No answer from the tab."; return; }
    $("status").textContent = answer.tools.length ? `${answer.tools.length} tools` : "This page registers no tools.";
    WebMCPBridgeRender.toolList(answer.tools, $("tools"), (tool, args) => call(tab, tool.name, args));
    document.body.dataset.ready = "true";
  }

  async function call(tab, name, args) {
    $("output").hidden = false;
    $("result-title").textContent = `Result of ${name}`;
    const answer = await ask(tab, { op: "call", name, args });
    let details;
    if (!answer || answer.error) {
      const message = (answer && answer.error) || "no answer from the tab";
      details = { result: await WebMCPBridge.normalize({ type: "error", message, code: answer && answer.errorName }), violations: [] };
    } else {
      details = await WebMCPBridge.agent.parseToolOutput(answer.raw, name);
    }
    WebMCPBridgeRender.render(details, $("result"));
    $("notices").replaceChildren(...details.violations.map((v) => Object.assign(document.createElement("li"), { textContent: v.notice })));
    document.body.dataset.lastTool = name;
  }

  $("refresh").onclick = load;
  await WebMCPBridge.ready;
  load();
})();
