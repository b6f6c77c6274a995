package main

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// encodeInto is TextEncoder.encodeInto's rule for a whole string: s (UTF-16 units) as UTF-8
// into dst, lone surrogates as U+FFFD, the bytes written where all of s fits, else -1.
func encodeInto(s []uint16, calls *[]int) utf8Writer {
	return func(dst []byte) int {
		*calls = append(*calls, len(dst))
		out := dst[:0]
		for i := 0; i < len(s); i++ {
			r := rune(s[i])
			if utf16.IsSurrogate(r) {
				if i+1 < len(s) && utf16.DecodeRune(r, rune(s[i+1])) != utf8.RuneError {
					r = utf16.DecodeRune(r, rune(s[i+1]))
					i++
				} else {
					r = utf8.RuneError
				}
			}
			if len(out)+utf8.RuneLen(r) > len(dst) {
				return -1
			}
			out = utf8.AppendRune(out, r)
		}
		return len(out)
	}
}

// TestUTF8OfReadsAnyString: ASCII and mostly-Latin text in one write, text of wider
// characters (CJK, emoji, lone surrogates) in a second one with room for all of it, each the
// UTF-8 the string is (lone surrogates as U+FFFD).
func TestUTF8OfReadsAnyString(t *testing.T) {
	lone := []uint16{'a', 0xd800, 'b', 0xdc00}
	loneOnly := make([]uint16, 100)
	for i := range loneOnly {
		loneOnly[i] = 0xd800
	}
	for _, c := range []struct {
		name   string
		units  []uint16
		want   string
		writes int
	}{
		{"empty", nil, "", 0},
		{"ASCII", utf16.Encode([]rune(strings.Repeat("<a href=\"x\">y</a>", 500))), strings.Repeat("<a href=\"x\">y</a>", 500), 1},
		{"mostly Latin", utf16.Encode([]rune(strings.Repeat("naïve text, ", 300))), strings.Repeat("naïve text, ", 300), 1},
		{"CJK", utf16.Encode([]rune(strings.Repeat("漢字", 700))), strings.Repeat("漢字", 700), 2},
		{"emoji", utf16.Encode([]rune(strings.Repeat("😀", 700))), strings.Repeat("😀", 700), 2},
		{"lone surrogates", lone, "a\ufffdb\ufffd", 1},
		{"lone surrogates only", loneOnly, strings.Repeat("\ufffd", 100), 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls []int
			b, ok := utf8Of(len(c.units), encodeInto(c.units, &calls))
			assert.True(t, ok)
			assert.Equal(t, c.want, string(b))
			assert.Len(t, calls, c.writes)
			assert.Equal(t, len(b), cap(b), "nothing past the string")
		})
	}
}

// TestUTF8OfRefusesImpossibleAnswers: a writer that claims more bytes than it was given room
// for, nothing for a string of some length, or no fit even in 3 bytes a unit is not believed:
// the caller reads the string another way.
func TestUTF8OfRefusesImpossibleAnswers(t *testing.T) {
	for name, write := range map[string]utf8Writer{
		"more than the room": func(dst []byte) int { return len(dst) + 1 },
		"nothing":            func([]byte) int { return 0 },
		"never fits":         func([]byte) int { return -1 },
	} {
		b, ok := utf8Of(10, write)
		assert.False(t, ok, name)
		assert.Nil(t, b, name)
	}
	_, ok := utf8Of(-1, func([]byte) int { return 0 })
	assert.False(t, ok, "a negative length")
}
