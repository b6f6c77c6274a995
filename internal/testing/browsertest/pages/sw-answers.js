// The page's service worker (sw.html): it answers every fetch its clients make, the bridge's too
// if it is asked them: any URL naming webmcp-bridge gets a chunk or module of the page's own,
// and it keeps every URL it was asked, for the page to read (a message "seen").
const seen = [];
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => {
  seen.push(e.request.url);
  if (!e.request.url.includes("webmcp-bridge")) return;
  const fake = e.request.url.endsWith(".wasm")
    ? new Response(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]), { headers: { "Content-Type": "application/wasm" } })
    : new Response("self.swForged = true; globalThis.__webmcpChunkGive?.({ checkSchema: () => null, NEEDS_PATTERNS: '' });",
      { headers: { "Content-Type": "text/javascript" } });
  e.respondWith(fake);
});
self.addEventListener("message", (e) => e.ports[0].postMessage(seen));
