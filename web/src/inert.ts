// The API of the ES module where there is no document to install the bridge in (a server
// rendering the page, Node, a Worker): what sets the bridge up (setAssets, setFallback,
// configure, start, ready) does nothing and never settles, so module-level calls in a component file are harmless
// on the server; what asks for a result (normalize, the agent side) rejects and says why; the
// content builders work as anywhere.
import { contentBuilders } from "./bridge.ts";
import type { WebMCPBridge } from "./types.ts";

const NO_DOCUMENT =
  "webmcp-bridge-wasm: there is no document here (server rendering, Node, a Worker); " +
  "the bridge installs when this module is evaluated in a page";

/** inertAPI is WebMCPBridge where it cannot be installed. */
export function inertAPI(): WebMCPBridge {
  const never = new Promise<never>(() => {});
  const refuse = (): Promise<never> => Promise.reject(new Error(NO_DOCUMENT));
  return {
    version: "__WEBMCP_BRIDGE_VERSION__",
    get ready() {
      return never;
    },
    start: () => never,
    setAssets: () => {},
    setFallback: () => {},
    normalizing: false,
    native: false,
    policy: null,
    configure: () => never,
    normalize: refuse,
    onViolation: () => () => {},
    content: contentBuilders(),
    agent: {
      listTools: refuse,
      callTool: refuse,
      callToolDetailed: refuse,
      toModelInput: refuse,
      parseToolOutput: refuse,
    },
  };
}
