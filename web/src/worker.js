// The bridge's dedicated Worker: it runs the Go module (see server.js) so that fetching,
// compiling, starting it and every normalization happen off the page's main thread.
import { serveModule } from "./server.js";

const handle = serveModule(self, async (url) => importScripts(url));
self.onmessage = async (e) => {
  const req = e.data;
  const a = await handle(req);
  a.id = req.id;
  self.postMessage(a);
};
