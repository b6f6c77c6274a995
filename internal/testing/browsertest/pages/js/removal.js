// What the page hears of removals: a tool whose html loses the same markup at every call.

// warnedOnce registers "card" (an article with a script and an onclick), calls it three times
// through executeTool, and answers the card's sanitized markup, the bridge's console warnings
// and the number of violation events.
export async function warnedOnce() {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...a) => { warnings.push(a.join(" ")); warn.apply(console, a); };
  let events = 0;
  addEventListener("webmcpbridgeviolation", () => events++);
  const card = `<article><header><h2>Soup</h2></header><section onclick="x()"><p>Boil <mark>gently</mark></p>` +
    `<script>window.ran = true</script></section><footer><time datetime="2026-11-25">today</time></footer></article>`;
  await document.modelContext.registerTool({ name: "card", description: "a card", execute: () => ({ type: "html", html: card }) });
  const tool = (await document.modelContext.getTools()).find((t) => t.name === "card");
  let html = "";
  for (let i = 0; i < 3; i++) html = JSON.parse(await document.modelContext.executeTool(tool, {})).content[0].resource.text;
  console.warn = warn;
  return { HTML: html, Warnings: warnings.filter((w) => w.includes("webmcp-bridge")), Events: events, Ran: !!window.ran };
}
