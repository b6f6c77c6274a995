// Frames as a page with the bridge sees them when a child is hostile (hostile_frames_test.go).

const tick = (ms) => new Promise((r) => setTimeout(r, ms));

// hostileChild embeds frames-hostile-child.html from origin (allowed the tools feature), calls
// its tool through this page's executeTool and answers what this page hands an agent.
export async function hostileChild(origin) {
  const el = document.createElement("iframe");
  el.allow = "tools *";
  el.src = origin + "/test/frames-hostile-child.html?parent=" + encodeURIComponent(location.origin);
  const loaded = new Promise((r) => (el.onload = r));
  document.body.append(el);
  await loaded;
  let tool;
  for (let i = 0; i < 100 && !tool; i++) {
    tool = (await document.modelContext.getTools({ fromOrigins: [origin] })).find((t) => t.name === "child_raw");
    if (!tool) await tick(30);
  }
  if (!tool) throw new Error("the child's tool never showed");
  const raw = await document.modelContext.executeTool(tool, {});
  el.remove();
  return JSON.parse(raw);
}
