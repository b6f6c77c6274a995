package jsonvalue

import (
	"cmp"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Decimal is a JSON number held exactly, as JSON Schema compares numbers and as the MCP wire
// form reads sizes: float64 would call 0.3 no multiple of 0.1 and 2^53+1 equal to 2^53. Its
// value is ±0.digits × 10^exp, digits with no leading or trailing zero; zero has no digits.
// text is the number as written.
type Decimal struct {
	neg    bool
	digits string
	exp    int
	text   string
}

// NumberOf reads a decoded JSON number (json.Number, or a Go float64, int or int64) exactly;
// NaN, infinities and other values are not numbers.
func NumberOf(v any) (Decimal, bool) {
	switch x := v.(type) {
	case json.Number:
		return ParseDecimal(string(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Decimal{}, false
		}
		return ParseDecimal(Compact(x))
	case int:
		return ParseDecimal(strconv.Itoa(x))
	case int64:
		return ParseDecimal(strconv.FormatInt(x, 10))
	}
	return Decimal{}, false
}

// ParseDecimal reads JSON number text; NaN and infinities are not numbers.
func ParseDecimal(s string) (Decimal, bool) {
	d := Decimal{text: s}
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	if k := i + integerDigits(s[i:]); k == len(s) && k > i {
		// An integer, the common case: its digits are a slice of s, not a copy.
		t := strings.TrimLeft(s[i:], "0")
		d.digits, d.exp = strings.TrimRight(t, "0"), len(t)
		if d.digits == "" {
			d.neg, d.exp = false, 0
		}
		return d, true
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
		return Decimal{}, false
	}
	if point < 0 {
		point = len(digits)
	}
	e := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		var ok bool
		if e, ok = parseExponent(s[i+1:]); !ok {
			return Decimal{}, false
		}
	} else if i != len(s) {
		return Decimal{}, false
	}
	lead := len(digits) - len(strings.TrimLeft(string(digits), "0"))
	d.digits = strings.TrimRight(string(digits[lead:]), "0")
	d.exp = point - lead + e
	if d.digits == "" {
		d.neg, d.exp = false, 0
	}
	return d, true
}

// integerDigits is how many of s's first bytes are ASCII digits.
func integerDigits(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return i
		}
	}
	return len(s)
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

// Sign is -1, 0 or +1.
func (d Decimal) Sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// Cmp compares two numbers exactly: -1, 0 or +1.
func (d Decimal) Cmp(o Decimal) int {
	ds, os := d.Sign(), o.Sign()
	if ds != os || ds == 0 {
		return cmp.Compare(ds, os)
	}
	c := cmp.Compare(d.exp, o.exp)
	if c == 0 {
		c = strings.Compare(d.digits, o.digits)
	}
	return c * ds
}

// IsInteger reports whether d has no fractional part (2.0 and 1e2 are integers).
func (d Decimal) IsInteger() bool { return len(d.digits) <= d.exp }

// IsMultipleOf reports whether d/m is an integer (m > 0). It is exact while m has at most 18
// significant digits, and falls back to float64 beyond.
func (d Decimal) IsMultipleOf(m Decimal) bool {
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

func (d Decimal) float() float64 {
	f, _ := strconv.ParseFloat(d.Canonical(), 64)
	return f
}

// Canonical is the one text of d's value: equal numbers, however written, give equal texts.
func (d Decimal) Canonical() string {
	if d.digits == "" {
		return "0"
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	return sign + "0." + d.digits + "e" + strconv.Itoa(d.exp)
}

// Text is the number as it was written.
func (d Decimal) Text() string { return d.text }

// Int64 is d as an int64 when d is a whole number of at most 18 digits (every such number fits).
func (d Decimal) Int64() (int64, bool) {
	if d.digits == "" {
		return 0, true
	}
	if !d.IsInteger() || d.exp > 18 {
		return 0, false
	}
	n, err := strconv.ParseInt(d.digits+strings.Repeat("0", max(d.exp-len(d.digits), 0)), 10, 64)
	if d.neg {
		n = -n
	}
	return n, err == nil
}
