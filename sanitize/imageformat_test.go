package sanitize_test

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "golang.org/x/image/webp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// imageCase is one input of the image structure tests.
type imageCase struct {
	name string
	data []byte
}

// wellFormedImages are complete, valid images of every accepted format and layout: PNG, JPEG
// and GIF from Go's encoders, progressive and restart-marker JPEGs and WebP from testdata/images
// (see its README).
func wellFormedImages(t testing.TB) []imageCase {
	return []imageCase{
		{"png", fixtures.PNG(5, 3, false)},
		{"png, noise", fixtures.PNG(16, 9, true)},
		{"jpeg", fixtures.JPEG(9, 7)},
		{"jpeg, progressive", readImage(t, "progressive.jpg")},
		{"jpeg, restart markers", readImage(t, "restart.jpg")},
		{"gif", fixtures.GIF(4, 4)},
		{"gif, animated", animatedGIF()},
		{"webp, lossless 1×1", fixtures.WebP1x1},
		{"webp, lossless", readImage(t, "lossless.webp")},
		{"webp, lossy", readImage(t, "lossy.webp")},
		{"webp, lossy with alpha (VP8X)", readImage(t, "alpha.webp")},
		{"webp, animated (VP8X, ANMF)", readImage(t, "animated.webp")},
	}
}

// brokenImages are images damaged in one way each; the golden file says what CheckImage makes of
// every one.
func brokenImages(t testing.TB) []imageCase {
	png := fixtures.PNG(5, 3, false)
	jpg := fixtures.JPEG(9, 7)
	gf := fixtures.GIF(4, 4)
	lossy := readImage(t, "lossy.webp")
	alpha := readImage(t, "alpha.webp")
	anim := readImage(t, "animated.webp")
	chunks := splitPNG(png)
	sos := jpegSOS(jpg)
	return []imageCase{
		{"png, signature and IHDR only", joinPNG(chunks[:1])},
		{"png, no IEND", joinPNG(chunks[:len(chunks)-1])},
		{"png, no IDAT", joinPNG(append(chunks[:1:1], chunks[len(chunks)-1]))},
		{"png, IHDR not first", joinPNG(append([]pngChunk{{"tEXt", []byte("a\x00b")}}, chunks...))},
		{"png, two IHDR", joinPNG(append(chunks[:1:1], chunks...))},
		{"png, IDAT longer than the data", setUint32BE(png, 33, 1<<20)},
		{"png, chunk length over 2^31", setUint32BE(png, 33, 1<<31)},
		{"png, bad CRC in the header", flipByte(png, 20)},
		{"png, bad CRC in a text chunk",
			flipByte(joinPNG(append(chunks[:1:1], append([]pngChunk{{"tEXt", []byte("a\x00b")}}, chunks[1:]...)...)), 33+11)},
		{"png, bad CRC in the image data (not checked)", flipByte(png, 45)},
		{"png, not a chunk after IEND's place",
			append(png[:len(png)-12:len(png)-12], "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"...)},
		{"png, cut in a chunk header", png[:len(png)-6]},
		{"png, trailing bytes", append(bytes.Clone(png), "trailing"...)},
		{"jpeg, no scan", append(jpg[:sos:sos], 0xff, 0xd9)},
		{"jpeg, no scan and no EOI", jpg[:sos]},
		{"jpeg, empty scan", append(jpg[:sos+2+jpegLen(jpg, sos):sos+2+jpegLen(jpg, sos)], 0xff, 0xd9)},
		{"jpeg, scan header only", jpg[:sos+2+jpegLen(jpg, sos)]},
		{"jpeg, no EOI", jpg[:len(jpg)-2]},
		{"jpeg, segment longer than the data", jpg[:sos-10]},
		{"jpeg, second SOI", append(append(jpg[:2:2], 0xff, 0xd8), jpg[2:]...)},
		{"jpeg, no SOF", jpegWithout(jpg, 0xc0)},
		{"jpeg, trailing bytes", append(bytes.Clone(jpg), "trailing"...)},
		{"jpeg, stray and fill bytes between segments", insert(jpg, 4+jpegLen(jpg, 2), "x\xff\xff")},
		{"gif, no image", append(gf[:13+6:13+6], 0x3b)},
		{"gif, no trailer", gf[:len(gf)-1]},
		{"gif, image without data", append(gf[:13+6:13+6], "\x2c\x00\x00\x00\x00\x04\x00\x04\x00\x00\x02\x00\x3b"...)},
		{"gif, image outside the screen", setUint16LE(gf, 13+6+5, 5)},
		{"gif, image larger than the screen at (0, 0)", setUint16LE(setUint16LE(gf, 13+6+5, 65535), 13+6+7, 65535)},
		{"gif, cut in the image data", gf[:len(gf)-4]},
		{"gif, cut in the color table", gf[:15]},
		{"gif, unknown block", append(gf[:len(gf)-1:len(gf)-1], 0x00, 0x3b)},
		{"gif, trailing bytes", append(bytes.Clone(gf), "trailing"...)},
		{"webp, VP8X without image data", joinRIFF(splitRIFF(alpha)[:1])},
		{"webp, VP8X and ALPH only", joinRIFF(splitRIFF(alpha)[:2])},
		{"webp, RIFF size over the data", setUint32LE(lossy, 4, uint32(len(lossy)))},
		{"webp, RIFF size under 4", setUint32LE(lossy, 4, 2)},
		{"webp, VP8 chunk over the RIFF", setUint32LE(lossy, 16, uint32(len(lossy)))},
		{"webp, VP8 partition over the chunk", setUint32LE(lossy, 20, binary.LittleEndian.Uint32(lossy[20:])|0xfff<<5)},
		{"webp, VP8 not a key frame", flipByte(lossy, 20)},
		{"webp, canvas larger than the image", setUint24LE(alpha, 24, 5)},
		{"webp, animation without frames", joinRIFF(splitRIFF(anim)[:2])},
		{"webp, frame outside the canvas", setUint24LE(anim, 12+8+10+8+6+8, 1)},
		{"webp, frame without image data", frameWithoutImage(anim)},
		{"webp, first chunk unknown", joinRIFF([]riffChunk{{"ICCP", []byte("x")}})},
		{"webp, trailing bytes", append(bytes.Clone(lossy), "trailing"...)},
	}
}

