// SvelteKit 3's configuration (there is no svelte.config.js any more): the Node adapter, which
// writes a standalone server to build/ and precompresses the client's files, the bridge's
// module and Worker among them.
import adapter from "@sveltejs/adapter-node";
import { sveltekit } from "@sveltejs/kit/vite";
import { defineConfig } from "vite";

export default defineConfig({ plugins: [sveltekit({ adapter: adapter() })] });
