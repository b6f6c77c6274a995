// webmcp-bridge-wasm as an ES module (dist/webmcp-bridge.mjs): importing it in a page installs the
// bridge; the named exports are WebMCPBridge's API. The module's files are referenced with
// new URL(…, import.meta.url), so bundlers copy them; setAssets points elsewhere before the
// module first starts, start() starts it at once.
//
// Where there is no document (a server rendering the page — Next, Nuxt, SvelteKit, Astro —,
// Node, a Worker), importing it does nothing and throws nothing: the exports are the inert API
// of inert.ts, and the bridge installs when the same code is evaluated in the page.
import "./builtins.ts"; // first: the built-ins are captured before anything else runs
import { install } from "./bridge.ts";
import { announceInstalled } from "./installed.ts";
import { inertAPI } from "./inert.ts";
import type { Assets, CallToolResult, Fallback, Policy, PolicySettings, Violation, WebMCPBridge } from "./types.ts";

export type * from "./types.ts";

function installHere(): WebMCPBridge {
  if (typeof document === "undefined") return inertAPI();
  const { api, modelContext } = install({
    assets: {
      wasm: new URL("./webmcp-bridge.wasm", import.meta.url).href,
      worker: new URL("./webmcp-bridge-worker.js", import.meta.url).href,
    },
  });
  if (modelContext) announceInstalled();
  return api;
}
const api = installHere();

export default api;
export const { content, agent, native, normalizing } = api;
export const version: string = api.version;
export const ready = (): Promise<WebMCPBridge> => api.ready;
export const start = (): Promise<WebMCPBridge> => api.start();
export const setAssets = (where: Assets): void => api.setAssets(where);
/** setFallback("refuse") is the script tag's data-fallback="refuse": where the module cannot run,
 * calls that need it answer an isError result naming what to change, not unchecked output. */
export const setFallback = (mode: Fallback): void => api.setFallback(mode);
export const configure = (settings: PolicySettings): Promise<Policy> => api.configure(settings);
export const normalize = (value: unknown): Promise<CallToolResult> => api.normalize(value);
export const onViolation = (f: (v: Violation) => void): (() => void) => api.onViolation(f);
