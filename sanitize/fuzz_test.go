package sanitize_test

import (
	"html"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// FuzzHTML holds the sanitizer to the structural oracle (structureProblems): whatever goes in,
// what comes out holds only allowlisted elements and attributes and no refused URL scheme. The
// output is also a fixed point (sanitizing it again changes nothing), and HTMLAndText agrees
// with HTML, HTMLText and Removed.
func FuzzHTML(f *testing.F) {
	for _, s := range []string{`<p>a</p>`, `<a href="https://e.test">x</a>`, `<img src=x onerror=alert(1)>`,
		`<svg><p><style><img src=x>`,
		`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`, `<!--<img src=x>-->`,
		`<a href="jav&#x09;ascript:1">`,
		`<a href="HTTPS://E.test/?a=1&amp;b=2" rel=opener target=_self>x</a>`, `<a href="&#x6a;avascript:1">x</a>`,
		`<a href=" mailto:a@b.test">m</a>`, `<a href="https://a@b.test">c</a>`,
		`<a href="http://e.test/&amp;#106;avascript:">x</a>`,
		`<img src="data:image/png;base64,iVBORw0KGgo=" alt="a" width="10%">`,
		`<img src="data:image/svg+xml;base64,PHN2Zz4=">`,
		`<img src="DATA:image/GIF;base64,R0lGODlh">`, `<img src="http://e.test/a.png">`, `<q cite="javascript:1">q</q>`,
		`<table><col span=2><tr><td colspan=2 rowspan=x>1<th scope=ROW>h</table>`, `<ol start=3 reversed><li value=2>a</ol>`,
		`<time datetime="2020-01-01T00:00Z">t</time><details open><summary>s</summary></details>`,
		`<math><mi><table><tr><td><img src=x></td></tr></table></mi></math>`,
		`<h1 lang="en-US" dir="RTL" title="t" id=x>x</h1>`,
		`<form><input formaction="javascript:1"><button>b</button></form><base href="https://evil.test/">`,
		fixtures.Article(2 << 10)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		once := sanitize.HTML(in, defaultRules)
		if probs := structureProblems(once, defaultRules); len(probs) > 0 {
			t.Fatalf("sanitized output breaks the allowlist:\n in: %q\nout: %q\n%s", in, once, strings.Join(probs, "\n"))
		}
		if twice := sanitize.HTML(once, defaultRules); twice != once {
			t.Fatalf("not a fixed point:\n in: %q\n 1x: %q\n 2x: %q", in, once, twice)
		}
		if s := sanitize.HTMLAndText(in, defaultRules); !agrees(s, in, once) {
			t.Fatalf("HTMLAndText(%q) = %+v, disagrees with HTML and HTMLText", in, s)
		}
	})
}

// agrees reports whether HTMLAndText's result s for in agrees with HTML's output once, its
// HTMLText and, when nothing hidden was left out (those are counted apart), its Removed.
func agrees(s sanitize.HTMLResult, in, once string) bool {
	return s.HTML == once && s.Text == sanitize.HTMLText(once) &&
		(strings.Contains(s.Removed, "hidden element") || s.Removed == sanitize.Removed(in, once))
}

// fuzzRules are the HTMLRules FuzzHTMLRules picks from: the default ones, strict ones, ones
// that list schemes markup may never hold, one scheme with two length limits, and none at all.
var fuzzRules = []sanitize.HTMLRules{
	sanitize.DefaultHTMLRules(),
	{
		Links:        sanitize.URLRules{Schemes: []string{"https"}, MaxLength: 100},
		InlineImages: sanitize.ImageLimits{Types: []string{"image/png"}, MaxWidth: 4, MaxHeight: 4},
	},
	{
		Links:  sanitize.URLRules{Schemes: []string{"mailto", "tel", "FTP", "javascript", "data"}},
		Images: sanitize.URLRules{Schemes: []string{"https", "http"}, MaxLength: 50},
	},
	{
		Links:  sanitize.URLRules{Schemes: []string{"https"}, MaxLength: 30},
		Images: sanitize.URLRules{Schemes: []string{"https"}, MaxLength: 4000},
		InlineImages: sanitize.ImageLimits{
			Types:     []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"},
			MaxBytes:  200,
			MaxPixels: 16,
		},
	},
	{},
}

