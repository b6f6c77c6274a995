package inputschema

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// InputError is an argument that breaks the schema, in the shape the WebMCP draft gives a
// DataError's message: Path is a JSON Pointer into the arguments, Reason the failing keyword,
// SchemaPath the keyword as "/keyword", and Message a sentence for people.
type InputError struct {
	Path       string `json:"path"`
	Reason     string `json:"reason"`
	SchemaPath string `json:"schemaPath"`
	Message    string `json:"message"`
}

// Error is the JSON the WebMCP draft puts in a DataError's message.
func (e *InputError) Error() string {
	b, _ := jsonvalue.Marshal(e)
	return string(b)
}

// Sentence is the error as the bridge tells an agent in an isError result:
// invalid arguments at "/age": -1 is less than 0 (minimum).
func (e *InputError) Sentence() string {
	return `invalid arguments at "` + e.Path + `": ` + e.Message + " (" + e.Reason + ")"
}

// AppendJSON appends {path, reason, schemaPath, message} to b.
func (e *InputError) AppendJSON(b []byte) ([]byte, error) { return jsonvalue.AppendTo(b, e.writeJSON) }

func (e *InputError) writeJSON(w *jsonvalue.Writer) {
	first := true
	w.Raw("{")
	for _, f := range [...]struct{ k, v string }{
		{"path", e.Path}, {"reason", e.Reason}, {"schemaPath", e.SchemaPath}, {"message", e.Message},
	} {
		w.Key(&first, f.k)
		w.Str(f.v)
	}
	w.Raw("}")
}

// fail is the InputError for keyword at the instance path at.
func fail(at, keyword, format string, a ...any) *InputError {
	return &InputError{Path: at, Reason: keyword, SchemaPath: "/" + keyword, Message: fmt.Sprintf(format, a...)}
}

// SchemaError is an inputSchema the subset does not accept: Path is a JSON Pointer into the
// schema (the offending keyword), Reason says why.
type SchemaError struct {
	Path   string
	Reason string
}

func (e *SchemaError) Error() string { return "inputSchema" + e.Path + ": " + e.Reason }
