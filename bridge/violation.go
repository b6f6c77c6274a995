package bridge

import (
	"errors"
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// Violation is one policy rule a tool result broke, and what Normalize did about it.
type Violation struct {
	// Item is the index of the offending item in what the tool returned: its position in the
	// returned array or envelope's content, 0 for a single value.
	Item   int
	Type   string // the item's type as the tool gave it: "image", "html", "table", …
	Limit  string // the policy setting that applied, e.g. "maxImageBytes"
	Reason string // what was wrong, e.g. "21.3 MiB exceeds the 5 MiB limit"
	Notice string // the text the agent sees in the block's place
}

// MarshalJSON writes {"item", "type", "limit", "reason", "notice"}.
func (v Violation) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(v) }

// AppendJSON appends {"item", "type", "limit", "reason", "notice"} to b.
func (v Violation) AppendJSON(b []byte) ([]byte, error) { return jsonvalue.AppendTo(b, v.writeJSON) }

func (v Violation) writeJSON(w *jsonvalue.Writer) {
	w.Raw(`{"item":`)
	w.Value(v.Item)
	for _, f := range [...]struct{ k, v string }{
		{"type", v.Type}, {"limit", v.Limit}, {"reason", v.Reason}, {"notice", v.Notice},
	} {
		w.Raw(`,"` + f.k + `":`)
		w.Str(f.v)
	}
	w.Raw("}")
}

// marshalViolations writes violations as a JSON array ([] when there are none).
func marshalViolations(vs []Violation) []byte {
	w := &jsonvalue.Writer{}
	jsonvalue.WriteArray(w, vs, func(v Violation) { v.writeJSON(w) })
	return w.Bytes()
}

// violate records a violation of the current item and puts its notice, "[kind verb: reason]",
// into the content where the block stood (verb "removed") or right after what was kept of it.
func (n *normalizer) violate(kind, verb, limit, reason string) {
	reason = pagetext.Notice(reason) // the last bound: a notice is one line of a few hundred characters
	notice := pagetext.Notice("[" + kind + " " + verb + ": " + reason + "]")
	n.violations = append(n.violations, Violation{Item: n.item, Type: kind, Limit: limit, Reason: reason, Notice: notice})
	n.emit(noticeBlock(notice, limit))
}

// noticeBlock is the text block of one of the bridge's own notices, marked with NoticeMetaKey.
func noticeBlock(text, limit string) *TextContent {
	return &TextContent{Text: text, Meta: map[string]any{NoticeMetaKey: map[string]any{"limit": limit}}}
}

// remove replaces the current item with a notice that gives err's reason; the limit is the
// setting a *sanitize.LimitError names, "policy" otherwise.
func (n *normalizer) remove(kind string, err error) {
	limit := "policy"
	if le, ok := errors.AsType[*sanitize.LimitError](err); ok {
		limit = le.Limit
	}
	n.violate(kind, "removed", limit, err.Error())
}

func truncationReason(chars, limit int) string {
	return fmt.Sprintf("%s characters exceed the %s-character limit; the first %s were kept",
		sanitize.FormatCount(int64(chars)), sanitize.FormatCount(int64(limit)), sanitize.FormatCount(int64(limit)))
}
