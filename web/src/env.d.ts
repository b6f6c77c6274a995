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
