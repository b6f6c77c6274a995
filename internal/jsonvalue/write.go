package jsonvalue

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

// Writer writes the JSON the bridge produces without reflection: results are built on every
// tool call, and encoding/json's reflection (and its re-compaction of every RawMessage) is the
// slowest part of writing them, above all in WebAssembly. Strings are escaped as encoding/json
// does with SetEscapeHTML(false); invalid UTF-8 becomes U+FFFD.
type Writer struct {
	buf []byte
	err error
	// members is the stack of the objects being written, innermost last: each object's members
	// are sorted there, so writing one allocates nothing once the stack has grown.
	members []member
}

// Raw writes s as it is: punctuation and member names the caller knows need no escaping.
func (w *Writer) Raw(s string) { w.buf = append(w.buf, s...) }

// Key writes `,"name":` (the comma unless first) for objects built by hand.
func (w *Writer) Key(first *bool, name string) {
	if !*first {
		w.buf = append(w.buf, ',')
	}
	*first = false
	w.Str(name)
	w.buf = append(w.buf, ':')
}

const hexDigits = "0123456789abcdef"

// Str writes s as a JSON string.
func (w *Writer) Str(s string) {
	w.buf = append(w.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		if i += plainPrefix(s[i:]); i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
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

// Base64 writes data as a padded standard base64 JSON string.
func (w *Writer) Base64(data []byte) {
	w.buf = append(w.buf, '"')
	n := base64.StdEncoding.EncodedLen(len(data))
	start := len(w.buf)
	w.buf = append(w.buf, make([]byte, n)...)
	base64.StdEncoding.Encode(w.buf[start:], data)
	w.buf = append(w.buf, '"')
}

// Value writes a decoded JSON value — nil, bool, string, json.Number, Go numbers, []any,
// []string, map[string]any (members sorted, as encoding/json does) — or an Appender. Other
// values go through encoding/json natively and are an error in WebAssembly.
func (w *Writer) Value(v any) {
	switch x := v.(type) {
	case nil:
		w.Raw("null")
	case bool:
		if x {
			w.Raw("true")
		} else {
			w.Raw("false")
		}
	case string:
		w.Str(x)
	case json.Number:
		switch {
		case x == "":
			w.Raw("0")
		case outOfFloatRange(string(x)):
			// Valid JSON, but no float64 holds it: JavaScript reads Infinity and Go clients
			// refuse the whole result. Its digits are kept as a string.
			w.Str(string(x))
		default:
			w.Raw(string(x))
		}
	case float64:
		w.Float(x)
	case float32:
		w.Float(float64(x))
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	case int64:
		w.buf = strconv.AppendInt(w.buf, x, 10)
	case uint64:
		w.buf = strconv.AppendUint(w.buf, x, 10)
	case []any:
		WriteArray(w, x, w.Value)
	case []string:
		WriteArray(w, x, w.Str)
	case map[string]any:
		w.object(x)
	case Appender:
		b, err := x.AppendJSON(w.buf)
		w.buf = b
		if err != nil {
			w.Fail(err)
		}
	default:
		if marshalFallback == nil {
			w.Fail(fmt.Errorf("cannot write %T as JSON", v))
			return
		}
		b, err := marshalFallback(v)
		if err != nil {
			w.Fail(err)
			return
		}
		w.buf = append(w.buf, b...)
	}
}

// object writes m with its members sorted by name, as encoding/json does.
func (w *Writer) object(m map[string]any) {
	base := len(w.members)
	for k, v := range m {
		w.members = append(w.members, member{k, v})
	}
	members := w.members[base:] // stays valid when writing a value grows the stack
	sort.Sort(membersByName(members))
	w.buf = append(w.buf, '{')
	for i, e := range members {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.Str(e.k)
		w.buf = append(w.buf, ':')
		w.Value(e.v)
	}
	w.buf = append(w.buf, '}')
	clear(w.members[base:])
	w.members = w.members[:base]
}

// membersByName sorts an object's members with package sort's one sort for every type, which
// the module links anyway: slices.SortFunc would add a copy of its code for member alone.
type membersByName []member

func (m membersByName) Len() int           { return len(m) }
func (m membersByName) Less(i, j int) bool { return m[i].k < m[j].k }
func (m membersByName) Swap(i, j int)      { m[i], m[j] = m[j], m[i] }

// WriteArray writes list as a JSON array, each element by write.
func WriteArray[T any](w *Writer, list []T, write func(T)) {
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

// Float writes f in encoding/json's shortest form; NaN and infinities are an error.
func (w *Writer) Float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.Fail(errors.New("cannot write NaN or an infinity as JSON"))
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

// Fail records err (the first one wins); Marshal and Err return it.
func (w *Writer) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// marshalFallback writes values that are not decoded JSON (structs a Go server passes to
// Normalize). It is encoding/json natively (fallback.go) and nil in WebAssembly, where every
// value comes from Decode, so the module does not link encoding/json's reflection.
var marshalFallback func(any) ([]byte, error)

// Appender is a type that writes its own JSON form: AppendJSON appends it to b and returns the
// extended buffer. Its signature names no type of this package, so exported types can
// implement it; AppendTo is the usual body.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// AppendTo runs write on a Writer that appends to b, and returns the extended buffer and the
// first error met.
func AppendTo(b []byte, write func(w *Writer)) ([]byte, error) {
	w := Writer{buf: b}
	write(&w)
	return w.buf, w.err
}

// Marshal writes v as compact JSON without HTML escaping and without reflection: decoded JSON
// values (maps with their members sorted), Go numbers and strings, and any Appender.
func Marshal(v any) ([]byte, error) {
	w := &Writer{buf: make([]byte, 0, 256)}
	w.Value(v)
	return w.buf, w.err
}

// Bytes returns what has been written so far.
func (w *Writer) Bytes() []byte { return w.buf }

// Err returns the first error met while writing, if any.
func (w *Writer) Err() error { return w.err }

// Append writes raw JSON text as it is; the caller vouches for it.
func (w *Writer) Append(b []byte) { w.buf = append(w.buf, b...) }
