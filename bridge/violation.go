package bridge

import (
	"errors"
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

func (v Violation) appendJSON(w *jsonWriter) {
	w.raw(`{"block":`)
	w.value(v.Block)
	for _, f := range [...]struct{ k, v string }{{"type", v.Type}, {"limit", v.Limit}, {"reason", v.Reason}, {"notice", v.Notice}} {
		w.raw(`,"` + f.k + `":`)
		w.str(f.v)
	}
	w.raw("}")
}

// Violation is one policy rule a tool result broke, and what Normalize did about it.
type Violation struct {
	Block  int    `json:"block"`  // index of the offending item in the tool's content (0 for a single value)
	Type   string `json:"type"`   // the item's type as the tool gave it: "image", "html", "table", …
	Limit  string `json:"limit"`  // the policy setting that applied, e.g. "maxImageBytes"
	Reason string `json:"reason"` // what was wrong, e.g. "21.3 MiB exceeds the 5 MiB limit"
	Notice string `json:"notice"` // the text the agent sees in the block's place
}

// violate records a violation and puts its notice, "[kind verb: reason]", into the content
// where the block stood (verb "removed") or right after what was kept of it.
func (n *normalizer) violate(kind, verb, limit, reason string) {
	notice := "[" + kind + " " + verb + ": " + reason + "]"
	n.violations = append(n.violations, Violation{Block: n.block, Type: kind, Limit: limit, Reason: reason, Notice: notice})
	n.out = append(n.out, &TextContent{Text: notice})
}

func (n *normalizer) fail(kind string, err error) {
	limit := "policy"
	var le *sanitize.LimitError
	if errors.As(err, &le) {
		limit = le.Limit
	}
	n.violate(kind, "removed", limit, err.Error())
}

func truncationReason(chars, limit int) string {
	return fmt.Sprintf("%s characters exceed the %s-character limit; the first %s were kept",
		sanitize.FormatCount(int64(chars)), sanitize.FormatCount(int64(limit)), sanitize.FormatCount(int64(limit)))
}
