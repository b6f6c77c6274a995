package jsonvalue

import "unsafe"

// plainPrefix returns how many of s's first bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash. It reads eight bytes at a time, which matters most in
// WebAssembly, where a loop per byte is many times slower than natively: results and tool
// outputs are mostly long strings of such bytes (HTML, text, base64).
func plainPrefix(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := *(*uint64)(unsafe.Pointer(unsafe.StringData(s[i:]))) // a borrow flags only bytes above a special one
		quote, backslash := w^(ones*'"'), w^(ones*'\\')
		special := (w - ones*0x20) | (quote-ones)&^quote | (backslash-ones)&^backslash
		if (special|w)&highs != 0 {
			break // a byte below 0x20 or above 0x7f, a quote or a backslash in these eight
		}
	}
	for ; i < len(s); i++ {
		if !plainStringByte[s[i]] {
			break
		}
	}
	return i
}
