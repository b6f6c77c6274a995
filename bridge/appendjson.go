package bridge

import "github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"

// AppendJSON appends every setting to b under its JSON name, in the documented order: the form
// MarshalJSON writes.
func (p Policy) AppendJSON(b []byte) ([]byte, error) { return jsonvalue.AppendTo(b, p.writeJSON) }
