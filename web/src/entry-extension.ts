// webmcp-bridge in an extension (dist/webmcp-bridge-extension.js): the loader runs as a
// MAIN-world content script at document_start. There is no script element; the extension's
// isolated-world helper (page-link.ts, connectPage) hands over where the module is and a per-page
// secret in an attribute, read and removed first, and then talks to the bridge over a private
// MessageChannel (extension.ts, handoff.ts). Pages load the plain loader, which has none of this.
import "./builtins.ts"; // first: the built-ins are captured before any page script can run
import { connectExtension, refuseLateHandOff, takeExtensionHandOff } from "./extension.ts";
import { install } from "./bridge.ts";
import { announceInstalled } from "./installed.ts";

const handOff = takeExtensionHandOff();
if (handOff === "missing") refuseLateHandOff();
else if (handOff) {
  const { modelContext } = install({ assets: handOff.base });
  if (modelContext) {
    connectExtension(handOff, modelContext);
    announceInstalled(); // a page's React hook that waited for WebMCP registers now
  }
}
