//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// tsSDK is the official TypeScript SDK the MCP tests pin (internal/testing/browsertest/mcp's tsSDK;
// TestExtensionNativeTypeScriptClient checks that the two agree).
const tsSDK = "@modelcontextprotocol/sdk@1.32.2"

// tsClientRun is what testdata/extclient.mjs prints.
type tsClientRun struct {
	Transcript []json.RawMessage `json:"transcript"`
	Tools      []string          `json:"tools"`
	Result     struct {
		Content []map[string]any `json:"content"`
		IsError bool             `json:"isError"`
	} `json:"result"`
	ListMs []float64 `json:"listMs"`
	CallMs []float64 `json:"callMs"`
}

// runExtClient runs testdata/extclient.mjs: the TypeScript SDK's client over stdio, spawning
// command with args, waiting for and calling the page tool echo.
func runExtClient(t *testing.T, env []string, command string, args ...string) tsClientRun {
	t.Helper()
	_, err := npmcache.Node()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	sdk, err := npmcache.Install(ctx, tsSDK)
	require.NoError(t, err)
	cmd := exec.CommandContext(
		ctx,
		"node",
		append([]string{filepath.Join("testdata", "extclient.mjs"), sdk, "echo", command}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = newTestLog(t)
	out, err := cmd.Output()
	require.NoError(t, err)
	var r tsClientRun
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	return r
}

// TestExtensionNativeTypeScriptClient (issue 25): the official TypeScript SDK's client, over
// stdio to webmcp-mcp -extension, lists and calls a tool of a tab of the person's browser, and
// gets the same result as from the same page on the DevTools path (webmcp-mcp -open). With -v
// it logs the transcript and, for both paths, the median tools/list and tools/call times.
func TestExtensionNativeTypeScriptClient(t *testing.T) {
	skipWithoutBuild(t)
	pin, err := os.ReadFile(filepath.Join("mcp", "mcp_test.go"))
	require.NoError(t, err)
	require.Contains(t, string(pin), `"`+tsSDK+`"`, "the same SDK as the MCP tests")

	s := startNative(t)
	s.tab(t, s.base+"/test/agent-tools.html")
	r := runExtClient(t, []string{"XDG_RUNTIME_DIR=" + s.runtime, "ROUNDS=5"}, s.bin, "-extension", "-allow", s.base)
	assert.Contains(t, r.Tools, "echo")
	assert.False(t, r.Result.IsError)
	require.NotEmpty(t, r.Result.Content)
	assert.Equal(t, "you said hello", r.Result.Content[0]["text"])
	exchanged := 0 // requests and their answers; a tools/list_changed notification may come between
	for _, m := range r.Transcript {
		t.Logf("%s", m)
		var msg struct {
			Message struct {
				ID *int `json:"id"`
			} `json:"message"`
		}
		require.NoError(t, json.Unmarshal(m, &msg))
		if msg.Message.ID != nil {
			exchanged++
		}
	}
	assert.Equal(t, 4, exchanged, "tools/list and tools/call, each way")
	rounds := "ROUNDS=" + os.Getenv("WEBMCP_ROUNDS")
	if rounds == "ROUNDS=" {
		rounds = "ROUNDS=5"
	}
	devtools := runExtClient(t, []string{rounds}, s.bin, "-open", s.base+"/test/agent-tools.html")
	assert.Equal(t, devtools.Result, r.Result, "the same result on both paths")
	ext := runExtClient(t, []string{"XDG_RUNTIME_DIR=" + s.runtime, rounds}, s.bin, "-extension", "-allow", s.base)
	for _, p := range []struct {
		name string
		run  tsClientRun
	}{{"extension", ext}, {"devtools", devtools}} {
		t.Logf("%s path: tools/list median %.2f ms, tools/call (echo) median %.2f ms, %d rounds",
			p.name, median(p.run.ListMs), median(p.run.CallMs), len(p.run.ListMs))
	}
}

func median(ms []float64) float64 {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)/2]
}
