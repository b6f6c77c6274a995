//go:build !js

package browsertest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// screenshotDir is where the browser tests save PNGs for people to look at (not committed).
func screenshotDir(t *testing.T) string {
	dir, err := filepath.Abs(fromRoot("out", "screenshots"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

func saveScreenshot(t *testing.T, name string, png []byte) {
	path := filepath.Join(screenshotDir(t), name)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// demoToolResult is what jsDemoCallEveryTool says of one demo tool.
type demoToolResult struct {
	IsError bool     `json:"isError"`
	Types   []string `json:"types"`
	Shown   string   `json:"shown"`
	Model   string   `json:"model"`
	Notices int      `json:"notices"`
	Frames  int      `json:"frames"`
	Alerts  int      `json:"alerts"`
}

// demoChecks are what each demo tool's result must show, in every browser and mode.
var demoChecks = map[string]func(c assert.TestingT, got demoToolResult){
	"greet": func(c assert.TestingT, got demoToolResult) { assert.Contains(c, got.Shown, "Hello, Ada!") },
	"sales_chart": func(c assert.TestingT, got demoToolResult) {
		assert.Contains(c, got.Types, "wmb-image")
		assert.Contains(c, got.Model, `[image 1: "Bar chart`)
	},
	"article": func(c assert.TestingT, got demoToolResult) {
		assert.Equal(c, 1, got.Frames, "sanitized HTML renders in a sandboxed iframe")
		assert.Contains(c, got.Shown, "[html sanitized: removed", "the removal is visible")
		assert.GreaterOrEqual(c, got.Notices, 1, "and listed with the policy notices")
		assert.NotContains(c, got.Model, "evil.example")
	},
	"docs_link": func(c assert.TestingT, got demoToolResult) {
		assert.Contains(c, got.Types, "wmb-link")
		assert.Contains(c, got.Shown, "(github.com)", "the link's host is shown beside its name")
	},
	"price_table": func(c assert.TestingT, got demoToolResult) { assert.Contains(c, got.Types, "wmb-table") },
	"find_order": func(c assert.TestingT, got demoToolResult) {
		assert.True(c, got.IsError)
		assert.Contains(c, got.Shown, "Error [ORDER_NOT_FOUND]: Order 42 does not exist")
	},
	"weather": func(c assert.TestingT, got demoToolResult) { assert.Contains(c, got.Model, `"city":"Oslo"`) },
	"crash": func(c assert.TestingT, got demoToolResult) {
		assert.True(c, got.IsError)
		assert.Contains(c, got.Shown, "TypeError")
	},
	"panorama": func(c assert.TestingT, got demoToolResult) {
		assert.Contains(c, got.Shown, "[image removed: 9000 px wide exceeds the 8000 px limit]")
		assert.GreaterOrEqual(c, got.Notices, 2, "the notices list shows the violations")
		assert.Zero(c, got.Alerts, "nothing the article carried ran")
	},
}
