// A page author's app: the bridge imported from the npm package, bundled by Vite. With #cdn the
// module's files are taken from /cdn/ (the asset option) instead of where Vite put them.
import WebMCPBridge, { content, setAssets } from "webmcp-bridge-wasm";

if (location.hash === "#cdn") setAssets("/cdn/");
window.registered = Promise.all([
  document.modelContext.registerTool({ name: "hello", description: "says hello", execute: () => "hello" }),
  document.modelContext.registerTool({ name: "article", description: "an article", execute: () => content.html("<p>Hi</p><script>alert(1)</script>") }),
]);
window.imported = WebMCPBridge === window.WebMCPBridge;
