// webmcp-bridge in an extension (dist/webmcp-bridge-extension.js): the loader runs as a
// MAIN-world content script at document_start. There is no script element; the extension's
// isolated-world helper (page-link.ts, connectPage) hands over where the module is and a per-page
// secret in an attribute, read and removed first, and then talks to the bridge over a private
// MessageChannel (extension.ts, handoff.ts). Pages load the plain loader, which has none of this.
import "./builtins.ts"; // first: the built-ins are captured before any page script can run
import { connectExtension, refuseLateHandOff, takeExtensionHandOff } from "./extension.ts";
import { install } from "./bridge.ts";
import { announceInstalled } from "./installed.ts";
import { setStartGuard } from "./host.ts";

// A page's service worker is asked for the files a dedicated Worker of this page imports, the
// extension's too (measured in Chromium 156): on a page one controls, the bridge's Worker would
// run what the page's service worker answers. There the module does not start and the bridge
// steps aside; the panel and webmcp-mcp check every result themselves. The container and its
// controller getter are taken now, before any page script runs.
const serviceWorkers = (() => {
  try {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with Reflect.apply
    const get = Object.getOwnPropertyDescriptor(ServiceWorkerContainer.prototype, "controller")?.get;
    const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
    return get && container ? () => Reflect.apply(get, container, []) !== null : null;
  } catch {
    return null; // no service workers here (an insecure or opaque origin)
  }
})();

const handOff = takeExtensionHandOff();
if (handOff === "missing") refuseLateHandOff();
else if (handOff) {
  const { modelContext } = install({ assets: handOff.base });
  if (serviceWorkers) {
    const controlled = serviceWorkers;
    setStartGuard(() =>
      controlled()
        ? "a service worker controls this page, and it would be asked for the module's files " +
          "(the extension's too); the extension's panel and webmcp-mcp still check every result"
        : "",
    );
  }
  if (modelContext) {
    connectExtension(handOff, modelContext);
    announceInstalled(); // a page's React hook that waited for WebMCP registers now
  }
}
