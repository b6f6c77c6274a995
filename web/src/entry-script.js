// webmcp-bridge for a <script> tag (dist/webmcp-bridge.js):
//   <script src=".../webmcp-bridge.js" [data-assets=URL] [data-start="eager"] [data-worker="off"]
//           [data-normalize="off"]></script>
// The module's files are found next to the script, or at data-assets.
import { takeExtensionHandOff } from "./extension.js";
import { install } from "./bridge.js";

// In the extension the loader runs as a MAIN-world content script at document_start: there is no
// script element, and the extension's isolated-world relay hands over where the module is and a
// per-page secret in an attribute. It is read and removed first, before anything that could
// return early, and the built-ins the hand-off uses are captured now, before any page script can
// replace them.
const extension = takeExtensionHandOff();
const script = document.currentScript;
const data = (script && script.dataset) || {};
install({
  assets: extension ? extension.base : data.assets || (script && script.src) || location.href,
  normalize: data.normalize !== "off",
  start: data.start === "eager" ? "eager" : "lazy",
  worker: data.worker !== "off",
  extension,
});
