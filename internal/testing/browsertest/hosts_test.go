//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHostsInHTMLAsTheBrowserReadsThem: the href of a link and the src of an image inside an html
// block are written as the link block's URL is, and that form is the browser's own: what
// `new URL(raw).href` gives in Chromium, whose URL parser is the one that opens the link.
func TestHostsInHTMLAsTheBrowserReadsThem(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/xss.html")
	raws := []string{
		"https://a.test\u3002evil.test/",
		"https://0x7f.1/",
		"https://2130706433:8443/p?q=1#f",
		"https://0177.0.0.1/x",
		"https://\u0430pple.com/",
		"https://\uff25\uff38.Test/a.png",
		"https://B\u00fccher.example/",
	}
	var got []struct {
		Raw, Browser, Href, Src, Link string
	}
	eval(t, ctx, `const out = [];
		for (const raw of `+mustJSON(t, raws)+`) {
			const r = await WebMCPBridge.normalize([`+
		`WebMCPBridge.content.html('<a href="' + raw + '">x</a><img src="' + raw + '">'), WebMCPBridge.content.link(raw)]);
			const doc = new DOMParser().parseFromString(r.content[0].resource.text, "text/html");
			out.push({Raw: raw, Browser: new URL(raw).href, Href: doc.querySelector("a")?.getAttribute("href") ?? "",
				Src: doc.querySelector("img")?.getAttribute("src") ?? "", `+
		`Link: r.content.find((b) => b.type === "resource_link")?.uri ?? ""});
		}
		return out;`, &got)
	for _, g := range got {
		assert.Equal(t, g.Browser, g.Href, "the href of %q", g.Raw)
		assert.Equal(t, g.Browser, g.Src, "the img src of %q", g.Raw)
		assert.Equal(t, g.Browser, g.Link, "the link block's uri of %q", g.Raw)
	}
}
