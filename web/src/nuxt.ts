// webmcp-bridge-wasm/nuxt (dist/nuxt.mjs): a Nuxt module. Nuxt's renderer hints every file of the
// chunks a page uses, so without it each page would carry a modulepreload of the bridge's Worker
// and a prefetch of its module, and download the module at every load whether or not an agent
// ever calls. It takes the bridge's files out of those hints: an agent's first call fetches them.
//
//	export default defineNuxtConfig({ modules: ["webmcp-bridge-wasm/nuxt"] });

/** The part of Nuxt's build manifest this module reads: each entry's file and its hints. */
interface ManifestEntry {
  file: string;
  prefetch?: boolean;
  preload?: boolean;
}

/** The part of Nuxt this module uses: its hooks. */
interface NuxtHooks {
  hook(name: "build:manifest", run: (manifest: Record<string, ManifestEntry>) => void): void;
}

/** webmcpBridge is the module: Nuxt calls it with the module's options and Nuxt. */
export default function webmcpBridge(_options: unknown, nuxt: NuxtHooks): void {
  nuxt.hook("build:manifest", (manifest) => {
    for (const entry of Object.values(manifest))
      if (entry.file.includes("webmcp-bridge")) entry.prefetch = entry.preload = false;
  });
}
