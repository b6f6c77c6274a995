// Package main is the WebAssembly module behind the loader (web/src/entry-script.ts, built to
// web/dist/webmcp-bridge.js).
//
// Everything the module does is a method of Module, in plain Go: strings in, one answer out, so
// it is tested natively (go test ./wasm/...). Only main_js.go touches syscall/js: it holds the
// export table that hands each JS call to a Module method. Test-only exports live in
// testexports_js.go, compiled only with the webmcptest build tag, never into the shipped module.
//
// Every answer is a frame: one line of JSON (the head), a newline, and a body that may be empty.
// The head is {"error": {"name", "message", …}} when the call failed — name is the JS error to
// throw (TypeError, DataError, …), so the loader throws it without rewording — or the call's
// small answer (violations, a schema id, the policy). The body is the CallToolResult JSON when
// the call produced one: the loader hands it to executeTool as it is, without parsing it.
package main

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/internal/refusal"
)

// Module is the state one page's module keeps: the policy in force and the compiled input
// schemas of the registered tools, by id.
type Module struct {
	Version string

	mu      sync.Mutex
	policy  bridge.Policy
	schemas map[int]*inputschema.Schema
	nextID  int
}

// NewModule returns a module with the default policy.
func NewModule(version string) *Module {
	return &Module{Version: version, policy: bridge.DefaultPolicy(), schemas: map[int]*inputschema.Schema{}, nextID: 1}
}

func (m *Module) currentPolicy() bridge.Policy {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.policy
}

// policyFor is the policy in force for a result of the page at pageURL.
func (m *Module) policyFor(pageURL string) bridge.Policy {
	p := m.currentPolicy()
	p.PageURL = pageURL
	return p
}

// Start answers {"version", "policy"}: what the loader keeps from the module's start.
func (m *Module) Start() []byte {
	return frame(func(w *jsonvalue.Writer) {
		w.Raw(`{"version":`)
		w.Str(m.Version)
		w.Raw(`,"maxNesting":`)
		w.Value(bridge.MaxNesting)
		w.Raw(`,"policy":`)
		w.Value(m.currentPolicy())
		w.Raw("}")
	}, nil)
}

// Binary is a binary a tool returned (a Blob, an ArrayBuffer, a canvas…), handed over as bytes
// rather than in the JSON: at Index of the result (-1: the result itself), as the value itself
// (Field "") or as the data of the image block there (Field "data"). The JSON holds null in its
// place. Where the binaries are is said by the loader, never read from the page's JSON.
type Binary struct {
	Index    int
	Field    string
	Bytes    []byte
	MIMEType string
}

// Normalize normalizes a tool's result (JSON text, binaries beside it) under the policy,
// relative links resolved against pageURL: head {"violations"} — with forAgent also
// "modelInput" and "tables", what the agent side needs, so that it need not cross again — and
// body the CallToolResult. JSON that does not parse is a TypeError.
func (m *Module) Normalize(valueJSON, pageURL string, binaries []Binary, forAgent bool) []byte {
	r, vs, err := normalizeJSON([]byte(valueJSON), m.policyFor(pageURL), binaries)
	if err != nil {
		return errorFrame("TypeError", "the tool result is not JSON: "+err.Error(), nil)
	}
	if !forAgent {
		return resultFrame(r, vs, nil)
	}
	return resultFrame(r, vs, agentHead(r))
}

// normalizeJSON is bridge.NormalizeJSON with the binaries put in their places first. Output
// that bridge refuses whole (too large, too deep) or that does not parse goes to
// bridge.NormalizeJSON as it is, so the refusal and the error are bridge's own.
func normalizeJSON(b []byte, p bridge.Policy, binaries []Binary) (*bridge.CallToolResult, []bridge.Violation, error) {
	if len(binaries) == 0 || p.MaxResultBytes > 0 && int64(len(b)) > p.MaxResultBytes {
		return bridge.NormalizeJSON(b, p)
	}
	v, err := jsonvalue.Decode(b)
	if err != nil {
		return bridge.NormalizeJSON(b, p)
	}
	for _, bin := range binaries {
		v = placeBinary(v, bin)
	}
	r, vs := bridge.Normalize(v, p)
	return r, vs, nil
}

