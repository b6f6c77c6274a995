package jsonvalue

import (
	"encoding/json"
	"fmt"
)

// ToFloat returns a decoded JSON number (or a Go integer) as a float64.
func ToFloat(v any) (float64, bool) {
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

// Compact returns v as compact JSON text, or Go's rendering of it when JSON cannot hold it.
func Compact(v any) string {
	b, err := Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Scalar renders a JSON scalar as text (a string as it is, numbers and booleans in their JSON
// form), objects and arrays as JSON, and nil as "".
func Scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return Compact(v)
}

// TypeName names v's JSON type as JSON Schema does: numbers with no fractional part, judged
// exactly (1.0 and 1e2 included), are "integer".
func TypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number, float64, int, int64:
		if d, ok := NumberOf(x); ok && d.IsInteger() {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// CompactRaw removes the white space between the tokens of valid JSON text.
func CompactRaw(b []byte) []byte {
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
