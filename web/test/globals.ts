// What the build defines (internal/build/jsbuild) and what a page has that Node has not, set
// before the modules under test load: import this first. The values are the shipped script
// build's, with chunks fetched on first need.
const g = globalThis as Record<string, unknown>;
g.__WEBMCP_TEST__ = false;
g.__WEBMCP_RAW_RESULTS__ = false;
g.__WEBMCP_CHUNKED__ = true;
g.__WEBMCP_CHUNKS__ = {};
g.__WEBMCP_CHUNK_GLOBAL__ = "__webmcpBridgeChunk";
// The page's window, for the events the bridge dispatches to it.
g.window ??= new EventTarget();
