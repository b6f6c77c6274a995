package bridge

import (
	"encoding/json"
	"fmt"
)

// compactRaw removes the white space between the tokens of valid JSON text.
func compactRaw(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString = true
		}
		out = append(out, c)
	}
	return out
}

func withAudience(a *Annotations, r Role) *Annotations {
	out := &Annotations{Audience: []Role{r}}
	if a != nil {
		out.Priority, out.LastModified = a.Priority, a.LastModified
	}
	return out
}

func withMeta(meta map[string]any, k string, v any) map[string]any {
	if meta == nil {
		meta = map[string]any{}
	}
	if prev, ok := meta[k].(map[string]any); ok {
		if add, ok := v.(map[string]any); ok {
			for kk, vv := range add {
				prev[kk] = vv
			}
			return meta
		}
	}
	meta[k] = v
	return meta
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// scalarString renders a JSON scalar as text; objects and arrays as JSON; nil as "".
func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		w := &jsonWriter{}
		w.float(x)
		return string(w.buf)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	b, err := appendJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
