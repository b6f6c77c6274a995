// nuxt.config.ts: the bridge's module and Worker stay out of the page's resource hints (an
// agent's first call fetches them), and Nitro serves them, as the build's other files, compressed.
export default defineNuxtConfig({
  compatibilityDate: "2026-11-01",
  hooks: {
    "build:manifest": (manifest) => {
      for (const entry of Object.values(manifest)) if (entry.file.includes("webmcp-bridge")) entry.prefetch = entry.preload = false;
    },
  },
  nitro: { compressPublicAssets: true },
});
