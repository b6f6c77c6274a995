//go:build !js

package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBundleArguments: the MCP Bundle passes each text field as one argument
// (tools/release/mcpb-manifest.json): several pages or origins separated by spaces are several
// values, and an empty field is none.
func TestBundleArguments(t *testing.T) {
	o, err := parseFlags([]string{"-extension=false", "-allow=https://a.example https://b.example:8443",
		"-open= https://a.example/x  https://b.example:8443/ "}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, listFlag{"https://a.example", "https://b.example:8443"}, o.ext.allow)
	assert.Equal(t, listFlag{"https://a.example/x", "https://b.example:8443/"}, o.open)

	o, err = parseFlags([]string{"-extension=true", "-allow=", "-open="}, io.Discard)
	require.NoError(t, err, "the bundle's own-browser mode with the fields left empty")
	assert.Empty(t, o.open)
	assert.Empty(t, o.ext.allow)

	_, err = parseFlags([]string{"-extension=true", "-allow=", "-open=https://a.example/"}, io.Discard)
	assert.ErrorContains(t, err, "-open", "pages to open with the own-browser mode: told, not ignored")

	o, err = parseFlags([]string{"-version"}, io.Discard)
	require.NoError(t, err)
	assert.True(t, o.version)
}