// TestCheckImageStructure compares what CheckImage says of every well-formed and broken image
// with testdata/checkimage.golden (go test -run TestCheckImageStructure -update rewrites it).
func TestCheckImageStructure(t *testing.T) {
	var b strings.Builder
	for _, c := range append(wellFormedImages(t), brokenImages(t)...) {
		info, err := sanitize.CheckImage(c.data, "", imageLimits)
		if err != nil {
			var le *sanitize.LimitError
			require.ErrorAs(t, err, &le, c.name)
			fmt.Fprintf(&b, "%s: refused (%s): %s\n", c.name, le.Limit, le.Reason)
			continue
		}
		fmt.Fprintf(&b, "%s: %s %d×%d\n", c.name, info.MIMEType, info.Width, info.Height)
	}
	golden := filepath.Join("testdata", "checkimage.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
}

// TestCheckImageWellFormed: the well-formed fixtures are real images (Go decodes the ones it
// can), CheckImage accepts them, and it refuses every strict prefix of each — every format ends
// with a marker or a declared size — while it accepts bytes after the end.
func TestCheckImageWellFormed(t *testing.T) {
	for _, c := range wellFormedImages(t) {
		t.Run(c.name, func(t *testing.T) {
			info, err := sanitize.CheckImage(c.data, "", imageLimits)
			require.NoError(t, err)
			if !strings.Contains(c.name, "animated (VP8X") { // x/image/webp decodes no animation
				m, _, err := image.Decode(bytes.NewReader(c.data))
				require.NoError(t, err)
				assert.Equal(t, image.Pt(info.Width, info.Height), m.Bounds().Size())
			}
			for k := range len(c.data) {
				_, err := sanitize.CheckImage(c.data[:k], "", imageLimits)
				require.Error(t, err, "a prefix of %d of %d bytes was accepted", k, len(c.data))
			}
			_, err = sanitize.CheckImage(append(bytes.Clone(c.data), 0, 0, 0, 0), "", imageLimits)
			assert.NoError(t, err, "trailing bytes")
		})
	}
}

// FuzzCheckImage: whatever the bytes, CheckImage does not panic, and an image it accepts has
// positive dimensions within the limits, the type SniffImage gives, and a DeclaredType only
// when one was declared and it differed.
func FuzzCheckImage(f *testing.F) {
	for _, c := range append(wellFormedImages(f), brokenImages(f)...) {
		f.Add(c.data, "")
	}
	f.Add(fixtures.PNG(2, 2, false), "image/jpeg")
	f.Add(fixtures.PNGBomb(100000, 100000), "image/png")
	f.Fuzz(func(t *testing.T, data []byte, declared string) {
		info, err := sanitize.CheckImage(data, declared, imageLimits)
		if err != nil {
			var le *sanitize.LimitError
			require.ErrorAs(t, err, &le)
			return
		}
		if info.Width <= 0 || info.Height <= 0 || info.Width > imageLimits.MaxWidth || info.Height > imageLimits.MaxHeight ||
			int64(info.Width)*int64(info.Height) > imageLimits.MaxPixels {
			t.Fatalf("accepted %q as %d×%d", data, info.Width, info.Height)
		}
		if info.MIMEType != sanitize.SniffImage(data) {
			t.Fatalf("accepted %q as %s; SniffImage says %q", data, info.MIMEType, sanitize.SniffImage(data))
		}
		if want := sanitize.CanonicalMIME(declared); info.DeclaredType != "" &&
			(declared == "" || info.DeclaredType != want || want == info.MIMEType) {
			t.Fatalf("declared %q, bytes %s: DeclaredType %q", declared, info.MIMEType, info.DeclaredType)
		}
	})
}

func readImage(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "images", name))
	require.NoError(t, err)
	return b
}

