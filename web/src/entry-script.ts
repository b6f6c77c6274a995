// webmcp-bridge for a <script> tag (dist/webmcp-bridge.js):
//   <script src=".../webmcp-bridge.js" [data-assets=URL] [data-start="eager"] [data-worker="off"]
//           [data-normalize="off"] [data-fallback="refuse"]></script>
// The module's files are found next to the script, or at data-assets. data-fallback="refuse":
// where the module cannot run, calls that need it answer an isError result instead of raw
// output. Without a document (the script imported into a Worker) it does nothing.
import "./builtins.ts"; // first: the built-ins are captured before any other code runs
import { install } from "./bridge.ts";
import { announceInstalled } from "./installed.ts";

if (typeof document !== "undefined") {
  const script = document.currentScript as HTMLScriptElement | null;
  const data = (script && script.dataset) || {};
  const { modelContext } = install({
    assets: data.assets || (script && script.src) || location.href,
    normalize: data.normalize !== "off",
    start: data.start === "eager" ? "eager" : "lazy",
    worker: data.worker !== "off",
    fallback: data.fallback === "refuse" ? "refuse" : "raw",
  });
  if (modelContext) announceInstalled();
}
