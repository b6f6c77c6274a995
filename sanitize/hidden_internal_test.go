package sanitize

import "testing"

// TestStyleHides: the inline styles that hide an element, in the spellings CSS accepts, and
// those that do not.
func TestStyleHides(t *testing.T) {
	for _, tt := range []struct {
		style       string
		hides, show bool
	}{
		{"display:none", true, false},
		{"DISPLAY : None", true, false},
		{"display:none !important", true, false},
		{"display: none ! IMPORTANT", true, false},
		{"display:/* c */none", true, false},
		{"/* display:block */display:none", true, false},
		{"display: n\\6f ne", true, false},
		{"display: n\\6F  ne", false, false}, // the escape eats one space; "n" "o" " ne" is no keyword
		{"di\\73 play:none", true, false},
		{"visibility:hidden", true, false},
		{"visibility: Collapse", true, false},
		{"content-visibility: hidden", true, false},
		{"opacity:0", true, false},
		{"opacity: 0.0", true, false},
		{"opacity: 0%", true, false},
		{"opacity: -1", true, false},
		{"font-size:0", true, false},
		{"font-size: 0px", true, false},
		{"font-size: 0.0em", true, false},
		{"font: 0/0 a", true, false},
		{"font: italic 0px serif", true, false},
		{"display:none;display:block", false, true},
		{"display:none !important;display:block", true, false},
		{"display:block;display:none", true, false},
		{"display: none foo", false, false},
		{"display:block", false, true},
		{"display: revert", false, false},
		{"color:red", false, false},
		{"opacity: 0.5", false, false},
		{"font-size: 12px", false, false},
		{"font: 12px serif", false, false},
		{"visibility: visible", false, false},
		{"position:absolute;left:-9999px", false, false},
		{"", false, false},
		{"display", false, false},
		{"display:none/*", true, false},
		{"display:no/*x*/ne", false, false}, // a comment ends a token: "no" "ne"
	} {
		hides, shows := styleHides(tt.style)
		if hides != tt.hides || shows != tt.show {
			t.Errorf("styleHides(%q) = %v, %v; want %v, %v", tt.style, hides, shows, tt.hides, tt.show)
		}
		if (hides || shows) && !judgedStyle(tt.style) {
			t.Errorf("the policy drops %q before the writer can judge it", tt.style)
		}
	}
}

// TestJudgedStyle: the style attributes the writer reads are those naming a property
// styleHides reads, in any case, or holding a CSS escape; the others are dropped unread.
func TestJudgedStyle(t *testing.T) {
	for style, want := range map[string]bool{
		"DiSpLaY:none": true, "visibility:hidden": true, "content-visibility:auto": true, "OPACITY:1": true,
		"font-size:0": true, "font:0/0 a": true, "FONT: 12px serif": true, "di" + "\\" + "73 play:none": true, "\\": true,
		"": false, "color:red": false, "margin:0": false, "displa:none": false, "disp": false, "f": false,
		"dis play:none": false, "opacit:0": false, "visib:hidden": false,
	} {
		if got := judgedStyle(style); got != want {
			t.Errorf("judgedStyle(%q) = %v, want %v", style, got, want)
		}
	}
}

// TestOtherElementsMatchesAllButSkippedContent: the pattern that brings dropped elements to
// the writer matches every name but those whose content bluemonday skips.
func TestOtherElementsMatchesAllButSkippedContent(t *testing.T) {
	re := otherElements()
	for _, n := range skippedContent {
		if re.MatchString(n) {
			t.Errorf("matches %q, whose content bluemonday skips", n)
		}
	}
	for _, n := range []string{"f", "fr", "frames", "framesets", "framex", "iframes", "x-note", "form", "font", "svg",
		"a<section", "s", "scripts", "titl", "o", "objects", "noscrip", "b\nr"} {
		if !re.MatchString(n) {
			t.Errorf("does not match %q", n)
		}
	}
}

// TestKeptElementIsTheAllowlist: keptElement says yes to every element of htmlElements and to
// nothing else.
func TestKeptElementIsTheAllowlist(t *testing.T) {
	for _, e := range htmlElements {
		if !keptElement(e) {
			t.Errorf("keptElement(%q) = false", e)
		}
	}
	for _, e := range append([]string{"", "x", "button", "svg", "form", "template", "style", "scripts", "abbrx", "dix"},
		skippedContent...) {
		if keptElement(e) {
			t.Errorf("keptElement(%q) = true", e)
		}
	}
}
