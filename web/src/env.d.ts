// Set by the build (internal/jsbuild): true only in the test build's loader and Worker, whose
// module has the test exports; false in everything shipped, where the code it guards is dropped.
declare const __WEBMCP_TEST__: boolean;

// Go's lib/wasm/wasm_exec.js, of the Go that built the module (the Worker imports it).
declare module "go:wasm_exec";
