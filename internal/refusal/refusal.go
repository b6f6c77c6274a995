// Package refusal is the bridge's refusal of output it will not read at all — too large, too
// deep — and of arguments too long to copy, for the callers that measure them themselves: the
// WebAssembly module (the loader measures before anything crosses) and webmcp-mcp (its own
// limits on one message). It is not
// part of the public API: a Go server reaches the same refusals through bridge.NormalizeJSON
// and bridge.ParseToolOutput.
//
// The result itself is built by package bridge, which provides it when it is initialized (see
// Provide): a program that uses this package imports bridge too.
package refusal

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// Reason is why output is refused whole: the setting that applied and a sentence that says
// what was over it.
type Reason struct {
	Limit string // the setting, e.g. "maxResultBytes"
	Text  string // e.g. "the result is 12 MiB of JSON, over the 4 MiB limit"
}

// TooLarge is the reason for output of size bytes of JSON over limit (maxResultBytes); a
// negative size means "more than the limit", for a caller that stopped measuring there.
func TooLarge(size, limit int64) Reason {
	if size < 0 {
		return Reason{"maxResultBytes", "the result is more than " + sanitize.FormatBytes(limit) + " of JSON (the limit)"}
	}
	return Reason{"maxResultBytes", fmt.Sprintf("the result is %s of JSON, over the %s limit",
		sanitize.FormatBytes(size), sanitize.FormatBytes(limit))}
}

// TooDeep is the reason for output nested deeper than the bridge reads (bridge.MaxNesting).
func TooDeep() Reason {
	return Reason{"nesting", "the result is " + (&jsonvalue.DepthError{Limit: jsonvalue.MaxDepth}).Error()}
}

// Result is the result for output refused for why: an isError result whose one block is the
// bridge's notice, and the JSON of its one violation (an array, as the module's frames carry
// violations). It panics when package bridge is not linked into the program.
func Result(why Reason) (r *mcpwire.CallToolResult, violationsJSON []byte) {
	if provided == nil {
		panic("refusal: package bridge provides the refusal, and it is not linked into this program")
	}
	return provided(why)
}

// provided is the refusal package bridge builds.
var provided func(why Reason) (*mcpwire.CallToolResult, []byte)

// Provide is how package bridge hands over its refusal, once, when it is initialized.
func Provide(refuse func(why Reason) (*mcpwire.CallToolResult, []byte)) { provided = refuse }

// ArgumentsTooLong is the refusal of a call's arguments over maxBytes (the policy's
// maxArgumentBytes, 0: none) for a caller that has their text's length in UTF-16 code units (a
// JavaScript string's length) before it has the bytes: each unit is at least one byte of UTF-8,
// so units over maxBytes are over the limit without the text being copied to count them, which
// is what inputschema's own check needs. nil when units may be within the limit.
func ArgumentsTooLong(units, maxBytes int) *inputschema.InputError {
	if maxBytes <= 0 || units <= maxBytes {
		return nil
	}
	return &inputschema.InputError{Reason: "maxArgumentBytes", Message: fmt.Sprintf(
		"the arguments are %d UTF-16 units of JSON, so at least as many bytes, over the maxArgumentBytes limit of "+
			"%d bytes: they were refused before they were read", units, maxBytes)}
}
