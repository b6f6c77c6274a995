//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFormsCodeFetchedOnFirstNeed: the loader a page pays at load leaves the fallback's forms
// code out (webmcp-bridge-forms.js, a chunk of its own): a page without a <form toolname> never
// fetches it, even with forms of other kinds, and the first tool form fetches it once, beside the
// loader; the form is then a tool as before (its schema from its controls, an agent's call filled
// in, submitted, answered by respondWith with agentInvoked true, the result normalized). Where
// the browser has WebMCP of its own, its forms are its own: the chunk is never fetched.
func TestFormsCodeFetchedOnFirstNeed(t *testing.T) {
	skipWithoutBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		reqs := openWithLoader(t, ctx, "/test/empty.html")
		var tools int
		runJS(t, ctx, "formschunk.js", "plainForm", &tools)
		assert.Zero(t, tools)
		assert.Zero(t, reqs.count("webmcp-bridge-forms.js"), "no tool form, no forms code: %v", reqs.urls)

		var got struct{ Description, Schema, Result string }
		runJS(t, ctx, "formschunk.js", "toolForm", &got)
		assert.Equal(t, "Find things", got.Description)
		assert.JSONEq(t, `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`, got.Schema)
		assert.JSONEq(t, `{"content":[{"type":"text","text":"found x true"}],"resultType":"complete"}`, got.Result)
		want := 1
		if native {
			want = 0
		}
		assert.Equal(t, want, reqs.count("webmcp-bridge-forms.js"), "fetched once, at the first tool form (the fallback's)")
	})
}