// FuzzHTMLRules is FuzzHTML under rules picked from fuzzRules: the output holds only what the
// tables allow under those rules, is a fixed point of HTML with the same rules, and
// HTMLAndText agrees with HTML, HTMLText and Removed.
func FuzzHTMLRules(f *testing.F) {
	png, gif, jpg := fixtures.PNG(3, 2, false), fixtures.GIF(2, 2), fixtures.JPEG(2, 2)
	for i, s := range []string{`<a href="https://e.test/a">x</a><a href="http://e.test/">y</a><a href="tel:+1">t</a>`,
		`<img src="` + dataURL("image/png", png) + `" alt=a>`, `<img src="` + dataURL("image/gif", gif) + `">`,
		`<img src="` + dataURL("image/JPEG", jpg) + `"><img src="` + dataURL("image/webp", fixtures.WebP1x1) + `">`,
		`<img src="` + dataURL("image/png", png[:len(png)-12]) + `">`, `<img src="` + dataURL("image/gif", png) + `">`,
		`<img src="` + dataURL("image/png", fixtures.PNGBomb(100000, 100000)) + `">`,
		`<img src="data:image/png;base64,PHN2Zz4=">`,
		`<a href="https://e.test/` + strings.Repeat("a", 60) + `">long</a>` +
			`<img src="https://e.test/` + strings.Repeat("b", 60) + `">`,
		`<a href="javascript:1">j</a><a href="data:text/html,x">d</a><a href="FTP://e.test/">f</a>` +
			`<a href="mailto:a@e.test">m</a>`,
		fixtures.Article(1 << 10)} {
		for pick := range len(fuzzRules) {
			f.Add(s, uint8(i+pick))
		}
	}
	f.Fuzz(func(t *testing.T, in string, pick uint8) {
		rules := fuzzRules[int(pick)%len(fuzzRules)]
		once := sanitize.HTML(in, rules)
		if probs := structureProblems(once, rules); len(probs) > 0 {
			t.Fatalf("sanitized output breaks the allowlist under rules %d:\n in: %q\nout: %q\n%s",
				int(pick)%len(fuzzRules), in, once, strings.Join(probs, "\n"))
		}
		if twice := sanitize.HTML(once, rules); twice != once {
			t.Fatalf("not a fixed point under rules %d:\n in: %q\n 1x: %q\n 2x: %q", int(pick)%len(fuzzRules), in, once, twice)
		}
		if s := sanitize.HTMLAndText(in, rules); !agrees(s, in, once) {
			t.Fatalf("HTMLAndText(%q) = %+v, disagrees with HTML and HTMLText", in, s)
		}
	})
}

// FuzzURL: no URL the validator accepts reads as a script scheme in any reading a browser or a
// renderer might apply.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://e.test", "javascript:alert(1)", " java\tscript:1", "&#106;avascript:1",
		"%6aavascript:1",
		"https://a@b", "mailto:x@y", "HTTP://E.TEST/\\", "https://ａ｛b。c/", "https://0x7f.1/"} {
		f.Add(s)
	}
	rules := linkRules
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
			if scheme, ok := schemeOf(browserURL(r)); ok && sanitize.NeverAllowedScheme(scheme) {
				t.Fatalf("accepted %q reads as %q, a never-allowed %s: URL", raw, r, scheme)
			}
		}
		u, perr := url.Parse(got)
		if perr != nil || !u.IsAbs() || u.User != nil {
			t.Fatalf("accepted %q is not an absolute URL without credentials", got)
		}
	})
}

// FuzzSniff: arbitrary bytes never panic the image and audio checks, the sniffers agree with
// net/http.DetectContentType wherever both know the signature (sniffMismatch), and an accepted
// image or clip has the type its sniffer gives.
func FuzzSniff(f *testing.F) {
	for _, name := range slices.Sorted(maps.Keys(sniffSeeds())) {
		f.Add(sniffSeeds()[name])
	}
	f.Add(fixtures.PNGBomb(1<<31-1, 1))
	for _, c := range append(wellFormedAudio(f), brokenAudio(f)...) {
		f.Add(c.data)
	}
	audio := audioLimits
	f.Fuzz(func(t *testing.T, data []byte) {
		if m := sniffMismatch(data); m != "" {
			t.Fatal(m)
		}
		if info, err := sanitize.CheckImage(data, "", imageLimits); err == nil && info.MIMEType != sanitize.SniffImage(data) {
			t.Fatalf("CheckImage accepted %q as %s; SniffImage says %q", data, info.MIMEType, sanitize.SniffImage(data))
		}
		if typ, err := sanitize.CheckAudio(data, "", audio); err == nil && typ != sanitize.SniffAudio(data) {
			t.Fatalf("CheckAudio accepted %q as %s; SniffAudio says %q", data, typ, sanitize.SniffAudio(data))
		}
	})
}
