//go:build !js

package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/nativehost"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// docsCommand is a webmcp-mcp command line in a code block or an indented line of the docs; its
// arguments run to the end of the line or to a shell comment.
var docsCommand = regexp.MustCompile(`(?m)(?:^|[\s/])webmcp-mcp((?: +-[^\s#]+(?: +[^\s#-][^\s#]*)?)+)`)

// docsArgs is an "args" array of a client's configuration in the docs.
var docsArgs = regexp.MustCompile(`"args":\s*(\[[^\]]*\])`)

// TestDocsCommandLinesParse: every webmcp-mcp command line and every client configuration's
// "args" in the README and the agents' guide are accepted by webmcp-mcp's flags, so a reader who
// copies one gets a server, not a usage message.
func TestDocsCommandLinesParse(t *testing.T) {
	var lines [][]string
	for _, doc := range []string{"README.md", filepath.Join("docs", "agents-and-mcp-clients.md")} {
		text, err := os.ReadFile(checkout.Path(doc))
		require.NoError(t, err)
		for _, m := range docsCommand.FindAllStringSubmatch(string(text), -1) {
			args := strings.Fields(m[1])
			if strings.Contains(m[1], "…") || strings.Contains(m[1], "ORIGIN") || strings.Contains(m[1], "DIR") {
				continue // a pattern, not a command line
			}
			lines = append(lines, args)
		}
		for _, m := range docsArgs.FindAllStringSubmatch(string(text), -1) {
			var args []string
			require.NoError(t, json.Unmarshal([]byte(m[1]), &args), "%s: %s", doc, m[1])
			lines = append(lines, args)
		}
	}
	require.Greater(t, len(lines), 5, "the docs show command lines and configs")
	for _, args := range lines {
		_, host, err := nativehost.Invocation(args)
		require.NoError(t, err, "webmcp-mcp %s", strings.Join(args, " "))
		require.False(t, host, "the docs show no native-messaging host's command line")
		_, err = parseFlags(args, io.Discard)
		require.NoError(t, err, "webmcp-mcp %s", strings.Join(args, " "))
	}
}
