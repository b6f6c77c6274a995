package jsonvalue

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdDecode is what Decode must agree with: encoding/json with UseNumber.
func stdDecode(b []byte) (any, error) {
	if !json.Valid(b) {
		return nil, assert.AnError
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func TestDecodeJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`"plain"`, `"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00"`, `"lone \ud800 x"`, "\"bad \xff utf8\"", `"é日本"`,
		`{"a":[1,-2.5e+3,0,true,false,null,{}],` +
			`"b":{"c":[]}}`, `"\u2028 \u2029 \u007f <&>"`, ` [ 1 , 2 ] `, `-0.0E-1`, `12345678901234567890`,
	} {
		want, err := stdDecode([]byte(s))
		require.NoError(t, err, s)
		got, err := Decode([]byte(s))
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `1.`, `"\x01"`, `"\q"`, `tru`, `1 2`, `{"a":1,}`,
		`"\u12"`} {
		_, err := Decode([]byte(s))
		assert.Error(t, err, "%q", s)
		_, stdErr := stdDecode([]byte(s))
		assert.Error(t, stdErr, "encoding/json also refuses %q", s)
	}
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"a":[1,"\u00e9\ud800"]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		want, wantErr := stdDecode(b)
		got, err := Decode(b)
		if (wantErr == nil) != (err == nil) {
			t.Fatalf("%q: encoding/json error %v, Decode error %v", b, wantErr, err)
		}
		if err == nil {
			assert.Equal(t, want, got)
			// The hand-written writer agrees with encoding/json (HTML escaping off) on every
			// decoded value.
			ours, err := Marshal(got)
			require.NoError(t, err)
			var std bytes.Buffer
			enc := json.NewEncoder(&std)
			enc.SetEscapeHTML(false)
			require.NoError(t, enc.Encode(hugeAsStrings(want)))
			assert.Equal(t, string(bytes.TrimSuffix(std.Bytes(), []byte("\n"))), string(ours))
		}
	})
}

func TestWriterFloatsMatchEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.5, 1e20, 1e21, 1.5e21, 1e-6, 1e-7, 1.234e-9, 123456789.123, -0.0,
		3.4028234663852886e38, 5e-324} {
		w := &Writer{}
		w.Float(f)
		std, err := json.Marshal(f)
		require.NoError(t, err)
		assert.Equal(t, string(std), string(w.buf), "%v", f)
	}
}

// hugeAsStrings turns numbers beyond float64 into strings, as the writer does.
func hugeAsStrings(v any) any {
	switch x := v.(type) {
	case json.Number:
		if outOfFloatRange(string(x)) {
			return string(x)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = hugeAsStrings(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = hugeAsStrings(e)
		}
		return out
	}
	return v
}

func TestWriterKeepsHugeNumbersAsStrings(t *testing.T) {
	v, err := Decode([]byte(`[1E1000, -2e400, 12345678901234567890, 1e-1000, 1.5]`))
	require.NoError(t, err)
	b, err := Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, `["1E1000","-2e400",12345678901234567890,1e-1000,1.5]`, string(b))
}

func TestDecimalInt64IsExact(t *testing.T) {
	for _, tt := range []struct {
		in    string
		want  int64
		whole bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"2.0", 2, true}, {"1e2", 100, true}, {"-5", -5, true},
		{"999999999999999999", 999999999999999999, true}, {"9007199254740993", 9007199254740993, true},
		{"1.5", 0, false}, {"1.0000000000000001", 0, false}, {"1e19", 0, false}, {"1e-1", 0, false},
	} {
		d, ok := ParseDecimal(tt.in)
		require.True(t, ok, tt.in)
		n, whole := d.Int64()
		assert.Equal(t, tt.whole, whole, tt.in)
		assert.Equal(t, tt.want, n, tt.in)
	}
	assert.Equal(t, "integer", TypeName(json.Number("1.0")))
	assert.Equal(t, "number", TypeName(json.Number("1.0000000000000001")), "judged exactly, not through float64")
}

