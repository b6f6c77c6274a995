package bridge

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/internal/refusal"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// ExtraMetaKey is the _meta key under which Normalize keeps members of a known block that the
// block type does not define, so that nothing the tool sent is lost.
const ExtraMetaKey = "webmcp-bridge/extra"

// NoticeMetaKey marks the bridge's own notices: a text block that stands where the bridge
// removed or changed something has _meta[NoticeMetaKey] = {"limit": the setting that applied}.
// Normalize moves a tool's own use of the key under ExtraMetaKey, so a page cannot make its
// text look like a notice to a client that reads the mark.
const NoticeMetaKey = "webmcp-bridge/notice"

// MaxNesting is the deepest nesting of arrays and objects the bridge reads (a top-level array
// or object is level 1). Deeper output is refused whole, with an isError result that says so:
// every layer — the loader's walk, JSON.parse, the module's stack in WebAssembly — handles this
// depth, and a few thousand levels would end the module.
const MaxNesting = 128

// MaxNesting is the depth the JSON reader stops at: the build fails when they differ.
const _ = uint(MaxNesting-jsonvalue.MaxDepth) + uint(jsonvalue.MaxDepth-MaxNesting)

// Normalize turns what a WebMCP tool returned — a decoded JSON value: string, float64 or
// json.Number, bool, nil, []any or map[string]any — into an MCP CallToolResult, applying p.
//
// A string becomes a text block. An object whose "type" is one of the proposed WebMCP result
// types (text, image, html, link, table, error) or an MCP block type (text, image, audio,
// resource_link, resource), with that type's required members, becomes blocks; so does an array
// of such objects, or an envelope {content: [...], isError?, structuredContent?, _meta?} whose
// every item is one. Anything else is data: it becomes structuredContent (wrapped as
// {"result": v} when not an object) and its JSON as a text block, so nothing is lost — an
// envelope with one block of unknown type is data, too.
//
// A block that breaks a limit is replaced by a text notice that says what was removed and why,
// and reported in the returned violations; with p.Strict the whole result becomes an isError
// result listing the reasons. Normalize never panics on any such value.
func Normalize(v any, p Policy) (*CallToolResult, []Violation) {
	n := &normalizer{p: p}
	n.result(v)
	return n.finish()
}

// NormalizeJSON is Normalize for a JSON document. Output over p.MaxResultBytes, or nested
// deeper than MaxNesting, is refused whole before it is read: an isError result with one
// notice. Data (structuredContent's text block) is shown to the model as the tool wrote it,
// compacted, rather than with Go's sorted members. The error is for JSON that does not parse.
func NormalizeJSON(b []byte, p Policy) (*CallToolResult, []Violation, error) {
	if r, vs := refuseOversized(len(b), p); r != nil {
		return r, vs, nil
	}
	v, err := jsonvalue.Decode(b)
	if err != nil {
		if _, deep := errors.AsType[*jsonvalue.DepthError](err); deep {
			r, vs := refuse(refusal.TooDeep())
			return r, vs, nil
		}
		return nil, nil, err
	}
	n := &normalizer{p: p, rawJSON: b}
	n.result(v)
	r, vs := n.finish()
	return r, vs, nil
}

func init() {
	refusal.Provide(func(why refusal.Reason) (*CallToolResult, []byte) {
		r, vs := refuse(why)
		return r, marshalViolations(vs)
	})
}

// refuse is the result for output the bridge will not read at all — too deep, too large: an
// isError result whose one block is the notice, and the one violation (item 0, type "result")
// that names the limit and the reason.
func refuse(why refusal.Reason) (*CallToolResult, []Violation) {
	n := &normalizer{p: Policy{}}
	n.violate("result", "refused", why.Limit, why.Text)
	n.isError = true
	return &CallToolResult{Content: n.out, IsError: true}, n.violations
}

// refuseOversized refuses, before it is decoded, output whose JSON is over p.MaxResultBytes:
// the decoder's allocations are bounded by what it is given.
func refuseOversized(size int, p Policy) (*CallToolResult, []Violation) {
	if p.MaxResultBytes <= 0 || int64(size) <= p.MaxResultBytes {
		return nil, nil
	}
	return refuse(refusal.TooLarge(int64(size), p.MaxResultBytes))
}

// ErrorResult is the result for a tool that failed (threw, rejected, or could not be run):
// isError with one text block that gives the message and, when not empty, the code.
func ErrorResult(message, code string) *CallToolResult {
	t := &TextContent{Text: errorText(message, code)}
	if code != "" {
		t.Meta = map[string]any{"code": code}
	}
	return &CallToolResult{Content: []Content{t}, IsError: true}
}

func errorText(message, code string) string {
	message, _, _ = sanitize.Text(message, 0)
	if strings.TrimSpace(message) == "" {
		message = "the tool failed without a message"
	}
	if code != "" {
		return "Error [" + code + "]: " + message
	}
	return "Error: " + message
}

// normalizer builds one result. Every output block is emitted with the index of the input item
// it came from, so that a violation found late (maxResultBytes) names the same item as one
// found while converting.
type normalizer struct {
	p          Policy
	out        []Content
	from       []int // from[i] is the input item out[i] came from
	item       int   // the input item being converted
	violations []Violation
	isError    bool
	structured map[string]any
	// structuredBytes is the JSON size of structured, counted against MaxResultBytes.
	structuredBytes int64
	meta            map[string]any
	// rawJSON is the document the value was decoded from, when there is one.
	rawJSON []byte
}

// emit appends blocks converted from the current item.
func (n *normalizer) emit(blocks ...Content) {
	for _, b := range blocks {
		n.out = append(n.out, b)
		n.from = append(n.from, n.item)
	}
}

