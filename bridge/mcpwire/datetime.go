package mcpwire

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
)

// CheckLastModified reports whether s is an ISO 8601 date-time with an offset, such as
// "2025-01-12T15:00:58Z" or "2025-01-12T16:00:58.5+01:00", that is also a real date and time.
//
// It accepts exactly what time.Parse(time.RFC3339Nano, s) accepts among strings of the shape
// RFC 3339 writes (digits where digits go, "T", a fraction after "." only, "Z" or ±hh:mm), and
// is written by hand so that the module does not link package time's parser and its tables.
// TestCheckLastModifiedAgreesWithTime holds the two together.
func CheckLastModified(s string) error {
	shaped, real := readDateTime(s)
	if !shaped {
		return fmt.Errorf("lastModified %s is not an ISO 8601 date-time with an offset (such as 2025-01-12T15:00:58Z)",
			pagetext.Quote(s))
	}
	if !real {
		return fmt.Errorf("lastModified %s is not a real date and time", pagetext.Quote(s))
	}
	return nil
}

// readDateTime says whether s has the shape YYYY-MM-DDThh:mm:ss[.f+](Z|±hh:mm) and, if so,
// whether its fields are in range as time.Parse holds them: month 1–12, a day of that month
// (29 February only in a leap year), hour ≤ 23, minute and second ≤ 59, and an offset of at most
// 24 hours and 60 minutes (time.Parse's general parser, which takes over from its RFC 3339 fast
// path, lets 24:00 and hh:60 through).
func readDateTime(s string) (shaped, real bool) {
	const date = "dddd-dd-ddTdd:dd:dd" // d: a digit; other bytes stand for themselves
	if len(s) < len(date)+1 {
		return false, false
	}
	for i := range len(date) {
		if date[i] == 'd' && !isDigit(s[i]) || date[i] != 'd' && s[i] != date[i] {
			return false, false
		}
	}
	rest := s[len(date):]
	if rest[0] == '.' {
		digits := 0
		for digits < len(rest)-1 && isDigit(rest[1+digits]) {
			digits++
		}
		if digits == 0 {
			return false, false
		}
		rest = rest[1+digits:]
	}
	zoneHour, zoneMinute := 0, 0
	switch {
	case rest == "Z":
	case len(rest) == len("+hh:mm") && (rest[0] == '+' || rest[0] == '-') && isDigit(rest[1]) && isDigit(rest[2]) &&
		rest[3] == ':' && isDigit(rest[4]) && isDigit(rest[5]):
		zoneHour, zoneMinute = twoDigits(rest[1:]), twoDigits(rest[4:])
	default:
		return false, false
	}
	year := twoDigits(s)*100 + twoDigits(s[2:])
	month, day := twoDigits(s[5:]), twoDigits(s[8:])
	inRange := month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year) &&
		twoDigits(s[11:]) <= 23 && twoDigits(s[14:]) <= 59 && twoDigits(s[17:]) <= 59
	return true, inRange && zoneHour <= 24 && zoneMinute <= 60
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// twoDigits is the number the two digits at the start of s write.
func twoDigits(s string) int { return int(s[0]-'0')*10 + int(s[1]-'0') }

// daysIn is the number of days of month (1–12) in year, by the Gregorian calendar.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
