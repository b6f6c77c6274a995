package bridge_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden normalizes each testdata/golden/*.input.json and compares the result and its
// violations with the matching .golden.json. Run `go test ./bridge -run Golden -update` to
// rewrite them after an intended change, and read the diff.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "golden", "*.input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.json")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			require.NoError(t, err)
			r, vs, err := bridge.NormalizeJSON(src, bridge.DefaultPolicy())
			require.NoError(t, err)
			requireValidMCP(t, r)
			resultJSON, err := r.MarshalJSON()
			require.NoError(t, err)
			if vs == nil {
				vs = []bridge.Violation{}
			}
			var violationsJSON bytes.Buffer
			enc := json.NewEncoder(&violationsJSON)
			enc.SetEscapeHTML(false)
			require.NoError(t, enc.Encode(vs))
			var got bytes.Buffer
			got.WriteString(`{"result":`)
			got.Write(resultJSON)
			got.WriteString(`,"violations":`)
			got.Write(bytes.TrimSpace(violationsJSON.Bytes()))
			got.WriteString("}")
			var pretty bytes.Buffer
			require.NoError(t, json.Indent(&pretty, got.Bytes(), "", "  "))
			pretty.WriteString("\n")
			golden := strings.TrimSuffix(in, ".input.json") + ".golden.json"
			if *update {
				require.NoError(t, os.WriteFile(golden, pretty.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "missing golden file; run with -update")
			require.Equal(t, string(want), pretty.String())
		})
	}
}
