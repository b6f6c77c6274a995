package mcpwire_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
)

// rfc3339Shape is the shape CheckLastModified accepted before it was written by hand, with
// time.Parse(time.RFC3339Nano) deciding whether the date and time are real.
var rfc3339Shape = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)

// byTime is the verdict of the shape and package time on s: "", "shape" or "real".
func byTime(s string) string {
	if !rfc3339Shape.MatchString(s) {
		return "shape"
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return "real"
	}
	return ""
}

// verdict is CheckLastModified's verdict on s in the same terms.
func verdict(s string) string {
	err := mcpwire.CheckLastModified(s)
	switch {
	case err == nil:
		return ""
	case strings.Contains(err.Error(), "not a real date"):
		return "real"
	}
	return "shape"
}

// TestCheckLastModifiedAgreesWithTime holds the hand-written check to the regular expression
// and time.Parse it replaces, over every edge of every field: month and day bounds, leap years,
// hour, minute and second limits, fractions of 0 to 12 digits, and offsets up to the 24:60
// that time.Parse's general parser lets through.
func TestCheckLastModifiedAgreesWithTime(t *testing.T) {
	var cases []string
	for _, date := range []string{"2025-01-12", "0000-01-01", "9999-12-31", "2025-00-10", "2025-13-10",
		"2025-01-00", "2025-01-31", "2025-01-32", "2025-04-30", "2025-04-31", "2023-02-28", "2023-02-29",
		"2024-02-29", "2024-02-30", "1900-02-29", "2000-02-29", "2025-1-012", "2025/01/12", "202a-01-12"} {
		for _, clock := range []string{"T15:00:58", "T00:00:00", "T23:59:59", "T24:00:00", "T23:60:00",
			"T23:59:60", "t15:00:58", " 15:00:58", "T15:00"} {
			for _, frac := range []string{"", ".", ".5", ".123456789", ".1234567890", ".123456789012", ",5", ".5a"} {
				for _, zone := range []string{"Z", "z", "", "+01:00", "-00:00", "+23:59", "-23:59", "+24:00",
					"-24:00", "+24:60", "+24:61", "+23:60", "+00:60", "+00:61", "+25:00", "+99:99", "+0100",
					"+01", "+01:00:00", "Z ", "+1:000"} {
					cases = append(cases, date+clock+frac+zone)
				}
			}
		}
	}
	cases = append(cases, "", "yesterday", "2025-01-12T15:00:58Zjunk", "\u0662025-01-12T15:00:58Z")
	for _, s := range cases {
		if got, want := verdict(s), byTime(s); got != want {
			t.Errorf("CheckLastModified(%q): %q, time.Parse and the shape say %q", s, got, want)
		}
	}
}

// FuzzCheckLastModified looks for a string on which the hand-written check and time.Parse part.
func FuzzCheckLastModified(f *testing.F) {
	for _, s := range []string{"2025-01-12T15:00:58Z", "2024-02-29T23:59:59.123456789+24:60",
		"2025-01-12T15:00:58.5-01:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := verdict(s), byTime(s); got != want {
			t.Errorf("CheckLastModified(%q): %q, time.Parse and the shape say %q", s, got, want)
		}
	})
}
