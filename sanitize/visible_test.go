package sanitize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// hiddenMarker is the word every hidden passage of the testdata/visible documents holds.
const hiddenMarker = "zzhidden"

// TestVisibleMarkdownGolden renders each testdata/visible/*.html document as a tool's html
// result is rendered and compares the Markdown and the removal note with the matching .md
// file; no passage the document hides reaches the markup or the Markdown. Run `go test
// ./sanitize -run VisibleMarkdownGolden -update` to rewrite them after an intended change, and
// read the diff. The browser test (internal/testing/browsertest/visible_text_test.go) holds the
// same documents to what Chromium shows.
func TestVisibleMarkdownGolden(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("testdata", "visible", "*.html"))
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	for _, doc := range docs {
		name := strings.TrimSuffix(filepath.Base(doc), ".html")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(doc)
			require.NoError(t, err)
			r := sanitize.HTMLAndText(string(src), defaultRules)
			assert.NotContains(t, r.HTML, hiddenMarker, "a hidden passage reached the markup")
			assert.NotContains(t, r.Text, hiddenMarker, "a hidden passage reached the Markdown")
			assert.Equal(t, r.Text, sanitize.HTMLText(r.HTML), "HTMLText of the markup is the same Markdown")
			got := r.Text + "\n\n<!-- removed: " + r.Removed + " -->\n"
			golden := strings.TrimSuffix(doc, ".html") + ".md"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "missing golden file; run with -update")
			assert.Equal(t, string(want), got)
		})
	}
}