// placeBinary returns v with b in its place, as an image block (the block the page wrote, when
// b is its data); a place that does not exist leaves v as it is.
func placeBinary(v any, b Binary) any {
	block := map[string]any{"type": "image", "data": b.Bytes}
	if b.Field == "data" { // the block keeps the page's other members
		at := v
		if b.Index >= 0 {
			list, _ := v.([]any)
			if b.Index >= len(list) {
				return v
			}
			at = list[b.Index]
		}
		own, ok := at.(map[string]any)
		if !ok {
			return v
		}
		for k, x := range own {
			if k != "data" {
				block[k] = x
			}
		}
	}
	if b.MIMEType != "" {
		if _, said := block["mimeType"]; !said {
			block["mimeType"] = b.MIMEType
		}
	}
	if b.Index < 0 {
		return block
	}
	if list, ok := v.([]any); ok && b.Index < len(list) {
		list[b.Index] = block
	}
	return v
}

// agentHead adds to a result's head what the agent side needs: the model input and the tables.
func agentHead(r *bridge.CallToolResult) func(w *jsonvalue.Writer) {
	return func(w *jsonvalue.Writer) {
		w.Raw(`,"modelInput":`)
		w.Value(bridge.ToModelInput(r))
		w.Raw(`,"tables":`)
		w.Value(csvTables(r))
	}
}

// ErrorResult is the result for a tool that threw or rejected: head {"violations": []}, body the
// isError result. name is the thrown value's constructor name ("Error", "TypeError", "" for a
// non-Error); the error block carries it and bridge decides whether it is shown. forAgent adds
// what the agent side needs to the head (see Normalize).
func (m *Module) ErrorResult(name, message, code string, forAgent bool) []byte {
	// As an error block, so that the message is held to maxTextChars like any text.
	block := map[string]any{"type": "error", "message": message}
	if name != "" {
		block["name"] = name
	}
	if code != "" {
		block["code"] = code
	}
	r, vs := bridge.Normalize(block, m.currentPolicy())
	if !forAgent {
		return resultFrame(r, vs, nil)
	}
	return resultFrame(r, vs, agentHead(r))
}

// Refuse is the result for output the loader measured and will not hand over: head
// {"violations"}, body the isError result. kind is "nesting" (deeper than bridge.MaxNesting)
// or "maxResultBytes" (size bytes of JSON; -1 when the loader stopped counting at the limit).
func (m *Module) Refuse(kind string, size int) []byte {
	why := refusal.TooLarge(int64(size), m.currentPolicy().MaxResultBytes)
	if kind == "nesting" {
		why = refusal.TooDeep()
	}
	r, vs := refusal.Result(why)
	return resultFrameJSON(r, vs, nil)
}

// Configure sets the policy from JSON: head {"policy"} (the policy now in force), or a TypeError
// whose "setting" names the bad setting.
func (m *Module) Configure(policyJSON string) []byte {
	p, err := bridge.PolicyFromJSON([]byte(policyJSON))
	if err != nil {
		setting := ""
		if pe, ok := errors.AsType[*bridge.PolicyError](err); ok {
			setting = pe.Setting
		}
		return errorFrame("TypeError", err.Error(), map[string]any{"setting": setting})
	}
	m.mu.Lock()
	m.policy = p
	m.mu.Unlock()
	return frame(func(w *jsonvalue.Writer) {
		w.Raw(`{"policy":`)
		w.Value(p)
		w.Raw("}")
	}, nil)
}

// CompileSchema compiles a tool's inputSchema: head {"id"}, or a TypeError whose "path" says
// where in the schema the problem is.
func (m *Module) CompileSchema(schemaJSON string) []byte {
	s, err := inputschema.CompileJSON([]byte(schemaJSON))
	if err != nil {
		path := ""
		if se, ok := errors.AsType[*inputschema.SchemaError](err); ok {
			path = se.Path
		}
		return errorFrame("TypeError", "registerTool: "+err.Error(), map[string]any{"path": path})
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	id := m.nextID
	m.nextID++
	m.schemas[id] = s
	return frame(func(w *jsonvalue.Writer) { w.Raw(`{"id":`); w.Value(id); w.Raw("}") }, nil)
}

// ReleaseSchema forgets a compiled schema once its tool is unregistered.
func (m *Module) ReleaseSchema(id int) []byte {
	m.mu.Lock()
	delete(m.schemas, id)
	m.mu.Unlock()
	return frame(func(w *jsonvalue.Writer) { w.Raw(`{}`) }, nil)
}

// Schemas is how many compiled schemas the module holds.
func (m *Module) Schemas() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.schemas)
}

