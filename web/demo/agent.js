// The demo's in-page agent: lists the page's tools, builds a form from each inputSchema, calls
// the tool through WebMCPBridge.agent and renders the normalized result as the extension does.
"use strict";
(async () => {
  const $ = (id) => document.getElementById(id);
  const notices = $("notices");
  WebMCPBridge.onViolation((v) => {
    notices.querySelector(".none")?.remove();
    const li = document.createElement("li");
    const tag = document.createElement("span"); tag.className = "tool-tag"; tag.textContent = v.tool || "normalize";
    li.append(tag, v.notice);
    notices.prepend(li);
  });
  await WebMCPBridge.ready;
  await window.demoRegistered;
  $("status").textContent = `Bridge ${WebMCPBridge.version} · ${WebMCPBridge.native ? "wrapping native WebMCP" : "providing WebMCP"}`;
  $("status").classList.add("ok");
  const list = $("tools");
  for (const tool of await WebMCPBridge.agent.listTools()) {
    const card = document.createElement("div");
    card.className = "tool";
    card.dataset.tool = tool.name;
    const head = document.createElement("div"); head.className = "tool-head";
    const name = document.createElement("span"); name.className = "tool-name"; name.textContent = tool.name;
    const button = document.createElement("button"); button.textContent = "Call";
    head.append(name, button);
    const desc = document.createElement("p"); desc.className = "tool-desc"; desc.textContent = tool.description;
    const { form, read } = WebMCPBridgeRender.formFor(tool.inputSchema);
    card.append(head, desc, form);
    button.onclick = async () => {
      list.querySelectorAll(".tool").forEach((c) => c.classList.toggle("active", c === card));
      $("result-title").textContent = `Result of ${tool.name}`;
      const seen = [];
      const stop = WebMCPBridge.onViolation((v) => seen.push(v.notice));
      let result;
      try {
        result = await WebMCPBridge.agent.callTool(tool.name, read());
      } finally { stop(); }
      $("result").classList.remove("empty");
      WebMCPBridgeRender.render(result, $("result"), seen);
      $("model").textContent = (await WebMCPBridge.agent.toModelInput(result)).text;
      document.body.dataset.lastTool = tool.name;
    };
    list.append(card);
  }
  document.body.dataset.ready = "true";
})();
