package inputschema_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// patternSchema is a schema whose only keyword is pattern p.
func patternSchema(p string) []byte {
	return []byte(`{"properties":{"p":{"pattern":` + strconv.Quote(p) + `}}}`)
}

func TestECMAScriptOnlyPatternsAreRefusedByName(t *testing.T) {
	tests := []struct{ pattern, feature string }{
		{`^(?=.*\d)\w+$`, "lookahead"},
		{`^(?!admin$)\w+$`, "negative lookahead"},
		{`(?<=\$)\d+`, "lookbehind"},
		{`(?<!-)\d+`, "negative lookbehind"},
		{`^(a)\1$`, "a backreference"},
		{`(["'])x\9`, "a backreference"},
		{`^(?<q>["'])\w*\k<q>$`, "a named backreference"},
	}
	for _, tt := range tests {
		_, err := inputschema.CompileJSON(patternSchema(tt.pattern))
		var se *inputschema.SchemaError
		require.ErrorAs(t, err, &se, tt.pattern)
		assert.Equal(t, "/properties/p/pattern", se.Path)
		assert.EqualError(t, err, fmt.Sprintf(`inputSchema/properties/p/pattern: "%s" uses %s, `+
			`which this bridge does not support (ECMAScript-only regular expression syntax)`, tt.pattern, tt.feature))
	}
	// The example, word for word.
	_, err := inputschema.CompileJSON(patternSchema(`^(?=.*\d)\w+$`))
	assert.EqualError(t, err, `inputSchema/properties/p/pattern: "^(?=.*\d)\w+$" uses lookahead, `+
		`which this bridge does not support (ECMAScript-only regular expression syntax)`)
}

