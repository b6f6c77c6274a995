// proxyjson.html: the agent side calls a tool; the answer says the blocks it got, which of them
// carry the notice mark, where the module ran and what the page's forgeries reached.
export async function callThroughProxy() {
  await window.registered;
  const r = await WebMCPBridge.agent.callTool("text", {});
  const marked = r.content.filter((b) => b._meta && b._meta["webmcp-bridge/notice"] !== undefined).map((b) => b.text);
  const nativeLooking = Function.prototype.toString.call(JSON.parse).includes("[native code]");
  return { Texts: r.content.map((b) => b.text), Marked: marked, Forged: forged, NativeLooking: nativeLooking };
}
