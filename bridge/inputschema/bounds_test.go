package inputschema_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// TestArgumentsOverEachBoundAreRefused: within the default maxArgumentBytes and
// maxArgumentValues every costly shape of arguments is either validated or refused with the
// limit named, so that no validation reads more than the bounds allow (issue 27, point 3: 1 MiB
// of small numbers kept the page's thread busy 0.6–2.6 s with data-worker="off"). Arguments one
// byte or one value over a bound are refused with the setting that holds it; at the bound they
// are read.
func TestArgumentsOverEachBoundAreRefused(t *testing.T) {
	p := bridge.DefaultPolicy()
	s, err := inputschema.CompileJSON([]byte(`{"properties":{"v":{"type":"array"}}}`))
	require.NoError(t, err)
	reason := func(err error) string {
		var ie *inputschema.InputError
		if !errors.As(err, &ie) {
			return fmt.Sprint(err)
		}
		return ie.Reason + ": " + ie.Message
	}
	// {"v":[1,…]} holds the document, the array and its items: n+2 values.
	numbers := func(n int) []byte { return []byte(`{"v":[` + repeatJoined("1", ",", 2*n) + `]}`) }
	assert.NoError(t, s.ValidateJSONWithin(numbers(p.MaxArgumentValues-2), p.MaxArgumentBytes, p.MaxArgumentValues))
	got := reason(s.ValidateJSONWithin(numbers(p.MaxArgumentValues-1), p.MaxArgumentBytes, p.MaxArgumentValues))
	assert.Equal(t, fmt.Sprintf("maxArgumentValues: the arguments hold more than %d JSON values, over the "+
		"maxArgumentValues limit: they were refused before validation", p.MaxArgumentValues), got)

	long := []byte(`{"v":"` + strings.Repeat("a", p.MaxArgumentBytes-8) + `"}`)
	require.Len(t, long, p.MaxArgumentBytes)
	assert.Contains(t, reason(s.ValidateJSONWithin(long, p.MaxArgumentBytes, p.MaxArgumentValues)), "type:")
	got = reason(s.ValidateJSONWithin(append(long, ' '), p.MaxArgumentBytes, p.MaxArgumentValues))
	assert.Equal(t, fmt.Sprintf("maxArgumentBytes: the arguments are %d bytes of JSON, over the maxArgumentBytes "+
		"limit of %d bytes: they were refused before validation", p.MaxArgumentBytes+1, p.MaxArgumentBytes), got)

	for _, c := range costlyShapes {
		cs, err := inputschema.CompileJSON([]byte(c.schema))
		require.NoError(t, err)
		args := []byte(c.args(p.MaxArgumentBytes - 16))
		require.LessOrEqual(t, len(args), p.MaxArgumentBytes, c.name)
		err = cs.ValidateJSONWithin(args, p.MaxArgumentBytes, p.MaxArgumentValues)
		if err != nil {
			assert.Contains(t, reason(err), "maxArgumentValues: ", c.name)
		}
		assert.NoError(t, cs.ValidateJSON(args), "%s: valid without the bounds", c.name)
	}
	assert.NoError(t, s.ValidateJSONWithin(numbers(p.MaxArgumentValues), 0, 0), "0: no limit")
}
