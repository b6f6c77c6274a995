// The demo's in-page agent: lists the page's tools, calls them through WebMCPBridge.agent and
// renders each normalized result with the renderer the extension panel uses too.
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
  WebMCPBridgeRender.toolList(await WebMCPBridge.agent.listTools(), $("tools"), async (tool, args) => {
    $("result-title").textContent = `Result of ${tool.name}`;
    const details = await WebMCPBridge.agent.callToolDetailed(tool.name, args);
    $("result").classList.remove("empty");
    WebMCPBridgeRender.render(details, $("result"));
    WebMCPBridgeRender.fitHTMLFrames($("result"));
    $("model").textContent = details.modelInput.text;
    // On a phone the result is below every tool: bring its title to the top unless it is in view.
    const title = $("result-title").getBoundingClientRect();
    if (title.top < 0 || title.bottom > innerHeight) $("result-title").scrollIntoView({ block: "start" });
    document.body.dataset.lastTool = tool.name;
  });
  let width = innerWidth;
  addEventListener("resize", () => { if (innerWidth !== width) { width = innerWidth; WebMCPBridgeRender.fitHTMLFrames($("result")); } });
  document.body.dataset.ready = "true";
})();
