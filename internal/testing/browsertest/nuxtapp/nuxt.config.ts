// nuxt.config.ts: the package's Nuxt module keeps the bridge's module and Worker out of the page's
// resource hints (an agent's first call fetches them), and Nitro serves them, as the build's
// other files, compressed.
export default defineNuxtConfig({
  compatibilityDate: "2026-11-01",
  modules: ["webmcp-bridge-wasm/nuxt"],
  nitro: { compressPublicAssets: true },
});