func TestInvalidPatternsSayTheyAreInvalid(t *testing.T) {
	for _, p := range []string{`(`, `a{2,1}`, `\`, `\c`, `[z-a]`, `x**`, `\p{NoSuchClass}`} {
		_, err := inputschema.CompileJSON(patternSchema(p))
		require.Error(t, err, p)
		assert.Contains(t, err.Error(), `"`+p+`" is not a valid regular expression: `, p)
	}
}

// TestPatternsMeanWhatECMAScriptSays: patterns are unanchored, and the spellings RE2 reads
// differently keep their ECMAScript meaning.
func TestPatternsMeanWhatECMAScriptSays(t *testing.T) {
	tests := []struct {
		pattern      string
		match, other []string
	}{
		{`b`, []string{"abc"}, []string{"ac"}},                                                     // not anchored
		{`^\d+$`, []string{"0123"}, []string{"١٢"}},                                                // \d is ASCII
		{`^\w+$`, []string{"a_Z9"}, []string{"é"}},                                                 // \w is ASCII
		{`^\s$`, []string{" ", "\t", "\v", "\u00a0", "\u2028", "\ufeff"}, []string{"x", "\u200b"}}, // \s is Unicode
		{`^\S$`, []string{"x", "\u200b"}, []string{"\u00a0", "\u3000"}},
		{`^[\s\d]+$`, []string{"1\u00a02"}, []string{"1x"}},
		{`^[^\S]$`, []string{"\u2029"}, []string{"x"}},
		{`^.$`, []string{"x", "😀"}, []string{"\n", "\r", "\u2028", "\u2029"}}, // . stops at every line terminator
		{`^\u00e9\u{1F600}$`, []string{"é😀"}, []string{"e😀"}},
		{`^\ud83d\ude00$`, []string{"😀"}, []string{"😁"}}, // a surrogate pair is one code point
		{`^[\u4e00-\u9fa5]+$`, []string{"中文"}, []string{"abc"}},
		{`^\cJ\0$`, []string{"\n\x00"}, []string{"J0"}},
		{`^[\b]$`, []string{"\b"}, []string{"b"}},
		{`^a[]`, nil, []string{"a", "ab"}},               // the empty class matches nothing
		{`^a[^]$`, []string{"a\n", "ab"}, []string{"a"}}, // [^] matches anything
		{`^[[:a]+$`, []string{"[:a"}, []string{"b"}},     // [ in a class is a literal, not a POSIX class
		{`^\/\.\-$`, []string{"/.-"}, nil},
		{`^(?<year>\d{4})-\d\d$`, []string{"2024-05"}, []string{"24-05"}},
		{`^(?:ab)*$`, []string{"", "abab"}, []string{"aba"}},
		{`\(?=x`, []string{"=x", "(=x"}, nil}, // escaped: no lookahead
		{`[(?=]`, []string{"?"}, []string{"x"}},
		{`^[a\-z]$`, []string{"-"}, []string{"b"}},
	}
	for _, tt := range tests {
		s, err := inputschema.CompileJSON(patternSchema(tt.pattern))
		require.NoError(t, err, tt.pattern)
		for _, m := range tt.match {
			assert.NoError(t, s.Validate(map[string]any{"p": m}), "%s should match %q", tt.pattern, m)
		}
		for _, m := range tt.other {
			assert.Error(t, s.Validate(map[string]any{"p": m}), "%s should not match %q", tt.pattern, m)
		}
	}
}

// TestSpaceIsECMAScriptWhiteSpace checks \s and \S, in and out of a class, against
// ECMA-262's WhiteSpace and LineTerminator for every code point of the BMP and a sample beyond.
func TestSpaceIsECMAScriptWhiteSpace(t *testing.T) {
	compile := func(p string) *inputschema.Schema {
		s, err := inputschema.CompileJSON([]byte(`{"pattern":` + strconv.Quote(p) + `}`))
		require.NoError(t, err)
		return s
	}
	space, nonSpace, inClass, notInClass := compile(`^\s$`), compile(`^\S$`), compile(`^[\s]$`), compile(`^[\S]$`)
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r < 0xe000 || r > 0x10000 && r%251 != 0 {
			continue // surrogates are not in Go strings; past the BMP, a sample is enough
		}
		want := unicode.Is(unicode.Zs, r) || r == '\t' || r == '\v' || r == '\f' || r == '\ufeff' ||
			r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
		s := string(r)
		if (space.Validate(s) == nil) != want || (inClass.Validate(s) == nil) != want ||
			(nonSpace.Validate(s) == nil) == want || (notInClass.Validate(s) == nil) == want {
			t.Fatalf("U+%04X: space should be %v", r, want)
		}
	}
}

func TestLongPatternsAreRefused(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		err     string
	}{
		{strings.Repeat("é", inputschema.MaxPatternLength), ""},
		{strings.Repeat("a", inputschema.MaxPatternLength+1),
			"inputSchema/properties/p/pattern: has 1001 characters: the longest pattern this bridge accepts has 1000"},
		{"(?:" + strings.Repeat("a", 3400) + "){1000}",
			"inputSchema/properties/p/pattern: has 3410 characters: the longest pattern this bridge accepts has 1000"},
	} {
		_, err := inputschema.CompileJSON(patternSchema(tt.pattern))
		if tt.err == "" {
			assert.NoError(t, err)
		} else {
			assert.EqualError(t, err, tt.err)
		}
	}
}

// TestPatternWorkIsBounded: a string checked against a pattern costs its length times the
// pattern's repetition product; one validation may spend MaxPatternWork, and an argument past
// it is refused, not matched — also where not, anyOf or contains would turn a failed check into
// a pass (issue 27, point 3: \S{1,256}@\S{1,256} on 100 KB kept the page's thread 4.7 s).
func TestPatternWorkIsBounded(t *testing.T) {
	email := `\S{1,256}@\S{1,256}` // repetition product 513
	long := `"` + strings.Repeat("a", 100_000) + `"`
	for _, tt := range []struct {
		name, schema, args string
		refused            bool
	}{
		{"a short string is matched", `{"properties":{"e":{"pattern":` + strconv.Quote(email) + `}}}`, `{"e":"a@b"}`, false},
		{"100 KB is refused", `{"properties":{"e":{"pattern":` + strconv.Quote(email) + `}}}`, `{"e":` + long + `}`, true},
		{"under not", `{"properties":{"e":{"not":{"pattern":` + strconv.Quote(email) + `}}}}`, `{"e":` + long + `}`, true},
		{"under anyOf", `{"properties":{"e":{"anyOf":[{"pattern":` + strconv.Quote(email) + `},{"type":"string"}]}}}`,
			`{"e":` + long + `}`, true},
		{"many small strings add up", `{"items":{"pattern":` + strconv.Quote(email) + `}}`,
			`[` + strings.TrimSuffix(strings.Repeat(`"`+strings.Repeat("a", 48)+`@b",`, 10), ",") + `]`, true},
		{"a cheap pattern checks a long string", `{"pattern":"^a+$"}`, `"` + strings.Repeat("a", 10_000) + `"`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := inputschema.CompileJSON([]byte(tt.schema))
			require.NoError(t, err)
			err = s.ValidateJSON([]byte(tt.args))
			if !tt.refused {
				assert.NoError(t, err)
				return
			}
			var ie *inputschema.InputError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, "pattern", ie.Reason)
			assert.Contains(t, ie.Message, "so the argument is refused, not matched")
		})
	}
}