// TestDecodeDepth: MaxDepth levels of arrays or objects decode; one more is a *DepthError (not
// a syntax error), however deep the input goes, and scalars at the deepest level are fine.
func TestDecodeDepth(t *testing.T) {
	nest := func(n int, open, close, inner string) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	for _, c := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"arrays at the limit", nest(MaxDepth, "[", "]", "1"), true},
		{"objects at the limit", nest(MaxDepth, `{"a":`, "}", `"x"`), true},
		{"one array too many", nest(MaxDepth+1, "[", "]", ""), false},
		{"one object too many", nest(MaxDepth, `{"a":`, "}", "{}"), false},
		{"far too deep", nest(100000, "[", "]", ""), false},
		{"far too deep and unclosed", strings.Repeat("[", 100000), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.in))
			if c.ok {
				require.NoError(t, err)
				return
			}
			var de *DepthError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, MaxDepth, de.Limit)
			assert.Equal(t, "nested more than 128 levels deep (the limit)", err.Error())
		})
	}
}

// TestDecodeEscapedStringAllocatesOnce: a long string with escapes (HTML in JSON: every
// attribute's quotes escaped) is decoded into one buffer of the right size, handed out as the
// string without a copy: its bytes are allocated once, not regrown run by run and copied at the
// end.
func TestDecodeEscapedStringAllocatesOnce(t *testing.T) {
	doc := []byte(`"` + strings.Repeat(`<a href=\"https://e.test/\" title=\"\u00e9\">x</a>\n`, 400) + `"`)
	want := strings.Repeat("<a href=\"https://e.test/\" title=\"\u00e9\">x</a>\n", 400)
	var got any
	n := testing.AllocsPerRun(20, func() {
		var err error
		if got, err = Decode(doc); err != nil {
			t.Fatal(err)
		}
	})
	if got != want {
		t.Fatalf("decoded %.80q…", got)
	}
	if n > 3 { // the document's one copy as a string, the decoded string's bytes, the interface
		t.Errorf("decoding a %d-byte escaped string made %v allocations", len(doc), n)
	}
}

// TestDecodeArgumentsCountsValues: DecodeArguments counts the document, each member's value and
// each item, containers included, and stops at one more than maxValues with the limit named;
// it reports whether it kept a lone surrogate.
func TestDecodeArgumentsCountsValues(t *testing.T) {
	doc := []byte(`{"a":[1,"x",{"b":null}],"c":true}`) // {}, [], 1, "x", {}, null, true: 7 values
	for _, limit := range []int{0, 7, 100} {
		v, lone, err := DecodeArguments(doc, limit)
		require.NoError(t, err, "limit %d", limit)
		assert.False(t, lone)
		want, _ := Decode(doc)
		assert.Equal(t, want, v)
	}
	_, _, err := DecodeArguments(doc, 6)
	var count *ValueCountError
	require.ErrorAs(t, err, &count)
	assert.Equal(t, 6, count.Limit)
	assert.Equal(t, "holds more than 6 JSON values (the limit)", err.Error())

	v, lone, err := DecodeArguments([]byte(`["ok\ud800","\ud83d\ude00"]`), 0)
	require.NoError(t, err)
	assert.True(t, lone)
	assert.Equal(t, []any{"ok\xed\xa0\x80", "😀"}, v)
	_, lone, _ = DecodeArguments([]byte(`["\ud83d\ude00 é \u00e9"]`), 0)
	assert.False(t, lone, "a pair is no lone surrogate")
}

// TestPlainPrefixReadsEightBytesAtATime: plainPrefix, eight bytes at a time, stops where a loop
// per byte would, for every byte value at every position of a word and around it.
func TestPlainPrefixReadsEightBytesAtATime(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := 0; at < 20; at++ {
			s := []byte(strings.Repeat("a", 24))
			s[at] = byte(c)
			want := 0
			for want < len(s) && plainStringByte[s[want]] {
				want++
			}
			require.Equal(t, want, plainPrefix(string(s)), "byte %#x at %d", c, at)
		}
	}
}
