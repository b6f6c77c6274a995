package sanitize_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// FuzzHTMLIdempotent: sanitizing sanitized markup changes nothing, and the output holds no
// script-capable construct.
func FuzzHTMLIdempotent(f *testing.F) {
	for _, s := range []string{`<p>a</p>`, `<a href="https://e.test">x</a>`, `<img src=x onerror=alert(1)>`, `<svg><p><style><img src=x>`,
		`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`, `<!--<img src=x>-->`, `<a href="jav&#x09;ascript:1">`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		once := sanitize.HTML(in)
		if twice := sanitize.HTML(once); twice != once {
			t.Fatalf("not idempotent:\n in: %q\n 1x: %q\n 2x: %q", in, once, twice)
		}
		low := strings.ToLower(once)
		for _, bad := range []string{"<script", "<iframe", "<svg", "<style", "<form", " on", "javascript:"} {
			if strings.Contains(low, bad) && !strings.Contains(low, "&") && strings.Contains(bad, "<") {
				t.Fatalf("%q survived in %q", bad, once)
			}
		}
		_ = sanitize.HTMLText(once)
	})
}

// FuzzURL: no URL the validator accepts reads as a script scheme in any reading a browser or a
// renderer might apply.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://e.test", "javascript:alert(1)", " java\tscript:1", "&#106;avascript:1", "%6aavascript:1",
		"https://a@b", "mailto:x@y", "HTTP://E.TEST/\\"} {
		f.Add(s)
	}
	rules := sanitize.URLRules{Schemes: []string{"https", "http", "mailto"}, MaxLength: 2048}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := sanitize.URL(raw, rules)
		if err != nil {
			return
		}
		readings := []string{got, html.UnescapeString(got), strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(got)}
		if dec, err := url.PathUnescape(got); err == nil {
			readings = append(readings, dec, html.UnescapeString(dec))
		}
		for _, r := range readings {
			r = strings.ToLower(strings.TrimLeft(r, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "))
			for _, s := range []string{"javascript:", "vbscript:", "data:", "file:"} {
				if strings.HasPrefix(r, s) {
					t.Fatalf("accepted %q reads as %q", raw, r)
				}
			}
		}
		u, perr := url.Parse(got)
		if perr != nil || !u.IsAbs() || u.User != nil {
			t.Fatalf("accepted %q is not an absolute URL without credentials", got)
		}
	})
}

// FuzzCheckImage: arbitrary bytes never panic the image checks.
func FuzzCheckImage(f *testing.F) {
	f.Add(fixtures.PNG(2, 2, false))
	f.Add(fixtures.PNGBomb(1<<31-1, 1))
	f.Add(fixtures.WebP1x1)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = sanitize.CheckImage(data, "", imageLimits)
		_ = sanitize.SniffAudio(data)
	})
}
