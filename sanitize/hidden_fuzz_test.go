package sanitize_test

import (
	"html"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// plantedMarker is the word FuzzHiddenMarker plants inside a hidden element.
const plantedMarker = "zzplanted"

// hiders are the ways FuzzHiddenMarker hides its marker: an element name and its attributes.
var hiders = []struct{ tag, attrs string }{
	{"div", "hidden"}, {"span", `hidden=""`}, {"p", `style="display:none"`}, {"li", `style="visibility: hidden"`},
	{"td", "hidden"}, {"section", `style="DISPLAY:NONE !important"`}, {"template", ""}, {"a", `href="https://e.test/" hidden`},
	{"table", `style="visibility:collapse"`}, {"img", `hidden alt="` + plantedMarker + `"`},
}

// FuzzHiddenMarker plants a marker inside a hidden element amid random markup — before it,
// inside the element around the marker, and after it — and fails when the marker reaches the
// markup or the Markdown although the HTML parser puts every occurrence of it inside a hidden
// element (hiddenByParse). Wherever random markup brings the marker out of hiding (an end tag
// that closes the element first, a raw-text element that swallows it), the case proves nothing
// and is passed.
func FuzzHiddenMarker(f *testing.F) {
	for i, s := range [][3]string{
		{"", "", ""}, {"<p>a", "<b>x", "</p>"}, {"<table><tr>", "<td>x", "</table>"}, {"<ul><li>", "<li>", "</ul>"},
		{"<div>", "<p>a<p>b", "</div>after"}, {"<table>", "", "<td>y"}, {"<ol>", "<br><img alt=x>", "<li>z"},
		{"<b>", "<i>", "</b>tail"}, {"<marquee>", "</marquee>", ""}, {"<svg><title>", "", "</svg>"},
		{"", "<td>c</td>", "</tr></table>"}, {"<dl><dt>", "<dd>d", ""},
	} {
		f.Add(s[0], s[1], s[2], uint8(i))
	}
	f.Fuzz(func(t *testing.T, before, inside, after string, pick uint8) {
		h := hiders[int(pick)%len(hiders)]
		var doc string
		if h.tag == "img" {
			doc = before + "<img " + h.attrs + ">" + after
		} else {
			doc = before + "<" + h.tag + " " + h.attrs + ">" + inside + " " + plantedMarker + " " + inside +
				"</" + h.tag + ">" + after
		}
		if !hiddenByParse(doc) {
			return
		}
		s := sanitize.HTMLAndText(doc, defaultRules)
		if strings.Contains(s.HTML, plantedMarker) || strings.Contains(s.Text, plantedMarker) {
			t.Fatalf("a hidden marker got through:\n in: %q\nhtml: %q\ntext: %q", doc, s.HTML, s.Text)
		}
	})
}

// hiddenByParse reports whether the HTML parser puts every occurrence of the marker in doc —
// in text or in an attribute — inside an element a person would not see: one with the hidden
// attribute or a hiding inline style of hiders, or a template. A comment holding it does not
// count: comments never reach the output.
func hiddenByParse(doc string) bool {
	root, err := nethtml.Parse(strings.NewReader(doc))
	if err != nil {
		return false
	}
	visible := false
	var walk func(n *nethtml.Node, hidden bool)
	walk = func(n *nethtml.Node, hidden bool) {
		if n.Type == nethtml.ElementNode {
			hidden = hidden || n.Data == "template" || n.Namespace == "" && hidingAttrs(n.Attr)
			for _, a := range n.Attr {
				if strings.Contains(a.Val, plantedMarker) && !hidden {
					visible = true
				}
			}
		}
		if n.Type == nethtml.TextNode && strings.Contains(n.Data, plantedMarker) && !hidden {
			visible = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, hidden)
		}
	}
	walk(root, false)
	return !visible && strings.Contains(doc, plantedMarker)
}

// hidingAttrs reports whether attributes hide their element the ways hiders do.
func hidingAttrs(attrs []nethtml.Attribute) bool {
	for _, a := range attrs {
		if a.Key == "hidden" {
			return true
		}
		if a.Key == "style" {
			for _, h := range hiders {
				if strings.Contains(h.attrs, `style="`+a.Val+`"`) {
					return true
				}
			}
		}
	}
	return false
}

// FuzzJudgedStyle: every style attribute styleHides would judge — one that hides or one that
// shows an element the hidden attribute hides — reaches it through the policy's pattern.
func FuzzJudgedStyle(f *testing.F) {
	for _, s := range []string{"display:none", "DI\\73 PLAY:none", "visibility:hidden", "opacity:0", "font:0/0 a",
		"display:block", "color:red", "/**/display/**/:none"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, style string) {
		doc := `<div hidden style="` + html.EscapeString(style) + `">zzshown</div>`
		hides, shows := sanitize.StyleHides(style)
		got := strings.Contains(sanitize.HTMLAndText(doc, defaultRules).Text, "zzshown")
		if want := !hides && shows; got != want {
			t.Fatalf("style %q: the text shows the element: %v; styleHides says hides %v, shows %v", style, got, hides, shows)
		}
	})
}
