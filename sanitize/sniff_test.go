package sanitize_test

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// The sniffers are checked against net/http.DetectContentType, which implements the same WHATWG
// "MIME Sniffing" tables. detectedAs lists every image or audio type DetectContentType names
// whose signature our sniffers share, with the name our sniffers give it. For these the two must
// agree both ways: where DetectContentType names one, we name its counterpart, and where we name
// one from a shared signature, DetectContentType names it too.
//
// Not compared, because DetectContentType has no signature for them or a different rule:
//   - image/avif: no AVIF signature (an AVIF whose ftyp box lists an "mp4" brand is video/mp4).
//   - audio/flac ("fLaC"), audio/aac (ADTS sync) and audio/mpeg from a bare MPEG frame sync (an
//     MP3 without an ID3 tag): no signature, so application/octet-stream or text/plain (FF FE…
//     even reads as a UTF-16 byte-order mark). Only ID3-tagged MPEG is compared.
//   - audio/mp4: DetectContentType says video/mp4 when any brand in a whole ftyp box starts with
//     "mp4"; we look at the major brand only (M4A, M4B, mp41, mp42, isom, dash). The counts of
//     both readings are logged.
//   - SVG: deliberately no image to us (it can carry script); text/xml or text/plain to it.
//
// Stricter than sniffing, and so outside this comparison: CheckImage also requires
// image.DecodeConfig to read the header, the type to be allowed and the structure to be whole
// (imageformat_test.go), so a sniffed BMP, ICO or AVIF (which Go cannot decode) is never
// accepted; CheckAudio walks the containers it knows (audioformat_test.go).
var detectedAs = map[string]string{
	"image/png":       "image/png",
	"image/jpeg":      "image/jpeg",
	"image/gif":       "image/gif",
	"image/webp":      "image/webp",
	"image/bmp":       "image/bmp",
	"image/x-icon":    "image/x-icon",
	"audio/aiff":      "audio/aiff",
	"audio/mpeg":      "audio/mpeg",
	"application/ogg": "audio/ogg",
	"audio/midi":      "audio/midi",
	"audio/wave":      "audio/wav",
	"video/webm":      "audio/webm", // one EBML signature: a container it calls video and we audio
}

// ourSniff is what our sniffers call data: an image type, else an audio type, else "" — the
// order of DetectContentType's table, where image signatures come before audio ones.
func ourSniff(data []byte) string {
	if t := sanitize.SniffImage(data); t != "" {
		return t
	}
	return sanitize.SniffAudio(data)
}

// sharedSignature reports whether ours, our name for data, comes from a signature that
// DetectContentType has too.
func sharedSignature(ours string, data []byte) bool {
	if ours == "audio/mpeg" {
		return bytes.HasPrefix(data, []byte("ID3"))
	}
	return ours != "" && slices.Contains(slices.Collect(maps.Values(detectedAs)), ours)
}

// sniffMismatch says how our sniffers and DetectContentType disagree on data, or "".
func sniffMismatch(data []byte) string {
	detected := http.DetectContentType(data)
	ours := ourSniff(data)
	want, known := detectedAs[detected]
	switch {
	case known && ours != want:
		return fmt.Sprintf("DetectContentType says %s, we say %q, for %q", detected, ours, data)
	case sharedSignature(ours, data) && want != ours:
		return fmt.Sprintf("we say %s, DetectContentType says %s, for %q", ours, detected, data)
	}
	return ""
}

