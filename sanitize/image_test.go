package sanitize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

var imageLimits = sanitize.ImageLimits{MaxBytes: 5 << 20, MaxWidth: 8000, MaxHeight: 8000, MaxPixels: 40_000_000,
	Types: []string{"image/png", "image/jpeg", "image/gif", "image/webp"}}

func TestCheckImage(t *testing.T) {
	info, err := sanitize.CheckImage(fixtures.PNG(7, 5, false), "image/PNG", imageLimits)
	require.NoError(t, err)
	assert.Equal(t, sanitize.ImageInfo{MIMEType: "image/png", Width: 7, Height: 5}, info)

	info, err = sanitize.CheckImage(fixtures.WebP1x1, "", imageLimits)
	require.NoError(t, err)
	assert.Equal(t, sanitize.ImageInfo{MIMEType: "image/webp", Width: 1, Height: 1}, info)

	bomb := fixtures.PNGBomb(100000, 100000)
	assert.Len(t, bomb, 33)
	_, err = sanitize.CheckImage(bomb, "", imageLimits)
	assert.EqualError(t, err, "100000 px wide exceeds the 8000 px limit")
	_, err = sanitize.CheckImage(fixtures.PNGBomb(7000, 7000), "", imageLimits)
	assert.EqualError(t, err, "7000×7000 = 49,000,000 pixels exceeds the 40,000,000-pixel limit")
	_, err = sanitize.CheckImage(fixtures.PNGBomb(70, 70), "", imageLimits)
	assert.EqualError(t, err, "the PNG is truncated: it has no image data (IDAT)",
		"a header within the limits, and nothing after it")

	_, err = sanitize.CheckImage([]byte("\x89PNG\r\n\x1a\nbroken"), "", imageLimits)
	assert.EqualError(t, err, "the PNG is truncated: its header (IHDR chunk) is cut off")
	_, err = sanitize.CheckImage([]byte("BM\x00\x00"), "", imageLimits)
	assert.EqualError(t, err,
		"image/bmp is not an allowed image type (allowed: image/png, image/jpeg, image/gif, image/webp)")
	var le *sanitize.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "imageTypes", le.Limit)
}

// TestCheckImageDeclaredType: the bytes decide the type. An image of an allowed type is
// accepted whatever it was declared as, and a declaration that differed is reported; one of a
// type not allowed is refused, and the message says what it was declared as.
func TestCheckImageDeclaredType(t *testing.T) {
	png, gif := fixtures.PNG(2, 1, false), fixtures.GIF(2, 2)
	tests := []struct {
		name     string
		data     []byte
		declared string
		want     sanitize.ImageInfo
		err      string
	}{
		{"nothing declared", png, "", sanitize.ImageInfo{MIMEType: "image/png", Width: 2, Height: 1}, ""},
		{"declared right", png, "image/png", sanitize.ImageInfo{MIMEType: "image/png", Width: 2, Height: 1}, ""},
		{"declared right, an alias with parameters", png, " Image/X-PNG; q=1",
			sanitize.ImageInfo{MIMEType: "image/png", Width: 2, Height: 1}, ""},
		{"declared wrong", png, "image/jpeg",
			sanitize.ImageInfo{MIMEType: "image/png", DeclaredType: "image/jpeg", Width: 2, Height: 1}, ""},
		{"declared wrong, canonical form reported", gif, "IMAGE/JPG",
			sanitize.ImageInfo{MIMEType: "image/gif", DeclaredType: "image/jpeg", Width: 2, Height: 2}, ""},
		{"declared as a type not allowed", png, "image/bmp",
			sanitize.ImageInfo{MIMEType: "image/png", DeclaredType: "image/bmp", Width: 2, Height: 1}, ""},
		{"declared as SVG, the bytes are PNG", png, "image/svg+xml",
			sanitize.ImageInfo{MIMEType: "image/png", DeclaredType: "image/svg+xml", Width: 2, Height: 1}, ""},
		{"bytes of a type not allowed", []byte("BM\x00\x00"), "image/png", sanitize.ImageInfo{},
			"the bytes are image/bmp (declared as \"image/png\"), which is not an allowed image type (allowed: image/png, " +
				"image/jpeg, image/gif, image/webp)"},
		{"SVG labelled PNG", []byte("<svg onload=alert(1)>"), "image/png", sanitize.ImageInfo{},
			"SVG images are not allowed (they can carry script)"},
		{"SVG labelled SVG", []byte("<?xml version=\"1.0\"?><svg/>"), "image/svg+xml", sanitize.ImageInfo{},
			"SVG images are not allowed (they can carry script)"},
		{"declared wrong and truncated", png[:len(png)-12], "image/jpeg", sanitize.ImageInfo{},
			"the PNG is truncated: it has no end marker (IEND)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := sanitize.CheckImage(tt.data, tt.declared, imageLimits)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				var le *sanitize.LimitError
				require.ErrorAs(t, err, &le)
				assert.Equal(t, "imageTypes", le.Limit)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, info)
		})
	}
	// Only the sniffed type is held to the allowed types.
	_, err := sanitize.CheckImage(png, "image/png", sanitize.ImageLimits{Types: []string{"image/gif"}})
	assert.EqualError(t, err, "image/png is not an allowed image type (allowed: image/gif)")
}

func TestSniffAudio(t *testing.T) {
	tests := map[string]string{
		"ID3\x04\x00":                      "audio/mpeg",
		"\xff\xfb\x90\x00":                 "audio/mpeg",
		"\xff\xf1\x50\x80":                 "audio/aac",
		"RIFF\x00\x00\x00\x00WAVEfmt ":     "audio/wav",
		"OggS\x00\x02":                     "audio/ogg",
		"fLaC\x00":                         "audio/flac",
		"\x1a\x45\xdf\xa3\x01":             "audio/webm",
		"\x00\x00\x00\x20ftypM4A \x00\x00": "audio/mp4",
		"FORM\x00\x00\x00\x00AIFFCOMM":     "audio/aiff",
		"plain text":                       "",
	}
	for in, want := range tests {
		assert.Equal(t, want, sanitize.SniffAudio([]byte(in)), "%q", in)
	}
}

func TestText(t *testing.T) {
	out, cut, n := sanitize.Text("héllo", 3)
	assert.Equal(t, "hél", out)
	assert.True(t, cut)
	assert.Equal(t, 5, n)
	out, cut, _ = sanitize.Text("a\xffb", 10)
	assert.Equal(t, "a\uFFFDb", out)
	assert.False(t, cut)
	out, cut, _ = sanitize.Text("日本", 2)
	assert.Equal(t, "日本", out)
	assert.False(t, cut)
}

func TestFormat(t *testing.T) {
	assert.Equal(t, "512 B", sanitize.FormatBytes(512))
	assert.Equal(t, "5 MiB", sanitize.FormatBytes(5<<20))
	assert.Equal(t, "21.3 MiB", sanitize.FormatBytes(22_334_668))
	assert.Equal(t, "10,000,000,000", sanitize.FormatCount(10_000_000_000))
}
