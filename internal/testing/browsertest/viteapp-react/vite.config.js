import react from "@vitejs/plugin-react";

// The bridge finds its module and Worker next to itself (new URL(…, import.meta.url)): Vite's
// dev server must serve it from node_modules, not pre-bundle it elsewhere.
export default {
  plugins: [react()],
  optimizeDeps: { exclude: ["webmcp-bridge-wasm"] },
};
