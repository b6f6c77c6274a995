// The renderer as a classic script (dist/render.js): render.ts's exports as
// globalThis.WebMCPBridgeRender, for pages and extension pages that load it with a script tag
// (the demo, the extension's panel, webmcp-mcp's viewer).
import { fitHTMLFrames, formFor, render, toolList } from "./render.ts";

(globalThis as unknown as Record<string, unknown>).WebMCPBridgeRender = { render, formFor, toolList, fitHTMLFrames };
