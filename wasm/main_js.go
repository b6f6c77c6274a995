//go:build js && wasm

package main

import (
	"syscall/js"
)

// version is set by the build (-ldflags "-X main.version=…").
var version = "dev"

// exports are the functions the loader calls, each taking strings (and schema ids) and
// returning one frame as a string.
var exports = map[string]func(m *Module, args []js.Value) []byte{
	"start":           func(m *Module, _ []js.Value) []byte { return m.Start() },
	"normalize":       func(m *Module, a []js.Value) []byte { return m.Normalize(str(a, 0), str(a, 1)) },
	"errorResult":     func(m *Module, a []js.Value) []byte { return m.ErrorResult(str(a, 0), str(a, 1), str(a, 2)) },
	"refuse":          func(m *Module, a []js.Value) []byte { return m.Refuse(str(a, 0), num(a, 1)) },
	"configure":       func(m *Module, a []js.Value) []byte { return m.Configure(str(a, 0)) },
	"compileSchema":   func(m *Module, a []js.Value) []byte { return m.CompileSchema(str(a, 0)) },
	"releaseSchema":   func(m *Module, a []js.Value) []byte { return m.ReleaseSchema(num(a, 0)) },
	"validate":        func(m *Module, a []js.Value) []byte { return m.Validate(num(a, 0), str(a, 1)) },
	"parseToolOutput": func(m *Module, a []js.Value) []byte { return m.ParseToolOutput(str(a, 0), str(a, 1)) },
	"toModelInput":    func(m *Module, a []js.Value) []byte { return m.ToModelInput(str(a, 0)) },
}

// main installs globalThis.__webmcpBridgeGo (the exports) and tells the loader it runs. Every
// export recovers from a panic and answers with an error frame instead: a Go panic in
// WebAssembly would end the module for the whole page.
func main() {
	m := NewModule(version)
	api := js.Global().Get("Object").New()
	for name, f := range exports {
		api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
			return string(recovered(name, func() []byte { return f(m, args) }))
		}))
	}
	js.Global().Set("__webmcpBridgeGo", api)
	if cb := js.Global().Get("__webmcpBridgeStarted"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {} // keep the exported functions alive
}

func str(args []js.Value, i int) string {
	if i >= len(args) || args[i].Type() != js.TypeString {
		return ""
	}
	return args[i].String()
}

func num(args []js.Value, i int) int {
	if i >= len(args) || args[i].Type() != js.TypeNumber {
		return 0
	}
	return args[i].Int()
}
