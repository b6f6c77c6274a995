//go:build js && wasm

package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"syscall/js"
	"unsafe"

	"github.com/webmcp-bridge/webmcp-bridge/internal/boundary"
)

// gcPercent and memoryLimit are the module's garbage collector settings. A call's garbage is many
// times what outlives it, and in WebAssembly the collector runs on the one thread the call runs
// on, so at Go's default of 100 a large document paid for several collections in its own call.
// The limit is a ceiling, not a target: past it the collector works harder rather than let one
// call take the page's memory. Below it a large call may grow the memory past RetireMemoryBytes,
// after which the loader replaces the module once its queue is empty (WebAssembly memory never
// shrinks); a lower limit made the collector run all through such a call instead.
const (
	gcPercent   = 400
	memoryLimit = 4 * boundary.RetireMemoryBytes
)

// version is set by the build (-ldflags "-X main.version=…").
var version = "dev"

// handlers bind the exports of internal/boundary to Module methods; each receives its arguments
// already checked against the export's parameters.
var handlers = map[string]func(m *Module, a args) []byte{
	boundary.ExportStart:     func(m *Module, _ args) []byte { return m.Start() },
	boundary.ExportConfigure: func(m *Module, a args) []byte { return m.Configure(a.str(0)) },
	boundary.ExportNormalize: func(m *Module, a args) []byte {
		return m.Normalize(a.str(0), a.str(1), a.binaries(2, m.currentPolicy().MaxImageBytes), a.boolean(3))
	},
	boundary.ExportErrorResult: func(m *Module, a args) []byte {
		return m.ErrorResult(a.str(0), a.str(1), a.str(2), a.boolean(3))
	},
	boundary.ExportRefuse:        func(m *Module, a args) []byte { return m.Refuse(a.str(0), a.integer(1)) },
	boundary.ExportCompileSchema: func(m *Module, a args) []byte { return m.CompileSchema(a.str(0)) },
	boundary.ExportReleaseSchema: func(m *Module, a args) []byte { return m.ReleaseSchema(a.integer(0)) },
	boundary.ExportValidate: func(m *Module, a args) []byte {
		if refused := m.RefuseLongArguments(a.integer(0), a.integer(2), a.boolean(3)); refused != nil {
			return refused // over the limit by its length alone: not copied into Go
		}
		return m.Validate(a.integer(0), a.str(1), a.boolean(3))
	},
	boundary.ExportParseToolOutput: func(m *Module, a args) []byte { return m.ParseToolOutput(a.str(0), a.str(1)) },
	boundary.ExportToModelInput:    func(m *Module, a args) []byte { return m.ToModelInput(a.str(0)) },
}

// main installs the exports as globalThis[boundary.GlobalExports] and calls
// globalThis[boundary.GlobalStarted], in the same turn: the loader's module server takes the
// exports and removes both globals before any other script runs. Every export checks its
// arguments' types and recovers from a panic, answering an error frame instead: a Go panic in
// WebAssembly would end the module for the whole page.
func main() {
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	m := NewModule(version)
	api := js.Global().Get("Object").New()
	for _, e := range boundary.Exports {
		h, ok := handlers[e.Name]
		if !ok {
			continue // a test export, in the shipped build
		}
		api.Set(e.Name, js.FuncOf(func(_ js.Value, values []js.Value) any {
			return frameString(recovered(e.Name, func() []byte {
				a, err := checkArgs(e, values)
				if err != nil {
					return errorFrame("TypeError", boundary.MessagePrefix+err.Error(), nil)
				}
				return h(m, a)
			}))
		}))
	}
	js.Global().Set(boundary.GlobalExports, api)
	if cb := js.Global().Get(boundary.GlobalStarted); cb.Type() == js.TypeFunction {
		if w := cb.Invoke(); w.Type() == js.TypeFunction {
			writeUTF8 = w
		}
	}
	select {} // keep the exported functions alive
}

// frameString is the frame as the string handed to JS, without copying it first: syscall/js
// copies a Go string into a JS string anyway, and nothing writes to the frame once it is made.
func frameString(frame []byte) string { return unsafe.String(unsafe.SliceData(frame), len(frame)) }

// args are an export's arguments, checked against its parameters.
type args []js.Value