// sniffSeeds are real files from the fixtures and hand-made headers of every type either side
// knows, plus near misses.
func sniffSeeds() map[string][]byte {
	return map[string][]byte{
		"png":      fixtures.PNG(16, 9, true),
		"png bomb": fixtures.PNGBomb(7000, 7000),
		"jpeg":     fixtures.JPEG(8, 8),
		"gif":      fixtures.GIF(4, 4),
		"webp":     fixtures.WebP1x1,
		"wav":      fixtures.WAV(64),
		"bmp": []byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00" +
			"\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x18\x00"),
		"ico":           []byte("\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00\x01\x00\x20\x00\x68\x04\x00\x00\x16\x00\x00\x00"),
		"cur":           []byte("\x00\x00\x02\x00\x01\x00\x20\x20\x00\x00\x10\x00\x10\x00"),
		"avif":          []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf"),
		"avif, mp4":     []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00mp41mif1miaf"),
		"m4a":           []byte("\x00\x00\x00\x20ftypM4A \x00\x00\x02\x00M4A mp42isom\x00\x00\x00\x00"),
		"m4a, no mp4":   []byte("\x00\x00\x00\x18ftypM4A \x00\x00\x02\x00M4A isom"),
		"mp4 video":     []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"),
		"isom":          []byte("\x00\x00\x00\x1cftypisom\x00\x00\x02\x00isomiso2mp41"),
		"quicktime":     []byte("\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00qt  "),
		"id3":           []byte("ID3\x04\x00\x00\x00\x00\x00\x21\xff\xfb\x90\x64\x00\x00\x00\x00"),
		"mp3 frame":     []byte("\xff\xfb\x90\x64\x00\x00\x00\x00\x00\x00"),
		"adts":          []byte("\xff\xf1\x50\x80\x02\x1f\xfc\x00\x00"),
		"ogg":           []byte("OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04\x00\x00\x00\x00"),
		"flac":          []byte("fLaC\x00\x00\x00\x22\x10\x00\x10\x00"),
		"webm":          []byte("\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01"),
		"midi":          []byte("MThd\x00\x00\x00\x06\x00\x01\x00\x01\x01\xe0MTrk"),
		"aiff":          []byte("FORM\x00\x00\x00\x2eAIFFCOMM\x00\x00\x00\x12"),
		"avi":           []byte("RIFF\x00\x00\x00\x00AVI LIST\x00\x00\x00\x00"),
		"riff other":    []byte("RIFF\x00\x00\x00\x00WEBPXX\x00\x00"),
		"svg":           []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`),
		"xml svg":       []byte(`<?xml version="1.0"?><svg/>`),
		"html":          []byte("  <p>hello</p>"),
		"utf-16le text": []byte("\xff\xfe\x00\x00h\x00i\x00"),
		"pdf":           []byte("%PDF-1.7\n"),
		"gzip":          []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"),
		"wasm":          []byte("\x00asm\x01\x00\x00\x00"),
		"text":          []byte("plain text"),
	}
}

// sniffCorpus is the seeds, every prefix of each (up to 64 bytes), and deterministic mutants:
// bytes changed, flipped, dropped or copied from another signature, white space put in front,
// two seeds spliced, and random short strings.
func sniffCorpus() [][]byte {
	seeds := sniffSeeds()
	names := slices.Sorted(maps.Keys(seeds))
	var out [][]byte
	for _, n := range names {
		s := seeds[n]
		out = append(out, s)
		for i := range min(len(s), 64) {
			out = append(out, s[:i])
		}
	}
	r := rand.New(rand.NewPCG(8, 8))
	for _, n := range names {
		for range 400 {
			out = append(out, mutate(r, seeds[n], seeds[names[r.IntN(len(names))]]))
		}
	}
	for range 5000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		out = append(out, b)
	}
	return out
}

// mutate changes one to three things in a copy of s; other is a second seed to borrow from.
func mutate(r *rand.Rand, s, other []byte) []byte {
	b := bytes.Clone(s)
	for range 1 + r.IntN(3) {
		if len(b) == 0 {
			return append(b, other...)
		}
		i := r.IntN(min(len(b), 16))
		switch r.IntN(6) {
		case 0:
			b[i] = byte(r.Uint32())
		case 1:
			b[i] ^= 1 << r.IntN(8)
		case 2:
			b = append(b[:i], b[i+1:]...)
		case 3:
			if i < len(other) {
				b[i] = other[i]
			}
		case 4:
			b = append([]byte{" \t\n\r\f"[r.IntN(5)]}, b...)
		case 5:
			b = append(b[:i:i], other[min(i, len(other)):]...)
		}
	}
	return b
}

// TestSniffersAgreeWithDetectContentType is the differential test described at detectedAs. It
// logs how many inputs each compared type covered, and what the uncompared types looked like to
// DetectContentType.
func TestSniffersAgreeWithDetectContentType(t *testing.T) {
	compared := map[string]int{}
	uncompared := map[string]int{}
	for _, data := range sniffCorpus() {
		if m := sniffMismatch(data); m != "" {
			t.Error(m)
			continue
		}
		detected, ours := http.DetectContentType(data), ourSniff(data)
		if audio := sanitize.SniffAudio(data); audio != "" && audio != ours {
			// Polyglots: the ftyp test ignores the first four bytes and a bare MPEG frame sync
			// is two bytes, so a few inputs read as an image to one sniffer, audio to the other.
			uncompared[fmt.Sprintf("%s, and %s to SniffAudio (DetectContentType: %s)", ours, audio, detected)]++
		}
		switch {
		case detectedAs[detected] != "":
			compared[ours]++
		case ours != "":
			uncompared[fmt.Sprintf("%s (DetectContentType: %s)", ours, detected)]++
		case strings.HasPrefix(detected, "image/"), strings.HasPrefix(detected, "audio/"),
			strings.HasPrefix(detected, "video/"):
			uncompared[fmt.Sprintf("none (DetectContentType: %s)", detected)]++
		}
	}
	for _, want := range detectedAs {
		assert.NotZero(t, compared[want], "no input exercised %s", want)
	}
	t.Logf("agreed:\n%s", countTable(compared))
	t.Logf("not compared:\n%s", countTable(uncompared))
}

func countTable(m map[string]int) string {
	keys := slices.Collect(maps.Keys(m))
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %6d  %s\n", m[k], k)
	}
	return b.String()
}
