// webmcp-bridge as an ES module (dist/webmcp-bridge.mjs): `import "webmcp-bridge"` installs the
// bridge; the named exports are WebMCPBridge's API. The module's files are referenced with
// new URL(…, import.meta.url), so bundlers copy them; setAssets points elsewhere before the
// module first starts, start() starts it at once.
import { install } from "./bridge.js";

const api = install({
  assets: {
    wasm: new URL("./webmcp-bridge.wasm", import.meta.url).href,
    worker: new URL("./webmcp-bridge-worker.js", import.meta.url).href,
  },
});

export default api;
export const { content, agent, native, normalizing } = api;
export const version = api.version;
export const ready = () => api.ready;
export const start = () => api.start();
export const setAssets = (where) => api.setAssets(where);
export const configure = (settings) => api.configure(settings);
export const normalize = (value) => api.normalize(value);
export const onViolation = (f) => api.onViolation(f);
