package sanitize_test

import (
	"bytes"
	"image"
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
	"testing"

	_ "golang.org/x/image/webp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// FuzzImageSize holds the header read CheckImage does without Go's image decoders to what
// image.DecodeConfig (the decoders, linked into the tests only) says: wherever the structure
// walk accepts the bytes, both accept or both refuse, with the same size.
func FuzzImageSize(f *testing.F) {
	for _, c := range append(wellFormedImages(f), brokenImages(f)...) {
		f.Add(c.data)
	}
	f.Add(fixtures.PNGBomb(100000, 100000))
	f.Fuzz(func(t *testing.T, data []byte) {
		mime := sanitize.SniffImage(data)
		switch mime {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
		default:
			return
		}
		if sanitize.CheckImageStructure(mime, data) != nil {
			return // refused whatever the header says
		}
		w, h, err := sanitize.ImageSize(mime, data)
		cfg, _, derr := image.DecodeConfig(bytes.NewReader(data))
		if (err == nil) != (derr == nil) || err == nil && (w != cfg.Width || h != cfg.Height) {
			t.Fatalf("%s %q: ImageSize = %d×%d, %v; image.DecodeConfig = %d×%d, %v",
				mime, data, w, h, err, cfg.Width, cfg.Height, derr)
		}
	})
}
