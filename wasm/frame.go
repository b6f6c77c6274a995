package main

import (
	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// frame writes one answer: the head (one line of JSON, written by head), a newline, and the
// body (none when nil), which writes itself straight after them, so that a large result is
// written once and never copied into the frame. A head that cannot be written becomes an error
// frame, and so does a body.
func frame(head func(w *jsonvalue.Writer), body jsonvalue.Appender) []byte {
	w := &jsonvalue.Writer{}
	head(w)
	if err := w.Err(); err != nil {
		return errorFrame("TypeError", err.Error(), nil)
	}
	w.Raw("\n")
	if body == nil {
		return w.Bytes()
	}
	out, err := body.AppendJSON(w.Bytes())
	if err != nil {
		return errorFrame("TypeError", "the result cannot be written as JSON: "+err.Error(), nil)
	}
	return out
}

// errorFrame is the answer of a failed call: {"error": {"name", "message", extra…}}, no body.
func errorFrame(name, message string, extra map[string]any) []byte {
	w := &jsonvalue.Writer{}
	w.Raw(`{"error":{"name":`)
	w.Str(name)
	w.Raw(`,"message":`)
	w.Str(message)
	for k, v := range extra {
		w.Raw(",")
		w.Str(k)
		w.Raw(":")
		w.Value(v)
	}
	w.Raw("}}\n")
	return w.Bytes()
}

// resultFrame answers a result: head {"violations": [...], more…}, body the result's JSON.
func resultFrame(r *bridge.CallToolResult, vs []bridge.Violation, more func(w *jsonvalue.Writer)) []byte {
	w := &jsonvalue.Writer{}
	jsonvalue.WriteArray(w, vs, func(v bridge.Violation) { w.Value(v) })
	return resultFrameJSON(r, w.Bytes(), more)
}

// resultFrameJSON is resultFrame for violations already written as a JSON array.
func resultFrameJSON(r *bridge.CallToolResult, violationsJSON []byte, more func(w *jsonvalue.Writer)) []byte {
	return frame(func(w *jsonvalue.Writer) {
		w.Raw(`{"violations":`)
		w.Append(violationsJSON)
		if more != nil {
			more(w)
		}
		w.Raw("}")
	}, r)
}