// jsTypes are the JS types each kind of parameter takes.
var jsTypes = map[boundary.Arg]js.Type{
	boundary.ArgString: js.TypeString, boundary.ArgInteger: js.TypeNumber,
	boundary.ArgBoolean: js.TypeBoolean, boundary.ArgBinaries: js.TypeObject,
}

// checkArgs says which argument of a call to e is missing or of the wrong type.
func checkArgs(e boundary.Export, values []js.Value) (args, error) {
	if e.Test {
		return args(values), nil // the test exports read no arguments (and stand in for others)
	}
	if len(values) != len(e.Params) {
		return nil, fmt.Errorf("%s takes %d arguments, not %d", e.Name, len(e.Params), len(values))
	}
	for i, p := range e.Params {
		if got := values[i].Type(); got != jsTypes[p.Type] {
			return nil, fmt.Errorf("%s: argument %d (%s) must be a %s, not %s", e.Name, i+1, p.Name, p.Type, got)
		}
		if p.Type == boundary.ArgInteger && values[i].Float() != float64(values[i].Int()) {
			return nil, fmt.Errorf("%s: argument %d (%s) must be a whole number, not %v", e.Name, i+1, p.Name, values[i].Float())
		}
	}
	return args(values), nil
}

func (a args) integer(i int) int  { return a[i].Int() }
func (a args) boolean(i int) bool { return a[i].Bool() }

// writeUTF8 is the module server's writer of long strings, answered by GlobalStarted:
// writeUTF8(s) is s's length in UTF-16 units, writeUTF8(s, at, room) writes s as UTF-8 into
// this module's memory at [at, at+room) (TextEncoder.encodeInto) and answers the bytes written,
// or -1 where s did not fit. Undefined where the server handed none.
var writeUTF8 js.Value

// longString is the length (UTF-16 units) from which a string argument is read through
// writeUTF8: shorter ones come through syscall/js, two calls into JS either way.
const longString = 1024

// utf8Strings counts the strings read through writeUTF8 (the test build's stats export).
var utf8Strings int

// str reads argument i, a string. A long one is written by the module server straight into a
// buffer of Go's as UTF-8 and used as it is: syscall/js would have TextEncoder.encode it into a
// new array first (three times slower), then copy it into Go twice. Where the server handed no
// writer, or its answers cannot be, syscall/js reads it.
func (a args) str(i int) string {
	if writeUTF8.Type() == js.TypeFunction {
		if n := writeUTF8.Invoke(a[i]); n.Type() == js.TypeNumber && n.Int() >= longString {
			b, ok := utf8Of(n.Int(), func(dst []byte) int {
				w := writeUTF8.Invoke(a[i], int(uintptr(unsafe.Pointer(unsafe.SliceData(dst)))), len(dst))
				runtime.KeepAlive(dst) // written by JS through its address alone
				if w.Type() != js.TypeNumber {
					return -1
				}
				return w.Int()
			})
			if ok {
				utf8Strings++
				return unsafe.String(unsafe.SliceData(b), len(b)) // b is never written again
			}
		}
	}
	return a[i].String()
}

// binaries copies the binaries of argument i into Go: [{index, field, bytes, mimeType}]. A
// binary over maxBytes (the policy's image limit; 0: none) is not copied: its first maxBytes+1
// bytes are, enough for the image check to refuse it by its size.
func (a args) binaries(i int, maxBytes int64) []Binary {
	list := a[i]
	n := list.Length()
	out := make([]Binary, 0, n)
	for j := 0; j < n; j++ {
		e := list.Index(j)
		bytes := e.Get("bytes")
		if bytes.Type() != js.TypeObject || e.Get("index").Type() != js.TypeNumber {
			continue
		}
		size := bytes.Get("byteLength").Int()
		if maxBytes > 0 && int64(size) > maxBytes {
			size = int(maxBytes) + 1
			bytes = bytes.Call("subarray", 0, size)
		}
		b := Binary{Index: e.Get("index").Int(), Bytes: make([]byte, size)}
		js.CopyBytesToGo(b.Bytes, bytes)
		if f := e.Get("field"); f.Type() == js.TypeString {
			b.Field = f.String()
		}
		if t := e.Get("mimeType"); t.Type() == js.TypeString {
			b.MIMEType = t.String()
		}
		out = append(out, b)
	}
	return out
}
