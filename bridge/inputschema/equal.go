package inputschema

import (
	"sort"
	"strconv"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// canonical is the one text of a JSON value, for const, enum and uniqueItems: two values are
// equal in JSON Schema's sense (numbers by value, 1 and 1.0 alike; members in any order)
// exactly when their canonical texts are equal, so uniqueItems needs no pairwise comparison.
func canonical(v any) string {
	var b strings.Builder
	writeCanonical(&b, v)
	return b.String()
}

func writeCanonical(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(strconv.Quote(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Sort(sort.StringSlice(keys))
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeCanonical(b, x[k])
		}
		b.WriteByte('}')
	default:
		if d, ok := jsonvalue.NumberOf(x); ok {
			b.WriteString(d.Canonical())
		} else {
			b.WriteString("?" + jsonvalue.Compact(x)) // not JSON: a Go value a caller passed
		}
	}
}
