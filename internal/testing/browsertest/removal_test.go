//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRemovalWarnedOnce: an html card keeps its HTML5 sectioning and text elements, loses its
// script and handler, and a tool that loses the same markup at each of three calls is named
// once in the page's console, while every call still dispatches its violation event.
func TestRemovalWarnedOnce(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/blank.html")
		var got struct {
			HTML     string
			Warnings []string
			Events   int
			Ran      bool
		}
		runJS(t, ctx, "removal.js", "warnedOnce", &got)
		assert.Equal(t, `<article><header><h2>Soup</h2></header><section><p>Boil <mark>gently</mark></p></section>`+
			`<footer><time datetime="2026-11-25">today</time></footer></article>`, got.HTML)
		require.Len(t, got.Warnings, 1, "%v", got.Warnings)
		assert.Contains(t, got.Warnings[0], `tool "card"`)
		assert.Contains(t, got.Warnings[0], "<script>")
		assert.Equal(t, 3, got.Events, "every call's violation still reaches the page's listeners")
		assert.False(t, got.Ran)
	})
}
