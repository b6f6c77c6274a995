package bridge_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
)

// TestBinaryData: image and audio data may be bytes, as a Go caller (or the module, for a
// binary a page returned) holds them; the checks apply as to base64, and the output is the
// one canonical base64.
func TestBinaryData(t *testing.T) {
	png := fixtures.PNG(4, 3, false)
	p := bridge.DefaultPolicy()
	for _, tc := range []struct {
		name string
		in   any
	}{
		{"a block", map[string]any{"type": "image", "data": png}},
		{"the result itself", png},
		{"in a list", []any{map[string]any{"type": "image", "data": png, "alt": "a dot"}, "caption"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, vs := bridge.Normalize(tc.in, p)
			require.Empty(t, vs)
			img, ok := r.Content[0].(*bridge.ImageContent)
			require.True(t, ok, "%T", r.Content[0])
			require.Equal(t, "image/png", img.MIMEType)
			require.Equal(t, png, img.Data)
		})
	}
	p.MaxImageBytes = 10
	r, vs := bridge.Normalize(map[string]any{"type": "image", "data": png}, p)
	require.Len(t, vs, 1)
	require.Equal(t, "maxImageBytes", vs[0].Limit)
	require.IsType(t, &bridge.TextContent{}, r.Content[0])
	// Bytes that are no image are refused, whatever the block says.
	_, vs = bridge.Normalize(
		map[string]any{"type": "image", "data": []byte("<svg onload=alert(1)>"), "mimeType": "image/png"},
		bridge.DefaultPolicy())
	require.Len(t, vs, 1)
}