// Validate checks a call's arguments against schema id: head {} when they pass; otherwise head
// {"invalid": InputError, "message": the DataError message} and body the finished isError
// result that names the path and the reason (with forAgent, the agent side's needs too, as
// Normalize gives them).
func (m *Module) Validate(id int, argsJSON string, forAgent bool) []byte {
	s := m.schema(id)
	if s == nil {
		return errorFrame("InvalidStateError", "no input schema with id "+strconv.Itoa(id)+" is registered", nil)
	}
	p := m.currentPolicy()
	err := s.ValidateJSONWithin([]byte(argsJSON), p.MaxArgumentBytes, p.MaxArgumentValues)
	if err == nil {
		return frame(func(w *jsonvalue.Writer) { w.Raw(`{}`) }, nil)
	}
	return invalidFrame(err, forAgent)
}

// RefuseLongArguments is Validate's answer for arguments whose JSON text is units UTF-16 code
// units long, when that length alone puts them over maxArgumentBytes: the caller asks before it
// copies the text into the module, so that arguments far over the limit cost no copy (the
// browser's TextEncoder and Go's copies, on the page's thread). nil when the
// text may be within the limit, or schema id is not registered (Validate then says so).
func (m *Module) RefuseLongArguments(id, units int, forAgent bool) []byte {
	ie := refusal.ArgumentsTooLong(units, m.currentPolicy().MaxArgumentBytes)
	if ie == nil || m.schema(id) == nil {
		return nil
	}
	return invalidFrame(ie, forAgent)
}

// schema is the compiled schema id names, or nil.
func (m *Module) schema(id int) *inputschema.Schema {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.schemas[id]
}

// invalidFrame is Validate's answer for arguments refused with err.
func invalidFrame(err error, forAgent bool) []byte {
	ie, ok := errors.AsType[*inputschema.InputError](err)
	if !ok {
		return errorFrame("TypeError", err.Error(), nil)
	}
	r := bridge.ErrorResult(ie.Sentence(), "")
	return frame(func(w *jsonvalue.Writer) {
		w.Raw(`{"invalid":`)
		w.Value(ie)
		w.Raw(`,"message":`)
		w.Str(ie.Error())
		if forAgent {
			agentHead(r)(w)
		}
		w.Raw("}")
	}, r)
}

// ParseToolOutput is the agent side: it normalizes executeTool's raw output again, trusting
// nothing, and answers in one crossing what the agent and the renderer need — head
// {"violations", "modelInput", "tables"}, body the result. Relative links are resolved against
// pageURL. tables maps the index of each text/csv resource to its rows, so the renderer never
// parses CSV.
func (m *Module) ParseToolOutput(raw, pageURL string) []byte {
	r, vs := bridge.ParseToolOutput(raw, m.policyFor(pageURL))
	return resultFrame(r, vs, agentHead(r))
}

// ToModelInput answers {"modelInput"} for a result the page holds (normalized again first: the
// object may have been changed since the bridge produced it).
func (m *Module) ToModelInput(resultJSON string) []byte {
	r, _ := bridge.ParseToolOutput(resultJSON, m.currentPolicy())
	return frame(func(w *jsonvalue.Writer) {
		w.Raw(`{"modelInput":`)
		w.Value(bridge.ToModelInput(r))
		w.Raw("}")
	}, nil)
}

// csvTables reads every text/csv resource of r into rows, by block index.
func csvTables(r *bridge.CallToolResult) map[string]any {
	out := map[string]any{}
	for i, c := range r.Content {
		res, ok := c.(*bridge.EmbeddedResource)
		if !ok || res.Resource.Blob != nil || !strings.EqualFold(res.Resource.MIMEType, "text/csv") {
			continue
		}
		records, ok := csvRecords(res.Resource.Text)
		if !ok {
			continue // not CSV after all: the renderer shows it as text
		}
		rows := make([]any, len(records))
		for j, rec := range records {
			rows[j] = rec
		}
		out[strconv.Itoa(i)] = rows
	}
	return out
}
