// Package boundary is what the Go module and the page's loader must agree on, written once: the
// names of the module's exports, the form of its answers, and the rules the loader applies on the
// page before anything crosses. The loader never retypes them: `go generate ./internal/boundary`
// writes them into web/src/generated/ (internal/build/tsgen), and a test fails when that is stale.
package boundary

//go:generate go run ../build/tsgen -out ../../web/src/generated
//go:generate go run ../build/docgen -docs ../../docs

// The module's exports: each takes its arguments as the table Exports says and answers one frame.
const (
	ExportStart           = "start"
	ExportConfigure       = "configure"
	ExportNormalize       = "normalize"
	ExportErrorResult     = "errorResult"
	ExportRefuse          = "refuse"
	ExportCompileSchema   = "compileSchema"
	ExportReleaseSchema   = "releaseSchema"
	ExportValidate        = "validate"
	ExportParseToolOutput = "parseToolOutput"
	ExportToModelInput    = "toModelInput"
)

// Test-build exports (-tags webmcptest): never in the shipped module.
const (
	ExportStats        = "stats"
	ExportPanicForTest = "panicForTest"
	ExportCrashForTest = "crashForTest"
)

// Arg is the JS type of one export argument: the module refuses a call whose arguments are of
// other types with a TypeError that names the export and the argument, never reading them as
// "" or 0.
type Arg string

const (
	ArgString   Arg = "string"
	ArgInteger  Arg = "integer"
	ArgBoolean  Arg = "boolean"
	ArgBinaries Arg = "binaries" // an array of {index, field, bytes: Uint8Array, mimeType}
)

// Param is one argument of an export: a name that says what it is, and its JS type.
type Param struct {
	Name string
	Type Arg
}

// Export is one export of the module: its name and its arguments, in order.
type Export struct {
	Name   string
	Params []Param
	Test   bool // only in the test build
}

// Exports is the module's export table. wasm/main_js.go binds each to a Module method; the
// loader's typed requests are generated from it.
var Exports = []Export{
	{Name: ExportStart},
	{Name: ExportConfigure, Params: []Param{{"settings", ArgString}}},
	{
		Name:   ExportNormalize,
		Params: []Param{{"value", ArgString}, {"pageURL", ArgString}, {"binaries", ArgBinaries}, {"forAgent", ArgBoolean}},
	},
	{
		Name:   ExportErrorResult,
		Params: []Param{{"name", ArgString}, {"message", ArgString}, {"code", ArgString}, {"forAgent", ArgBoolean}},
	},
	{Name: ExportRefuse, Params: []Param{{"limit", ArgString}, {"size", ArgInteger}}},
	{Name: ExportCompileSchema, Params: []Param{{"schema", ArgString}}},
	{Name: ExportReleaseSchema, Params: []Param{{"id", ArgInteger}}},
	// argsLength is args' length in UTF-16 units, read by the caller, so that arguments over
	// maxArgumentBytes by their length alone are refused without being copied into Go.
	{Name: ExportValidate, Params: []Param{
		{"id", ArgInteger}, {"args", ArgString}, {"argsLength", ArgInteger}, {"forAgent", ArgBoolean},
	}},
	{Name: ExportParseToolOutput, Params: []Param{{"raw", ArgString}, {"pageURL", ArgString}}},
	{Name: ExportToModelInput, Params: []Param{{"result", ArgString}}},
	{Name: ExportStats, Test: true},
	{Name: ExportPanicForTest, Test: true},
	{Name: ExportCrashForTest, Test: true},
}

// FrameSeparator ends an answer's head: an answer is one line of JSON (the head), this
// separator, and a body that may be empty (see wasm/module.go).
const FrameSeparator = "\n"

// ToolNamePattern is the WebMCP rule for a tool's name: 1 to 128 of A-Z a-z 0-9 _ . -
const ToolNamePattern = `^[A-Za-z0-9_.-]{1,128}$`

// RetireMemoryBytes is the module memory past which the loader replaces a module once its queue
// is empty (WebAssembly memory never shrinks).
const RetireMemoryBytes = 256 << 20

// MessagePrefix starts every message the bridge writes to the console or into an error.
const MessagePrefix = "webmcp-bridge: "

// GlobalStarted is the global function the module calls once its exports are installed (it
// answers the function the module reads long strings with, see wasm/main_js.go), and
// GlobalExports the global object that holds them, in the scope that runs the module (the
// bridge's Worker, or the page's thread where a Worker cannot start).
const (
	GlobalStarted = "__webmcpBridgeStarted"
	GlobalExports = "__webmcpBridgeGo"
)
