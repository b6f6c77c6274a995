package refusal_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/refusal"
)

// TestResultIsBridges: the refusals the module and webmcp-mcp give are bridge's own — the same
// result and violations as bridge.NormalizeJSON gives for output too deep or too large.
func TestResultIsBridges(t *testing.T) {
	p := bridge.DefaultPolicy()
	p.MaxResultBytes = 1 << 10
	deep := strings.Repeat("[", bridge.MaxNesting+1) + strings.Repeat("]", bridge.MaxNesting+1)
	large := `"` + strings.Repeat("x", 2<<10) + `"`
	for _, tt := range []struct {
		name string
		doc  string
		why  refusal.Reason
	}{
		{"too deep", deep, refusal.TooDeep()},
		{"too large", large, refusal.TooLarge(int64(len(large)), p.MaxResultBytes)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, wantVs, err := bridge.NormalizeJSON([]byte(tt.doc), p)
			require.NoError(t, err)
			got, gotVs := refusal.Result(tt.why)
			assert.Equal(t, want, got)
			w := []byte("[")
			for i, v := range wantVs {
				if i > 0 {
					w = append(w, ',')
				}
				w, err = v.AppendJSON(w)
				require.NoError(t, err)
			}
			assert.JSONEq(t, string(append(w, ']')), string(gotVs))
		})
	}
}
