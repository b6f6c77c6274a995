package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// TestGeneratedIsCurrent fails when web/src/generated/ is not what the Go it comes from says:
// run `go generate ./internal/boundary` after changing an export, a limit, a policy setting or
// the keyword table.
func TestGeneratedIsCurrent(t *testing.T) {
	dir := filepath.Join("..", "..", "web", "src", "generated")
	for _, name := range names() {
		want, err := outputs[name]()
		require.NoError(t, err, name)
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "%s is missing: run go generate ./internal/boundary", name)
		require.Equal(t, string(want), string(got), "%s is stale: run go generate ./internal/boundary", name)
	}
}

// TestREADMEListsEverySetting: the README's policy table names every setting of
// bridge.PolicySettings, and no setting that is not one.
func TestREADMEListsEverySetting(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	section := regexp.MustCompile("(?s)## Policy defaults\n(.*?)\n## ").FindSubmatch(readme)
	require.NotNil(t, section, "README.md has a \"## Policy defaults\" section")
	listed := map[string]bool{}
	for _, row := range regexp.MustCompile("(?m)^\\| (.*?) \\|").FindAllSubmatch(section[1], -1) {
		for _, name := range regexp.MustCompile("`([a-zA-Z]+)`").FindAllSubmatch(row[1], -1) {
			listed[string(name[1])] = true
		}
	}
	for _, s := range bridge.PolicySettings() {
		assert.True(t, listed[s.Name], "the README's policy table lacks %s", s.Name)
		delete(listed, s.Name)
	}
	assert.Empty(t, listed, "the README's policy table names settings that do not exist")
}
