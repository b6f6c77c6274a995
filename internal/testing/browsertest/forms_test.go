//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFormsAsAPersonFillsThem: in the fallback a form tool's schema carries the constraints the
// browser holds a person to (minlength and maxlength; a disabled option is not offered), a call
// outside them is refused and never submitted, and each call starts from the form as it was
// before the previous call filled it.
func TestFormsAsAPersonFillsThem(t *testing.T) {
	skipWithoutBuild(t)
	ctx := browser(t, false)
	open(t, ctx, serveWeb(t)+"/test/forms.html")
	var got struct {
		Schema struct {
			Properties map[string]map[string]any
		}
		Results   map[string]map[string]any
		Submitted []map[string]string
	}
	runJS(t, ctx, "forms.js", "constraints", &got)
	code, plan, note := got.Schema.Properties["code"], got.Schema.Properties["plan"], got.Schema.Properties["note"]
	assert.Equal(t, 8.0, code["minLength"])
	assert.Equal(t, 10.0, code["maxLength"])
	assert.Equal(t, 5.0, note["maxLength"])
	assert.Equal(t, []any{"free", "pro"}, plan["enum"], "disabled options are not offered")
	for _, refused := range []string{"long", "short", "disabled", "inGroup", "longNote"} {
		assert.True(
			t,
			got.Results[refused]["isError"] == true || got.Results[refused]["rejected"] != nil,
			"%s: %v",
			refused,
			got.Results[refused],
		)
	}
	require.Len(t, got.Submitted, 2, "only the valid calls were submitted: %v", got.Submitted)
	assert.Equal(t, map[string]string{"code": "abcdefgh", "plan": "pro", "note": "hi"}, got.Submitted[0])
	assert.Equal(
		t,
		map[string]string{"code": "abcdefghi", "plan": "free", "note": ""},
		got.Submitted[1],
		"the second call starts from the form before the first",
	)
}
