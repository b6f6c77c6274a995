// Set by the build (internal/build/jsbuild): true only in the test build's loader and Worker, whose
// module has the test exports; false in everything shipped, where the code it guards is dropped.
declare const __WEBMCP_TEST__: boolean;
// Set by the build: true only in webmcp-mcp's embedded loader (internal/build/jsbuild -raw-results),
// which hands its server results prepared but not normalized (binaries as data: URLs, a throw as
// an error block), since the server normalizes every result itself, once; false in everything
// shipped to pages.
declare const __WEBMCP_RAW_RESULTS__: boolean;

// Go's lib/wasm/wasm_exec.js, of the Go that built the module (the Worker imports it).
declare module "go:wasm_exec";

// Set by the build: true only in the script build (webmcp-bridge.js), whose chunks are files of their
// own fetched on first need (chunk.ts); __WEBMCP_CHUNKS__ maps a chunk's source (as web/src imports
// it) to its file, __WEBMCP_CHUNK_GLOBAL__ names the global through which a chunk hands itself over.
declare const __WEBMCP_CHUNKED__: boolean;
declare const __WEBMCP_CHUNKS__: Readonly<Record<string, string>>;
declare const __WEBMCP_CHUNK_GLOBAL__: string;
// In a chunk's own script: what the loader gave it, and the function that takes its exports
// (the parameters of the function jsbuild wraps the chunk in).
declare const __webmcpChunkNeeds: unknown;
declare function __webmcpChunkGive(exports: unknown): void;