// animatedGIF is a two-frame looping GIF, with the NETSCAPE2.0 and graphic control extensions.
func animatedGIF() []byte {
	pal := []color.Color{color.Black, color.White}
	a := image.NewPaletted(image.Rect(0, 0, 3, 2), pal)
	b := image.NewPaletted(image.Rect(0, 0, 3, 2), pal)
	b.Pix[0] = 1
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{a, b}, Delay: []int{10, 10}}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

type pngChunk struct {
	typ  string
	body []byte
}

// splitPNG returns a well-formed PNG's chunks.
func splitPNG(b []byte) []pngChunk {
	var out []pngChunk
	for p := 8; p < len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		out = append(out, pngChunk{string(b[p+4 : p+8]), b[p+8 : p+8+n]})
		p += 12 + n
	}
	return out
}

// joinPNG writes a signature and chunks, with correct lengths and CRCs.
func joinPNG(chunks []pngChunk) []byte {
	b := []byte("\x89PNG\r\n\x1a\n")
	for _, c := range chunks {
		b = binary.BigEndian.AppendUint32(b, uint32(len(c.body)))
		start := len(b)
		b = append(append(b, c.typ...), c.body...)
		b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
	}
	return b
}

// jpegSOS returns the offset of the first SOS marker of a well-formed JPEG.
func jpegSOS(b []byte) int {
	for p := 2; ; p += 2 + jpegLen(b, p) {
		if b[p+1] == 0xda {
			return p
		}
	}
}

// jpegLen is the length field of the segment whose marker is at p.
func jpegLen(b []byte, p int) int { return int(binary.BigEndian.Uint16(b[p+2:])) }

// jpegWithout removes the segments with marker m before the first scan.
func jpegWithout(b []byte, m byte) []byte {
	out := bytes.Clone(b[:2])
	p := 2
	for ; b[p+1] != 0xda; p += 2 + jpegLen(b, p) {
		if b[p+1] != m {
			out = append(out, b[p:p+2+jpegLen(b, p)]...)
		}
	}
	return append(out, b[p:]...)
}

type riffChunk struct {
	id   string
	body []byte
}

// splitRIFF returns the chunks of a well-formed WebP.
func splitRIFF(b []byte) []riffChunk {
	var out []riffChunk
	for p := 12; p < len(b); {
		n := int(binary.LittleEndian.Uint32(b[p+4:]))
		out = append(out, riffChunk{string(b[p : p+4]), b[p+8 : p+8+n]})
		p += 8 + n + n&1
	}
	return out
}

// joinRIFF writes a WebP of chunks with correct sizes.
func joinRIFF(chunks []riffChunk) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBP")
	for _, c := range chunks {
		b = binary.LittleEndian.AppendUint32(append(b, c.id...), uint32(len(c.body)))
		b = append(b, c.body...)
		if len(c.body)%2 == 1 {
			b = append(b, 0)
		}
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

// frameWithoutImage is an animated WebP whose first frame holds no VP8 or VP8L chunk.
func frameWithoutImage(anim []byte) []byte {
	chunks := splitRIFF(anim)
	for i, c := range chunks {
		if c.id == "ANMF" {
			chunks[i].body = c.body[:16]
			break
		}
	}
	return joinRIFF(chunks)
}

func setUint32BE(b []byte, at int, v uint32) []byte {
	b = bytes.Clone(b)
	binary.BigEndian.PutUint32(b[at:], v)
	return b
}

func setUint32LE(b []byte, at int, v uint32) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[at:], v)
	return b
}

func setUint24LE(b []byte, at int, v uint32) []byte {
	b = bytes.Clone(b)
	b[at], b[at+1], b[at+2] = byte(v), byte(v>>8), byte(v>>16)
	return b
}

func insert(b []byte, at int, s string) []byte {
	return append(append(b[:at:at], s...), b[at:]...)
}

func flipByte(b []byte, at int) []byte {
	b = bytes.Clone(b)
	b[at] ^= 1
	return b
}
