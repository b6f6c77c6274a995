// The extension kit's isolated-world helper as a classic content script
// (dist/webmcp-bridge-content.js): page-link.ts's connectPage as
// globalThis.WebMCPBridgeContent.connectPage, for a content script listed after it in the
// manifest that is not bundled (content scripts cannot be ES modules).
import { connectPage } from "./page-link.ts";

(globalThis as unknown as Record<string, unknown>).WebMCPBridgeContent = Object.freeze({ connectPage });
