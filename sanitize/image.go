package sanitize

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
)

// ImageLimits are the rules an image must meet. Zero values mean "no limit" except Types: an
// empty Types refuses every image.
type ImageLimits struct {
	MaxBytes  int64    // decoded size in bytes
	MaxWidth  int      // pixels
	MaxHeight int      // pixels
	MaxPixels int64    // width × height
	Types     []string // allowed MIME types, e.g. image/png
}

// ImageInfo is what CheckImage learned about an accepted image.
type ImageInfo struct {
	MIMEType string // the type the bytes are, whatever the image was declared as
	// DeclaredType is the declared type, canonical (see CanonicalMIME), when it differed from
	// MIMEType: the caller should use MIMEType and may tell whoever declared it. It is "" when
	// nothing was declared or the declaration was right.
	DeclaredType  string
	Width, Height int
}

// CheckImage identifies data by its magic bytes and requires that type to be one of lim.Types.
// What the image was declared as (declared, "" when nothing was) does not decide: an image of an
// allowed type is accepted under its real type, and a declaration that differed is reported in
// ImageInfo.DeclaredType. SVG is never an image, whatever it is labelled.
//
// CheckImage reads the dimensions from the header alone — no pixels are decoded, and the headers
// Go's image decoders refuse in image.DecodeConfig are refused — and refuses images whose header
// claims more than the limits allow: a 33-byte PNG header can claim ten gigapixels. Then it walks
// the file's structure (PNG chunks, JPEG segments, GIF blocks, WebP chunks) in one linear pass
// and refuses an image that is truncated or broken, such as a PNG without image data or a JPEG
// without its end marker: browsers show what they can of such files, but model APIs refuse them,
// and with them the whole request.
// Bytes after an image's end marker are allowed, as browsers allow them.
//
// Every error is a *LimitError naming the setting that refused the image.
func CheckImage(data []byte, declared string, lim ImageLimits) (ImageInfo, error) {
	if lim.MaxBytes > 0 && int64(len(data)) > lim.MaxBytes {
		return ImageInfo{}, limitErr("maxImageBytes", "%s exceeds the %s limit",
			FormatBytes(int64(len(data))), FormatBytes(lim.MaxBytes))
	}
	if len(data) == 0 {
		return ImageInfo{}, limitErr("imageTypes", "the image is empty")
	}
	sniffed := SniffImage(data)
	if sniffed == "" {
		if looksLikeSVG(data) {
			return ImageInfo{}, limitErr("imageTypes", "SVG images are not allowed (they can carry script)")
		}
		return ImageInfo{}, limitErr("imageTypes", "the bytes are not a recognised image format")
	}
	info := ImageInfo{MIMEType: sniffed}
	if d := canonicalMIME(declared); declared != "" && d != sniffed {
		info.DeclaredType = d
	}
	if !slices.Contains(lim.Types, sniffed) {
		if info.DeclaredType != "" {
			return ImageInfo{}, limitErr("imageTypes",
				"the bytes are %s (declared as %s), which is not an allowed image type (allowed: %s)",
				sniffed, pagetext.Quote(info.DeclaredType), joinTypes(lim.Types))
		}
		return ImageInfo{}, limitErr("imageTypes", "%s is not an allowed image type (allowed: %s)",
			sniffed, joinTypes(lim.Types))
	}
	var cfg struct{ Width, Height int }
	var err error
	if cfg.Width, cfg.Height, err = imageSize(sniffed, data); err != nil {
		if serr := checkImageStructure(sniffed, data); serr != nil {
			return ImageInfo{}, serr // says what is wrong in words a person knows
		}
		return ImageInfo{}, limitErr("imageTypes", "the %s header is damaged: %v", sniffed, err)
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return ImageInfo{}, limitErr("imageTypes", "the image claims %d×%d pixels", cfg.Width, cfg.Height)
	}
	if lim.MaxWidth > 0 && cfg.Width > lim.MaxWidth {
		return ImageInfo{}, limitErr("maxImageWidth", "%d px wide exceeds the %d px limit", cfg.Width, lim.MaxWidth)
	}
	if lim.MaxHeight > 0 && cfg.Height > lim.MaxHeight {
		return ImageInfo{}, limitErr("maxImageHeight", "%d px high exceeds the %d px limit", cfg.Height, lim.MaxHeight)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); lim.MaxPixels > 0 && px > lim.MaxPixels {
		return ImageInfo{}, limitErr("maxImagePixels", "%d×%d = %s pixels exceeds the %s-pixel limit",
			cfg.Width, cfg.Height, FormatCount(px), FormatCount(lim.MaxPixels))
	}
	if err := checkImageStructure(sniffed, data); err != nil {
		return ImageInfo{}, err
	}
	return info, nil
}

// AudioLimits are the rules an audio clip must meet.
type AudioLimits struct {
	MaxBytes int64
	Types    []string
}

// CheckAudio identifies data by its container signature and requires the type to be allowed
// and to agree with declared (when not empty). Then it walks the container's headers in one
// linear pass and refuses a clip that is truncated or broken: a WAV whose RIFF size is larger
// than the data or that lacks its fmt or data chunk, MPEG audio without a valid frame header
// after its ID3 tag or with its last frame cut off, an ADTS AAC frame cut off, an Ogg page that
// is not "OggS" version 0 or is cut off, FLAC metadata blocks cut off or no frame after them, an
// MP4 box cut off or no moov or mdat box. No audio is decoded; WebM, AIFF and MIDI are checked
// by their signature alone. It returns the sniffed MIME type; every error is a *LimitError.
func CheckAudio(data []byte, declared string, lim AudioLimits) (string, error) {
	if lim.MaxBytes > 0 && int64(len(data)) > lim.MaxBytes {
		return "", limitErr("maxAudioBytes", "%s exceeds the %s limit",
			FormatBytes(int64(len(data))), FormatBytes(lim.MaxBytes))
	}
	sniffed := SniffAudio(data)
	if sniffed == "" {
		return "", limitErr("audioTypes", "the bytes are not a recognised audio format")
	}
	if declared != "" {
		if d := canonicalMIME(declared); d != sniffed {
			return "", limitErr("audioTypes", "declared as %s but the bytes are %s", pagetext.Quote(d), sniffed)
		}
	}
	if !slices.Contains(lim.Types, sniffed) {
		return "", limitErr("audioTypes", "%s is not an allowed audio type (allowed: %s)", sniffed, joinTypes(lim.Types))
	}
	if err := checkAudioStructure(sniffed, data); err != nil {
		return "", err
	}
	return sniffed, nil
}

func looksLikeSVG(data []byte) bool {
	head := data[:min(len(data), 512)]
	return bytes.Contains(bytes.ToLower(head), []byte("<svg"))
}

func joinTypes(types []string) string {
	if len(types) == 0 {
		return "none"
	}
	return strings.Join(types, ", ")
}

// FormatCount renders a count with thousands separators: 10000000000 → "10,000,000,000".
func FormatCount(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
