package inputschema

import (
	"math"
	"strconv"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// decimal is a JSON number held exactly, as JSON Schema compares numbers: float64 would call
// 0.3 no multiple of 0.1 and 2^53+1 equal to 2^53. Its value is ±0.digits × 10^exp, digits
// with no leading or trailing zero; zero has no digits. text is the number as written.
type decimal struct {
	neg    bool
	digits string
	exp    int
	text   string
}

// numberOf reads a decoded JSON number (json.Number, or a Go float64, int or int64).
func numberOf(v any) (decimal, bool) {
	switch jsonvalue.TypeName(v) {
	case "integer", "number":
		return parseDecimal(jsonvalue.Scalar(v))
	}
	return decimal{}, false
}

// parseDecimal reads JSON number text; NaN and infinities are not numbers.
func parseDecimal(s string) (decimal, bool) {
	d := decimal{text: s}
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	var digits []byte
	point := -1
	for ; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			digits = append(digits, c)
		} else if c == '.' && point < 0 {
			point = len(digits)
		} else {
			break
		}
	}
	if len(digits) == 0 {
		return decimal{}, false
	}
	if point < 0 {
		point = len(digits)
	}
	e := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		var ok bool
		if e, ok = parseExponent(s[i+1:]); !ok {
			return decimal{}, false
		}
	} else if i != len(s) {
		return decimal{}, false
	}
	lead := len(digits) - len(strings.TrimLeft(string(digits), "0"))
	d.digits = strings.TrimRight(string(digits[lead:]), "0")
	d.exp = point - lead + e
	if d.digits == "" {
		d.neg, d.exp = false, 0
	}
	return d, true
}

// parseExponent reads an exponent's digits, clamped far beyond any float64 but short of
// overflowing int arithmetic.
func parseExponent(s string) (int, bool) {
	const limit = 1 << 30
	if s == "" || s == "+" || s == "-" {
		return 0, false
	}
	for j, c := range []byte(s) {
		if (c < '0' || c > '9') && (j > 0 || (c != '+' && c != '-')) {
			return 0, false
		}
	}
	e, err := strconv.Atoi(s)
	if err != nil || e > limit || e < -limit {
		if s[0] == '-' {
			return -limit, true
		}
		return limit, true
	}
	return e, true
}

func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmp compares two numbers exactly: -1, 0 or +1.
func (d decimal) cmp(o decimal) int {
	ds, os := d.sign(), o.sign()
	if ds != os || ds == 0 {
		return compareInts(ds, os)
	}
	c := compareInts(d.exp, o.exp)
	if c == 0 {
		c = strings.Compare(d.digits, o.digits)
	}
	return c * ds
}

func compareInts(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// isInteger reports whether d has no fractional part.
func (d decimal) isInteger() bool { return len(d.digits) <= d.exp }

// isMultipleOf reports whether d/m is an integer (m > 0). It is exact while m has at most 18
// significant digits, and falls back to float64 beyond.
func (d decimal) isMultipleOf(m decimal) bool {
	if d.digits == "" {
		return true
	}
	// d = A·10^a and m = B·10^b, A and B integers with no trailing zero.
	a, b := d.exp-len(d.digits), m.exp-len(m.digits)
	if a < b {
		return false // B·10^(b-a) would have to divide A, which 10 does not divide
	}
	if len(m.digits) > 18 {
		q := d.float() / m.float()
		return q == math.Trunc(q) && !math.IsInf(q, 0)
	}
	// B divides A·10^e exactly when B / gcd(B, 10^e) divides A.
	B, _ := strconv.ParseUint(m.digits, 10, 64)
	for e := a - b; e > 0 && B%2 == 0; e-- {
		B /= 2
	}
	for e := a - b; e > 0 && B%5 == 0; e-- {
		B /= 5
	}
	var r uint64
	for _, c := range []byte(d.digits) {
		r = (r*10 + uint64(c-'0')) % B
	}
	return r == 0
}

func (d decimal) float() float64 {
	f, _ := strconv.ParseFloat(d.canonical(), 64)
	return f
}

// canonical is the one text of d's value: equal numbers, however written, give equal texts.
func (d decimal) canonical() string {
	if d.digits == "" {
		return "0"
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	return sign + "0." + d.digits + "e" + strconv.Itoa(d.exp)
}

// zeros is n zeros (none when n <= 0).
func zeros(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("0", n)
}
