//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSchemaCheckerFetchedOnFirstNeed: the loader a page pays at load leaves the schema checker
// out (webmcp-bridge-schema.js, a chunk of its own); a page whose tools have no inputSchema never
// fetches it, and the first schema fetches it once, beside the loader. Registration then decides
// as before: a schema the bridge cannot enforce is a TypeError with its path, a name is held while
// its schema waits. A page cannot feed the loader a chunk of its own, neither through the global
// chunks hand themselves over by nor by adding the chunk's script itself. The same holds under a
// CSP of script-src 'self' (no 'unsafe-eval'), in both modes.
func TestSchemaCheckerFetchedOnFirstNeed(t *testing.T) {
	skipWithoutBuild(t)
	for _, page := range []string{"/test/empty.html", "/csp/empty.html"} {
		t.Run(page, func(t *testing.T) {
			eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
				reqs := openWithLoader(t, ctx, page)
				var plain string
				runJS(t, ctx, "schemachunk.js", "registerPlain", &plain)
				assert.Equal(t, "registered", plain)
				assert.Zero(t, reqs.count("webmcp-bridge-schema.js"), "no schema, no checker: %v", reqs.urls)

				var fakeCalled bool
				runJS(t, ctx, "schemachunk.js", "handOverFake", &fakeCalled)
				assert.False(t, fakeCalled, "the loader took nothing from the page")
				var got struct {
					Bad, Good, Taken, Later string
					Names                   []string
					FakeCalled              bool
				}
				runJS(t, ctx, "schemachunk.js", "registerSchemas", &got)
				assert.Regexp(t, `^TypeError: registerTool: inputSchema/additionalProperties: .+ @/additionalProperties$`, got.Bad)
				assert.Equal(t, "registered", got.Good)
				assert.Regexp(t, `^InvalidStateError: `, got.Taken, "the name was held")
				assert.Regexp(t, `^TypeError: registerTool: inputSchema/properties/q/type: .+ @/properties/q/type$`, got.Later)
				assert.Equal(t, []string{"good", "plain"}, got.Names)
				assert.False(t, got.FakeCalled, "the page's chunk was never called")
				assert.Equal(t, 2, reqs.count("webmcp-bridge-schema.js"), "the page's fetch and the loader's, once")
				assert.Zero(t, reqs.count(".wasm"), "decided on the page, without the module")
			})
		})
	}
}
