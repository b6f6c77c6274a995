// The frames code's chunk (webmcp-bridge-frames.js): frame-tools.ts, fetched by the script build when
// the page has frames (see frame-tools-loader.ts).
import { connectFrames } from "./frame-tools.ts";

__webmcpChunkGive({ connectFrames });
