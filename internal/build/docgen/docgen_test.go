package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// root is the repository, seen from this package.
var root = checkout.Path()

// TestPolicyDocIsCurrent fails when docs/policy.md's settings table is not what
// bridge.PolicySettings says: run `go generate ./internal/boundary` after changing a setting.
func TestPolicyDocIsCurrent(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "policy.md"))
	require.NoError(t, err)
	want, err := withSettings(doc)
	require.NoError(t, err)
	require.Equal(t, string(want), string(doc), "docs/policy.md is stale: run go generate ./internal/boundary")
	for _, s := range bridge.PolicySettings() {
		assert.Contains(t, string(doc), "| `"+s.Name+"` |", "the table names every setting")
	}
}

// TestREADMEIsOneScreen holds the README to what a reader sees first: the two commands, one
// example per way in and the links; the rest belongs in docs/.
func TestREADMEIsOneScreen(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	lines := strings.Count(string(readme), "\n")
	assert.LessOrEqual(t, lines, 150, "README.md has %d lines: move the detail into docs/", lines)
	first := strings.Index(string(readme), "make demo")
	assert.True(t, first > 0 && first < strings.Index(string(readme), "make test"), "make demo comes first")
	assert.Less(t, strings.Index(string(readme), "make test"), 1500, "the two commands are at the top")
}

// markdownLink is a link in Markdown text: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// markdownCode is what Markdown shows as code, where "[text](url)" is no link: a fenced block
// or a code span.
var markdownCode = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")

// TestDocLinksResolve: every relative link of the README and of docs/ names a file of the
// repository, and every #anchor a heading of the file it points into.
func TestDocLinksResolve(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	files = append(files, filepath.Join(root, "README.md"))
	for _, file := range files {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		prose := markdownCode.ReplaceAllString(string(text), "")
		for _, m := range markdownLink.FindAllStringSubmatch(prose, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), path)
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s links to %s, which is not there", file, target)
				continue
			}
			if anchor != "" && !hasAnchor(t, dest, anchor) {
				t.Errorf("%s links to %s, but %s has no heading with that anchor", file, target, dest)
			}
		}
	}
}

// hasAnchor says whether a Markdown file has a heading whose anchor, as GitHub writes it, is
// anchor: lower case, spaces as hyphens, punctuation other than hyphens and underscores dropped.
func hasAnchor(t *testing.T, file, anchor string) bool {
	text, err := os.ReadFile(file)
	require.NoError(t, err)
	for _, line := range strings.Split(string(text), "\n") {
		heading, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !strings.HasPrefix(line, "#") || !ok {
			continue
		}
		if slug(heading) == anchor {
			return true
		}
	}
	return false
}

func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