// result converts a whole tool result: one block, a list of blocks, an envelope, or data.
func (n *normalizer) result(v any) {
	switch x := v.(type) {
	case string:
		n.text(x, nil, nil)
		return
	case []byte: // a binary result is an image, its type read from its bytes
		n.image(x, "", "", nil, nil)
		return
	case map[string]any:
		if kind := blockKind(x); kind != "" {
			n.convert(kind, x)
			return
		}
		if items, ok := envelopeItems(x); ok {
			n.items(items)
			n.envelopeMembers(x)
			return
		}
	case []any:
		if items, ok := blockList(x, true); ok {
			n.items(items)
			return
		}
	}
	n.data(v)
}

func (n *normalizer) items(items []map[string]any) {
	for i, it := range items {
		n.item = i
		n.convert(blockKind(it), it)
	}
	n.item = 0
}

// envelopeMembers keeps an envelope's isError, structuredContent (wrapped when not an object)
// and _meta.
func (n *normalizer) envelopeMembers(m map[string]any) {
	switch ie := m["isError"].(type) {
	case nil:
	case bool:
		n.isError = ie
	default: // only reachable from ParseToolOutput, which reads envelopes block by block
		n.violate("result", "changed", "isError", "isError is "+pagetext.QuoteJSON(ie)+", not true or false; it was ignored")
	}
	if sc, ok := m["structuredContent"]; ok && sc != nil {
		n.structured = wrapStructured(sc)
		if b, err := jsonvalue.Marshal(n.structured); err == nil {
			n.structuredBytes = int64(len(b))
		}
	}
	switch meta := m["_meta"].(type) {
	case nil:
	case map[string]any:
		n.meta = meta
	default:
		n.violate("result", "changed", "_meta", "_meta is "+pagetext.QuoteJSON(meta)+", not an object; it was ignored")
	}
}

// data keeps any other JSON value as structuredContent and its JSON as text.
func (n *normalizer) data(v any) {
	var b []byte
	var err error
	if n.rawJSON != nil {
		b = jsonvalue.CompactRaw(n.rawJSON)
	} else {
		b, err = jsonvalue.Marshal(v)
	}
	if err != nil {
		n.remove("data", fmt.Errorf("the value cannot be written as JSON: %v", err))
		return
	}
	if n.p.MaxResultBytes > 0 && int64(len(b)) > n.p.MaxResultBytes {
		n.remove("data", &sanitize.LimitError{Limit: "maxResultBytes", Reason: fmt.Sprintf("%s of JSON exceeds the %s limit",
			sanitize.FormatBytes(int64(len(b))), sanitize.FormatBytes(n.p.MaxResultBytes))})
		return
	}
	n.structured = wrapStructured(v)
	n.structuredBytes = int64(len(b))
	text, _, _ := sanitize.Text(string(b), 0) // JSON text may hold invalid UTF-8 the decoder replaced
	n.emit(&TextContent{Text: text})
}

// finish applies the whole-result limit and strict mode.
func (n *normalizer) finish() (*CallToolResult, []Violation) {
	if n.p.MaxResultBytes > 0 {
		n.enforceResultBytes()
	}
	if n.p.Strict && len(n.violations) > 0 {
		reasons := make([]string, len(n.violations))
		for i, v := range n.violations {
			reasons[i] = v.Notice
		}
		return &CallToolResult{IsError: true, Content: []Content{
			noticeBlock(pagetext.Notice("Tool result refused by the strict policy: "+strings.Join(reasons, " ")), "strict"),
		}}, n.violations
	}
	if n.out == nil {
		n.out = []Content{}
	}
	return &CallToolResult{Content: n.out, StructuredContent: n.structured, IsError: n.isError, Meta: n.meta}, n.violations
}

// enforceResultBytes replaces blocks, last first, with notices until the estimated size of the
// result fits MaxResultBytes. Each violation names the input item the block came from.
func (n *normalizer) enforceResultBytes() {
	sizes := make([]int64, len(n.out))
	var total int64
	for i, c := range n.out {
		sizes[i] = blockSize(c)
		total += sizes[i]
	}
	total += n.structuredBytes
	for i := len(n.out) - 1; i >= 0 && total > n.p.MaxResultBytes; i-- {
		if sizes[i] < 256 {
			continue
		}
		kind := n.out[i].ContentType()
		reason := fmt.Sprintf("the result would be %s, over the %s limit",
			sanitize.FormatBytes(total), sanitize.FormatBytes(n.p.MaxResultBytes))
		notice := "[" + kind + " removed: " + reason + "]"
		n.violations = append(n.violations,
			Violation{Item: n.from[i], Type: kind, Limit: "maxResultBytes", Reason: reason, Notice: notice})
		n.out[i] = noticeBlock(notice, "maxResultBytes")
		total -= sizes[i] - int64(len(notice))
	}
}

// blockSize estimates a block's JSON size without writing it.
func blockSize(c Content) int64 {
	switch b := c.(type) {
	case *TextContent:
		return int64(len(b.Text)) + 64
	case *ImageContent:
		return int64(base64.StdEncoding.EncodedLen(len(b.Data))) + 64
	case *AudioContent:
		return int64(base64.StdEncoding.EncodedLen(len(b.Data))) + 64
	case *EmbeddedResource:
		if b.Resource.Blob != nil {
			return int64(base64.StdEncoding.EncodedLen(len(b.Resource.Blob))) + 128
		}
		return int64(len(b.Resource.Text)) + 128
	case *ResourceLink:
		return int64(len(b.URI)+len(b.Name)+len(b.Title)+len(b.Description)) + 96
	}
	return 64
}
