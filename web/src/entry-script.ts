// webmcp-bridge for a <script> tag (dist/webmcp-bridge.js):
//   <script src=".../webmcp-bridge.js" [data-assets=URL] [data-start="eager"] [data-worker="off"]
//           [data-normalize="off"]></script>
// The module's files are found next to the script, or at data-assets.
import "./builtins.ts"; // first: the built-ins are captured before any other code runs
import { install } from "./bridge.ts";

const script = document.currentScript as HTMLScriptElement | null;
const data = (script && script.dataset) || {};
install({
  assets: data.assets || (script && script.src) || location.href,
  normalize: data.normalize !== "off",
  start: data.start === "eager" ? "eager" : "lazy",
  worker: data.worker !== "off",
});
