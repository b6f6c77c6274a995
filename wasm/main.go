//go:build js && wasm

// Command webmcp-bridge is the WebAssembly module behind web/webmcp-bridge.js. It is the only
// code that touches syscall/js: it installs globalThis.__webmcpBridgeGo, an object of plain
// functions that each take JSON text and return JSON text — one crossing each way — and hands
// every call to the pure-Go bridge package. Every function recovers from panics and answers with
// an error object instead, because a Go panic in WebAssembly ends the module for the whole page.
package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall/js"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// version is set by the build (-ldflags "-X main.version=…").
var version = "dev"

var (
	mu      sync.Mutex
	policy  = bridge.DefaultPolicy()
	schemas = map[int]*bridge.InputSchema{}
	nextID  = 1
)

func main() {
	api := js.Global().Get("Object").New()
	export := func(name string, f func(args []js.Value) (any, error)) {
		api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) any { return call(name, f, args) }))
	}
	export("normalize", normalize)
	export("normalizeText", normalizeText)
	export("errorResult", errorResult)
	export("configure", configure)
	export("policy", currentPolicy)
	export("compileSchema", compileSchema)
	export("releaseSchema", releaseSchema)
	export("validate", validate)
	export("parseToolOutput", parseToolOutput)
	export("toModelInput", toModelInput)
	export("stats", stats)
	export("panicForTest", func([]js.Value) (any, error) { panic("test-only panic requested by the page") })
	api.Set("version", version)
	js.Global().Set("__webmcpBridgeGo", api)
	if cb := js.Global().Get("__webmcpBridgeStarted"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {} // keep the exported functions alive
}

// call runs f and turns its answer into the JSON text JS receives: the value itself, or
// {"error": message} for an error or a recovered panic.
func call(name string, f func([]js.Value) (any, error), args []js.Value) (out any) {
	defer func() {
		if p := recover(); p != nil {
			out = errorJSON(fmt.Sprintf("webmcp-bridge: %s panicked: %v", name, p), string(debug.Stack()))
		}
	}()
	v, err := f(args)
	if err != nil {
		return errorJSON(err.Error(), "")
	}
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	b, err := bridge.MarshalJSON(v)
	if err != nil {
		return errorJSON(err.Error(), "")
	}
	return string(b)
}

func errorJSON(msg, stack string) string {
	b, _ := bridge.MarshalJSON(map[string]any{"error": msg, "stack": stack})
	return string(b)
}

func arg(args []js.Value, i int) string {
	if i >= len(args) || args[i].Type() != js.TypeString {
		return ""
	}
	return args[i].String()
}

func current() bridge.Policy {
	mu.Lock()
	defer mu.Unlock()
	return policy
}

// stats() → the module's goroutine count and Go heap, for leak checks and `make bench`.
func stats([]js.Value) (any, error) {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	mu.Lock()
	n := len(schemas)
	mu.Unlock()
	return map[string]any{"goroutines": runtime.NumGoroutine(), "heapAlloc": m.HeapAlloc, "heapSys": m.HeapSys, "schemas": n}, nil
}

// normalize(resultJSON) → {"result": CallToolResult, "violations": [...]}
func normalize(args []js.Value) (any, error) {
	r, vs, err := bridge.NormalizeJSON([]byte(arg(args, 0)), current())
	if err != nil {
		return nil, err
	}
	return answer(r, vs)
}

// normalizeText(resultJSON) → the violations JSON, a newline, and the CallToolResult JSON: the
// loader parses only the first line and hands the second to executeTool as it is.
func normalizeText(args []js.Value) (any, error) {
	r, vs, err := bridge.NormalizeJSON([]byte(arg(args, 0)), current())
	if err != nil {
		return nil, err
	}
	rb, vb, err := encode(r, vs)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(vb)+1+len(rb))
	return append(append(append(out, vb...), '\n'), rb...), nil
}

// errorResult(message, code) → {"result": CallToolResult with isError}
func errorResult(args []js.Value) (any, error) {
	return answer(bridge.ErrorResult(arg(args, 0), arg(args, 1)), nil)
}

// parseToolOutput(raw) → {"result", "violations"}: the agent side, trusting nothing.
func parseToolOutput(args []js.Value) (any, error) {
	r, vs := bridge.ParseToolOutput(arg(args, 0), current())
	return answer(r, vs)
}

// toModelInput(resultJSON) → ModelInput
func toModelInput(args []js.Value) (any, error) {
	r, _ := bridge.ParseToolOutput(arg(args, 0), current())
	return bridge.ToModelInput(r), nil
}

// answer writes {"result": …, "violations": […]} as one JSON text.
func answer(r *bridge.CallToolResult, vs []bridge.Violation) (any, error) {
	rb, vb, err := encode(r, vs)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(rb)+len(vb)+32)
	out = append(out, `{"result":`...)
	out = append(out, rb...)
	out = append(out, `,"violations":`...)
	out = append(out, vb...)
	return append(out, '}'), nil
}

// encode writes a result and its violations (an empty list, never null) as JSON.
func encode(r *bridge.CallToolResult, vs []bridge.Violation) (result, violations []byte, err error) {
	if result, err = r.MarshalJSON(); err != nil {
		return nil, nil, err
	}
	if vs == nil {
		vs = []bridge.Violation{}
	}
	violations, err = bridge.MarshalJSON(vs)
	return result, violations, err
}

// configure(policyJSON) → the policy now in force, or {"error"} naming the bad setting.
func configure(args []js.Value) (any, error) {
	p, err := bridge.PolicyFromJSON([]byte(arg(args, 0)))
	if err != nil {
		return nil, err
	}
	mu.Lock()
	policy = p
	mu.Unlock()
	return p, nil
}

func currentPolicy([]js.Value) (any, error) { return current(), nil }

// compileSchema(schemaJSON) → {"id": n}, or {"error"} saying where and why.
func compileSchema(args []js.Value) (any, error) {
	s, err := bridge.CompileInputSchemaJSON([]byte(arg(args, 0)))
	if err != nil {
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	id := nextID
	nextID++
	schemas[id] = s
	return map[string]any{"id": id}, nil
}

// releaseSchema(id) forgets a compiled schema when its tool is unregistered.
func releaseSchema(args []js.Value) (any, error) {
	if len(args) > 0 && args[0].Type() == js.TypeNumber {
		mu.Lock()
		delete(schemas, args[0].Int())
		mu.Unlock()
	}
	return map[string]any{"ok": true}, nil
}

// validate(id, argsJSON) → {"ok": true} or {"invalid": InputError}.
func validate(args []js.Value) (any, error) {
	if len(args) == 0 || args[0].Type() != js.TypeNumber {
		return nil, fmt.Errorf("validate: the first argument must be a schema id")
	}
	mu.Lock()
	s := schemas[args[0].Int()]
	mu.Unlock()
	if s == nil {
		return nil, fmt.Errorf("validate: no schema with id %d", args[0].Int())
	}
	if err := s.ValidateJSON([]byte(arg(args, 1))); err != nil {
		if ie, ok := err.(*bridge.InputError); ok {
			return map[string]any{"invalid": ie}, nil
		}
		return nil, err
	}
	return map[string]any{"ok": true}, nil
}
