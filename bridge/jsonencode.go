package bridge

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonWriter writes the JSON the bridge produces without reflection: results are built on every
// tool call, and encoding/json's reflection (and its re-compaction of every RawMessage) is the
// slowest part of writing them, above all in WebAssembly. Strings are escaped as encoding/json
// does with SetEscapeHTML(false); invalid UTF-8 becomes U+FFFD.
type jsonWriter struct {
	buf []byte
	err error
}

func (w *jsonWriter) raw(s string) { w.buf = append(w.buf, s...) }

// key writes `,"name":` (the comma unless first) for objects built by hand.
func (w *jsonWriter) key(first *bool, name string) {
	if !*first {
		w.buf = append(w.buf, ',')
	}
	*first = false
	w.str(name)
	w.buf = append(w.buf, ':')
}

const hexDigits = "0123456789abcdef"

// str writes s as a JSON string.
func (w *jsonWriter) str(s string) {
	w.buf = append(w.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			w.buf = append(w.buf, s[start:i]...)
			switch c {
			case '"', '\\':
				w.buf = append(w.buf, '\\', c)
			case '\n':
				w.buf = append(w.buf, '\\', 'n')
			case '\r':
				w.buf = append(w.buf, '\\', 'r')
			case '\t':
				w.buf = append(w.buf, '\\', 't')
			case '\b':
				w.buf = append(w.buf, '\\', 'b')
			case '\f':
				w.buf = append(w.buf, '\\', 'f')
			default:
				w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.buf = append(w.buf, s[start:i]...)
			w.buf = append(w.buf, "\ufffd"...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			// Valid JSON, but not valid JavaScript source before ES2019; encoding/json escapes them.
			w.buf = append(w.buf, s[start:i]...)
			w.buf = append(w.buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.buf = append(w.buf, s[start:]...)
	w.buf = append(w.buf, '"')
}

// b64 writes data as a padded standard base64 JSON string.
func (w *jsonWriter) b64(data []byte) {
	w.buf = append(w.buf, '"')
	n := base64.StdEncoding.EncodedLen(len(data))
	start := len(w.buf)
	w.buf = append(w.buf, make([]byte, n)...)
	base64.StdEncoding.Encode(w.buf[start:], data)
	w.buf = append(w.buf, '"')
}

// value writes a decoded JSON value: nil, bool, string, json.Number, numbers, []any,
// map[string]any (members sorted, as encoding/json does), and the bridge's own types.
func (w *jsonWriter) value(v any) {
	switch x := v.(type) {
	case nil:
		w.raw("null")
	case bool:
		if x {
			w.raw("true")
		} else {
			w.raw("false")
		}
	case string:
		w.str(x)
	case json.Number:
		switch {
		case x == "":
			w.raw("0")
		case outOfFloatRange(string(x)):
			// Valid JSON, but no float64 holds it: JavaScript reads Infinity and Go clients
			// refuse the whole result. Its digits are kept as a string.
			w.str(string(x))
		default:
			w.raw(string(x))
		}
	case float64:
		w.float(x)
	case float32:
		w.float(float64(x))
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	case int64:
		w.buf = strconv.AppendInt(w.buf, x, 10)
	case uint64:
		w.buf = strconv.AppendUint(w.buf, x, 10)
	case []any:
		writeArray(w, x, w.value)
	case []string:
		writeArray(w, x, w.str)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		w.buf = append(w.buf, '{')
		for i, k := range keys {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.str(k)
			w.buf = append(w.buf, ':')
			w.value(x[k])
		}
		w.buf = append(w.buf, '}')
	case []Violation:
		writeArray(w, x, func(v Violation) { v.appendJSON(w) })
	case jsonAppender:
		x.appendJSON(w)
	default:
		if marshalFallback == nil {
			w.fail(fmt.Errorf("cannot write %T as JSON", v))
			return
		}
		b, err := marshalFallback(v)
		if err != nil {
			w.fail(err)
			return
		}
		w.buf = append(w.buf, b...)
	}
}

// writeArray writes list as a JSON array, each element by write.
func writeArray[T any](w *jsonWriter, list []T, write func(T)) {
	w.buf = append(w.buf, '[')
	for i, e := range list {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		write(e)
	}
	w.buf = append(w.buf, ']')
}

// outOfFloatRange reports whether a JSON number's magnitude exceeds float64.
func outOfFloatRange(n string) bool {
	if len(n) < 309 && !strings.ContainsAny(n, "eE") {
		return false // fewer than 309 digits cannot exceed 1.8e308
	}
	f, err := strconv.ParseFloat(n, 64)
	return err != nil && math.IsInf(f, 0)
}

func (w *jsonWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.fail(errors.New("cannot write NaN or an infinity as JSON"))
		return
	}
	// The same shortest form encoding/json uses.
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(w.buf)
	w.buf = strconv.AppendFloat(w.buf, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(w.buf) - start
		if n >= 4 && w.buf[len(w.buf)-4] == 'e' && w.buf[len(w.buf)-3] == '-' && w.buf[len(w.buf)-2] == '0' {
			w.buf[len(w.buf)-2] = w.buf[len(w.buf)-1]
			w.buf = w.buf[:len(w.buf)-1]
		}
	}
}

func (w *jsonWriter) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// marshalFallback writes values that are not decoded JSON (structs a Go server passes to
// Normalize). It is encoding/json natively (jsonfallback.go) and nil in WebAssembly, where every
// value comes from decodeJSON, so the module does not link encoding/json's reflection.
var marshalFallback func(any) ([]byte, error)

// jsonAppender is a bridge type that writes itself.
type jsonAppender interface{ appendJSON(w *jsonWriter) }

// MarshalJSON writes results, blocks, violations, policies, model inputs and decoded JSON values
// (maps with sorted members) as compact JSON, without HTML escaping and without reflection.
func MarshalJSON(v any) ([]byte, error) { return appendJSON(v) }

// appendJSON writes any value to JSON text, or an error for values JSON cannot hold.
func appendJSON(v any) ([]byte, error) {
	w := &jsonWriter{buf: make([]byte, 0, 256)}
	w.value(v)
	return w.buf, w.err
}
