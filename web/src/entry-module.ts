// webmcp-bridge-wasm as an ES module (dist/webmcp-bridge.mjs): importing it installs the bridge; the
// named exports are WebMCPBridge's API. The module's files are referenced with
// new URL(…, import.meta.url), so bundlers copy them; setAssets points elsewhere before the
// module first starts, start() starts it at once.
import "./builtins.ts"; // first: the built-ins are captured before anything else runs
import { install, type WebMCPBridge } from "./bridge.ts";
import type { Assets, CallToolResult, Policy, PolicySettings, Violation } from "./types.ts";

export type * from "./types.ts";
export type { WebMCPBridge, Content, Agent } from "./bridge.ts";

const { api } = install({
  assets: {
    wasm: new URL("./webmcp-bridge.wasm", import.meta.url).href,
    worker: new URL("./webmcp-bridge-worker.js", import.meta.url).href,
  },
});

export default api;
export const { content, agent, native, normalizing } = api;
export const version: string = api.version;
export const ready = (): Promise<WebMCPBridge> => api.ready;
export const start = (): Promise<WebMCPBridge> => api.start();
export const setAssets = (where: Assets): void => api.setAssets(where);
export const configure = (settings: PolicySettings): Promise<Policy> => api.configure(settings);
export const normalize = (value: unknown): Promise<CallToolResult> => api.normalize(value);
export const onViolation = (f: (v: Violation) => void): (() => void) => api.onViolation(f);
