//go:build !js

package browsertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// A personView is what a person sees of a rendered document (pages/js/visible.js).
type personView struct {
	InnerText     string   `json:"innerText"`
	Unseen        []string `json:"unseen"`
	Alts          []string `json:"alts"`
	ClosedDetails []string `json:"closedDetails"`
	URLs          []string `json:"urls"`
	Stylesheets   int      `json:"stylesheets"`
}

// TestModelTextIsWhatAPersonSees renders each document of sanitize/testdata/visible in
// headless Chromium, as written and as the html result the module makes of it, and holds the
// result's text for the model to what a person sees: every word of the document's innerText is
// in the text, and the text has no word that is not in that innerText, an image's alt, a kept
// link's or image's URL or a closed <details> (a person can open it). Two things differ from
// innerText on purpose (docs/mapping.md): text at zero opacity or zero font size, which
// innerText holds but nobody sees, is left out; and where a stylesheet hides text, which
// cannot be judged element by element, the result has no stylesheet, so the document is
// judged by what a person sees of the result. The result's markup and text show the same
// words, no hidden passage (the word zzhidden) reaches either, and the module's text is
// byte for byte what bridge.Normalize gives natively.
func TestModelTextIsWhatAPersonSees(t *testing.T) {
	skipWithoutBuild(t)
	dir := fromRoot("sanitize", "testdata", "visible")
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	docs := make([]string, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		docs[i] = string(b)
	}
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/visible.html")
	var got []struct {
		Page, Result personView
		Text, HTML   string
	}
	runJS(t, ctx, "visible.js", "judge", &got, docs)
	require.Len(t, got, len(docs))
	for i, g := range got {
		t.Run(strings.TrimSuffix(filepath.Base(files[i]), ".html"), func(t *testing.T) {
			assert.Equal(t, nativeText(t, docs[i]), g.Text, "the module's text is bridge.Normalize's")
			assert.NotContains(t, strings.ToLower(g.Text), "zzhidden", "a hidden passage reached the text")
			assert.NotContains(t, strings.ToLower(g.HTML), "zzhidden", "a hidden passage reached the markup")
			text := modelWords(g.Text)
			page := g.Page
			if page.Stylesheets > 0 {
				page = g.Result // the result is what a person sees: it has no stylesheet
			}
			for _, s := range []struct {
				name string
				view personView
			}{{"the page", page}, {"the result", g.Result}} {
				unseen := words(strings.Join(s.view.Unseen, " "))
				for w := range words(s.view.InnerText) {
					if !text[w] && !unseen[w] {
						t.Errorf("%q, which a person sees on %s, is not in the model's text:\n%s", w, s.name, g.Text)
					}
				}
				allowed := words(s.view.InnerText + " " + strings.Join(s.view.Alts, " ") + " " +
					strings.Join(g.Result.URLs, " ") + " " + strings.Join(s.view.ClosedDetails, " "))
				for w := range text {
					if !allowed[w] {
						t.Errorf("%q is in the model's text but not what a person sees on %s:\n%s", w, s.name, g.Text)
					}
				}
			}
		})
	}
}

// nativeText is the model's text bridge.Normalize makes of an html result natively.
func nativeText(t *testing.T, doc string) string {
	t.Helper()
	in, err := json.Marshal(map[string]any{"type": "html", "html": doc})
	require.NoError(t, err)
	r, _, err := bridge.NormalizeJSON(in, bridge.DefaultPolicy())
	require.NoError(t, err)
	for _, c := range r.Content {
		if tc, ok := c.(*bridge.TextContent); ok && tc.Annotations != nil && len(tc.Annotations.Audience) == 1 &&
			tc.Annotations.Audience[0] == bridge.RoleAssistant {
			return tc.Text
		}
	}
	t.Fatalf("no text for the model in %+v", r.Content)
	return ""
}

var (
	wordPattern = regexp.MustCompile(`[\p{L}\p{N}]+`)
	// listNumber is an ordered list item's number: Markdown for what a browser draws as a marker,
	// which innerText leaves out.
	listNumber = regexp.MustCompile(`(?m)^([> ]*)\d{1,9}[.)] `)
)

// words are the words of s in lower case.
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range wordPattern.FindAllString(strings.ToLower(s), -1) {
		m[w] = true
	}
	return m
}

// modelWords are the words of the model's Markdown, less its list numbers.
func modelWords(md string) map[string]bool {
	return words(listNumber.ReplaceAllString(md, "$1"))
}
