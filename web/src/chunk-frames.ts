// The frames code's chunk (webmcp-bridge-frames.js): frames.ts, fetched by the script build when
// the page has frames (see framelink.ts).
import { connectFrames } from "./frames.ts";

__webmcpChunkGive({ connectFrames });
