//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPrototypeSettersCannotTakeTheChunk: a script that runs after the loader defines setters on
// Array.prototype and Object.prototype for every index and key the loader writes, patches
// Map.prototype.set and Promise.prototype.then, and hands anything that looks like a chunk's
// hand-off or the schema checker a checker that accepts every schema. None of them sees the
// hand-off: the schema checker is the bridge's, and registerTool refuses type "nonsense-type"
// (issue 35, point 4).
func TestPrototypeSettersCannotTakeTheChunk(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/prototype.html")
		var got struct {
			Outcome string
			Caught  []string
		}
		runJS(t, ctx, "prototype.js", "registerNonsense", &got)
		assert.Regexp(t, `^TypeError: registerTool: inputSchema/properties/q/type: `, got.Outcome)
		assert.Empty(t, got.Caught, "no patch saw the loader's hand-off or checker")
	})
}

// TestPrototypeMapCannotForgeTheModelInput: a Map.prototype.get patched after the loader that
// answers a head of its own for the text of a result, or a WeakMap.prototype.get that answers a
// model input of its own for a result, does not become what the model reads:
// the agent side keeps what the module said of its results where no prototype reaches
// (issue 35, point 4).
func TestPrototypeMapCannotForgeTheModelInput(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/prototype.html")
		var got struct{ Text, ModelText string }
		runJS(t, ctx, "prototype.js", "forgedModelInput", &got)
		assert.Equal(t, "hello", got.Text)
		assert.Equal(t, "hello", got.ModelText, "the model reads the module's input, not the page's")
		runJS(t, ctx, "prototype.js", "forgedWeakModelInput", &got)
		assert.Equal(t, "hi", got.Text)
		assert.Equal(t, "hi", got.ModelText, "toModelInput of a result handed out is the module's, whatever WeakMap says")
	})
}
