// Server rendering with the Node adapter in middleware mode, so that server.mjs can compress
// what it sends (the standalone server sends files as they are on disk).
import node from "@astrojs/node";
import { defineConfig } from "astro/config";

export default defineConfig({ output: "server", adapter: node({ mode: "middleware" }) });
