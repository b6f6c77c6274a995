package main

// utf8Writer writes a string of the JS side as UTF-8 into dst, all of it or nothing it can
// use: it answers the bytes written, or a negative number where the string did not fit in dst
// (or could not be written). On the JS side it is TextEncoder.encodeInto over the module's
// memory, so that a long string crosses into Go with one conversion and no copy.
type utf8Writer func(dst []byte) int

// utf8Of reads a string of n UTF-16 units through write into a buffer of its own: first one
// that fits n bytes and an eighth more (ASCII and mostly-Latin text: one write), else one of 3n
// bytes, the most UTF-8 can take for n units (a lone surrogate becomes U+FFFD, 3 bytes; a
// surrogate pair 4 bytes for 2 units). ok is false where write answers what cannot be (more
// bytes than dst holds, nothing for a string that is not empty) or fails both times: the caller
// then reads the string another way.
func utf8Of(n int, write utf8Writer) (b []byte, ok bool) {
	if n <= 0 {
		return nil, n == 0
	}
	for _, room := range []int{n + n/8 + 8, 3 * n} {
		buf := make([]byte, room)
		w := write(buf)
		if w > room || w == 0 {
			return nil, false
		}
		if w > 0 {
			return buf[:w:w], true
		}
	}
	return nil, false
}
