package jsonvalue

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Decode decodes one JSON document into map[string]any, []any, string, json.Number, bool and
// nil. It does what encoding/json with UseNumber does — invalid
// UTF-8 and lone surrogates become U+FFFD — in a single pass: tool results are mostly one long
// string (base64 images, HTML), and encoding/json scans every document twice before it copies it.
//
// The input is copied once, as a string, and every string and number without escapes is a
// slice of that copy; members are gathered on one stack shared by all objects and arrays, so
// each object's map and each array is allocated once at its final size. Decoding is linear in
// the input and allocates about one object per value.
func Decode(b []byte) (any, error) {
	return decode(jsonDecoder{data: b, src: string(b)})
}

// DecodeKeepingLoneSurrogates is Decode, except that a lone surrogate escape ("\ud800" without
// its pair) is written into the string as its three-byte WTF-8 form instead of U+FFFD: invalid
// UTF-8 that the caller can find, and refuse, where Decode would have made two different
// strings equal. Invalid UTF-8 in the input still becomes U+FFFD, so only such an escape
// leaves invalid UTF-8 in the value.
func DecodeKeepingLoneSurrogates(b []byte) (any, error) {
	return decode(jsonDecoder{data: b, src: string(b), keepLoneSurrogates: true})
}

func decode(d jsonDecoder) (any, error) {
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		if de, ok := errors.AsType[*DepthError](err); ok {
			return nil, de // valid JSON perhaps, but deeper than the bridge reads
		}
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, fmt.Errorf("not JSON: unexpected %q after the value at byte %d", d.data[d.pos], d.pos)
	}
	return v, nil
}

// MaxDepth is the deepest nesting of arrays and objects Decode reads: a top-level array is
// depth 1. It is the one nesting limit of the bridge, chosen so that every layer can honour
// it: the loader's walk and JSON.parse in the page, and the module's own recursion, which in
// WebAssembly runs on the engine's call stack (a few thousand levels end the module).
const MaxDepth = 128

// DepthError is Decode's answer to input nested deeper than MaxDepth.
type DepthError struct{ Limit int }

func (e *DepthError) Error() string {
	return fmt.Sprintf("nested more than %d levels deep (the limit)", e.Limit)
}

type jsonDecoder struct {
	data []byte
	src  string // data as a string: the backing of every string and number without escapes
	pos  int
	// members and elements are the stacks of the objects and arrays being read, innermost last.
	members  []member
	elements []any
	// keepLoneSurrogates writes a lone surrogate escape as WTF-8 (DecodeKeepingLoneSurrogates).
	keepLoneSurrogates bool
}

type member struct {
	k string
	v any
}

var errJSONEnd = errors.New("unexpected end of input")

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) errAt(what string) error {
	if d.pos >= len(d.data) {
		return errJSONEnd
	}
	return fmt.Errorf("%s at byte %d (%q)", what, d.pos, d.data[d.pos])
}

func (d *jsonDecoder) value(depth int) (any, error) {
	if depth >= MaxDepth && d.pos < len(d.data) && (d.data[d.pos] == '[' || d.data[d.pos] == '{') {
		return nil, &DepthError{Limit: MaxDepth}
	}
	if d.pos >= len(d.data) {
		return nil, errJSONEnd
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || ('0' <= c && c <= '9'):
		return d.number()
	}
	return nil, d.errAt("unexpected character")
}

func (d *jsonDecoder) literal(word string) error {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return d.errAt("invalid literal")
	}
	d.pos += len(word)
	return nil
}

func (d *jsonDecoder) object(depth int) (any, error) {
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return map[string]any{}, nil
	}
	base := len(d.members)
	defer func() {
		clear(d.members[base:]) // the stack must not keep what the caller may drop
		d.members = d.members[:base]
	}()
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.errAt("expected a member name")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.errAt("expected ':'")
		}
		d.pos++
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.members = append(d.members, member{k, v})
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errJSONEnd
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			m := make(map[string]any, len(d.members)-base)
			for _, e := range d.members[base:] {
				m[e.k] = e.v // a repeated name: the last one wins, as in encoding/json
			}
			return m, nil
		default:
			return nil, d.errAt("expected ',' or '}'")
		}
	}
}

