//go:build !js

package mcpbinary

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildOnceAndRemove: the binary is built once per process, runs, and its folder goes with
// Remove; a folder left by a process that is gone is removed by the next build, one of a
// process that still runs is not.
func TestBuildOnceAndRemove(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/webmcp-mcp")
	}
	t.Setenv("WEBMCP_MCP_BINARY", "")
	gone := exec.Command("true")
	require.NoError(t, gone.Run())
	orphan := filepath.Join(os.TempDir(), folderPrefix+strconv.Itoa(gone.Process.Pid)+"-test")
	require.NoError(t, os.MkdirAll(orphan, 0o700))
	living := filepath.Join(os.TempDir(), folderPrefix+strconv.Itoa(os.Getppid())+"-test")
	require.NoError(t, os.MkdirAll(living, 0o700))
	defer os.RemoveAll(living)

	bin := Path(t)
	assert.Equal(t, bin, Path(t), "built once")
	out, err := exec.Command(bin, "-h").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "usage: webmcp-mcp")
	assert.NoDirExists(t, orphan, "the folder of a process that is gone")
	assert.DirExists(t, living, "the folder of a process that runs")

	Remove()
	assert.NoFileExists(t, bin)
	assert.NoDirExists(t, filepath.Dir(bin))
}
