// Package sanitize holds the checks webmcp-bridge applies to untrusted tool output before it
// reaches an agent or a page: HTML through a bluemonday policy built once per set of rules
// (HTMLRules: the same URL and image rules the blocks follow), URLs parsed the way a browser
// would and refused when any reading of them is unsafe, images and audio identified by their
// magic bytes (never by what the page declared), held to size and pixel limits and refused when
// truncated or broken, and text cut by characters without splitting UTF-8.
//
// The package is pure Go: it imports no syscall/js, so the same checks run natively in Go MCP
// servers and inside the WebAssembly bridge.
package sanitize

import "fmt"

// LimitError reports input that breaks a limit or a rule. Limit names the policy setting that
// was applied (for example "maxImageBytes"), so callers can tell users which knob to turn;
// Reason is a short sentence that says what was wrong, for example
// "21.3 MiB exceeds the 5 MiB limit".
type LimitError struct {
	Limit  string
	Reason string
}

func (e *LimitError) Error() string { return e.Reason }

func limitErr(limit, format string, args ...any) *LimitError {
	return &LimitError{Limit: limit, Reason: fmt.Sprintf(format, args...)}
}

// FormatBytes renders a byte count the way the limit messages do: "512 B", "12.5 KiB", "5 MiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 3; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	suffix := []string{"KiB", "MiB", "GiB", "TiB"}[exp]
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), suffix)
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