func (d *jsonDecoder) array(depth int) (any, error) {
	d.pos++ // [
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return []any{}, nil
	}
	base := len(d.elements)
	defer func() {
		clear(d.elements[base:])
		d.elements = d.elements[:base]
	}()
	for {
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.elements = append(d.elements, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errJSONEnd
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return append([]any(nil), d.elements[base:]...), nil
		default:
			return nil, d.errAt("expected ',' or ']'")
		}
	}
}

func (d *jsonDecoder) number() (any, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.pos < len(d.data) && d.data[d.pos] == '0' {
		d.pos++
	} else if digits() == 0 {
		return nil, d.errAt("invalid number")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return nil, d.errAt("invalid number")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return nil, d.errAt("invalid number")
		}
	}
	return json.Number(d.src[start:d.pos]), nil
}

// str reads a string starting at the opening quote. Strings without escapes or invalid UTF-8
// — nearly all of them, base64 included — are copied once with no per-byte work beyond the scan.
func (d *jsonDecoder) str() (string, error) {
	d.pos++ // "
	start := d.pos
	data := d.data
	i := d.pos
	// Fast path: up to the next quote there is no backslash and only printable ASCII.
	if q := bytes.IndexByte(data[i:], '"'); q >= 0 && bytes.IndexByte(data[i:i+q], '\\') < 0 &&
		printableASCII(data[i:i+q]) {
		d.pos = i + q + 1
		return d.src[i : i+q], nil
	}
	for i < len(data) && plainStringByte[data[i]] {
		i++
	}
	d.pos = i
	if i >= len(data) {
		return "", errJSONEnd
	}
	if data[i] == '"' {
		d.pos++
		return d.src[start:i], nil
	}
	return d.slowStr(start)
}

// printableASCII reports whether every byte of b is in 0x20..0x7f, eight bytes at a time.
func printableASCII(b []byte) bool {
	const hi, lo = 0x8080808080808080, 0x2020202020202020
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		if w&hi != 0 || (w-lo)&^w&hi != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}

// plainStringByte marks the bytes a JSON string can hold as they are: printable ASCII but the
// quote and the backslash.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (d *jsonDecoder) slowStr(start int) (string, error) {
	// The decoded string is never longer than its JSON (an escape is longer than what it
	// stands for; a replaced invalid byte, 3 bytes for 1, is the one exception, which append
	// makes room for): one allocation, written once, handed out without a copy.
	buf := make([]byte, 0, stringEnd(d.data, d.pos)-start)
	buf = append(buf, d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return unsafe.String(unsafe.SliceData(buf), len(buf)), nil // buf is not written again
		case c < 0x20:
			return "", d.errAt("control character in string")
		case c == '\\':
			if d.pos+1 >= len(d.data) {
				return "", errJSONEnd
			}
			e := d.data[d.pos+1]
			d.pos += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", d.errAt("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
						save := d.pos
						d.pos += 2
						var ok2 bool
						if r2, ok2 = d.hex4(); !ok2 {
							return "", d.errAt("invalid \\u escape")
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							buf = utf8.AppendRune(buf, dec)
							continue
						}
						d.pos = save // not a pair: the second escape is read on its own
					}
					if d.keepLoneSurrogates {
						buf = append(buf, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
					} else {
						buf = utf8.AppendRune(buf, utf8.RuneError)
					}
					continue
				}
				buf = utf8.AppendRune(buf, r)
			default:
				d.pos -= 2
				return "", d.errAt("invalid escape")
			}
		case c < utf8.RuneSelf:
			// Copy the whole run of plain ASCII at once.
			end := d.pos + 1
			for end < len(d.data) && plainStringByte[d.data[end]] {
				end++
			}
			buf = append(buf, d.data[d.pos:end]...)
			d.pos = end
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, d.data[d.pos:d.pos+size]...)
			}
			d.pos += size
		}
	}
	return "", errJSONEnd
}

// stringEnd returns the index of the quote that ends the JSON string whose content goes on at
// data[i:], or len(data) when none does.
func stringEnd(data []byte, i int) int {
	for {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return len(data)
		}
		i += q
		n := 0 // backslashes before the quote: an odd number escapes it
		for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return i
		}
		i++
	}
}

func (d *jsonDecoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.pos += 4
	return r, true
}
