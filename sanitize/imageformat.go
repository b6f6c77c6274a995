package sanitize

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// The structure checks here (and checkWebP in webp.go) walk an image's container — PNG chunks,
// JPEG segments, GIF blocks, WebP RIFF chunks — far enough to refuse an image that is truncated
// or broken, which a header read (imageSize, image.DecodeConfig) accepts and which model APIs
// then refuse along with the whole request. They decode no pixels: each is one linear pass over
// the bytes, reading lengths and headers and skipping payloads (the PNG check also verifies the
// CRCs of the chunks that are not image data; the JPEG check scans the entropy-coded data for
// markers). Bytes after an image's end marker (PNG IEND, JPEG EOI, GIF trailer, the end of the
// WebP RIFF) are allowed and ignored, as browsers ignore them.

// checkImageStructure checks data, whose type SniffImage says is mime, by the rules of that
// format. Types without a check here (CheckImage never accepts them: imageSize reads no header
// of theirs) pass.
func checkImageStructure(mime string, data []byte) error {
	switch mime {
	case "image/png":
		return checkPNG(data)
	case "image/jpeg":
		return checkJPEG(data)
	case "image/gif":
		return checkGIF(data)
	case "image/webp":
		return checkWebP(data)
	}
	return nil
}

// brokenImage is the error of a failed structure check: "the " + format (PNG, JPEG, …) + " " +
// the formatted problem.
func brokenImage(format, problem string, args ...any) *LimitError {
	return limitErr("imageTypes", "the %s %s", format, fmt.Sprintf(problem, args...))
}

// brokenAudio is brokenImage for audio.
func brokenAudio(format, problem string, args ...any) *LimitError {
	return limitErr("audioTypes", "the %s %s", format, fmt.Sprintf(problem, args...))
}

// checkPNG walks the chunks after the signature: each must fit in the data with its CRC, the
// first must be IHDR, there must be image data (IDAT) and the image must end with IEND. The CRC
// of every chunk but the image data is verified: decoders that read the header chunks first
// (PIL, for one) refuse a wrong one there, while the image data, nearly all the bytes, is the
// pixel decoder's to judge — hashing it would cost a pass over every byte in WebAssembly.
func checkPNG(data []byte) error {
	const png = "PNG"
	idat := 0 // bytes of image data seen
	for p, first := 8, true; ; first = false {
		if len(data)-p < 12 {
			switch {
			case first:
				return brokenImage(png, "is truncated: its header (IHDR chunk) is cut off")
			case idat == 0:
				return brokenImage(png, "is truncated: it has no image data (IDAT)")
			case p == len(data):
				return brokenImage(png, "is truncated: it has no end marker (IEND)")
			}
			return brokenImage(png, "is truncated: a chunk header is cut off at byte %d", p)
		}
		n := binary.BigEndian.Uint32(data[p:])
		typ := data[p+4 : p+8]
		if !isChunkName(typ) {
			return brokenImage(png, "is damaged: byte %d does not start a chunk", p)
		}
		if left := len(data) - p - 12; n > 1<<31-1 || int64(n) > int64(left) {
			what := string(typ) + " chunk"
			if what == "IDAT chunk" {
				what += " (image data)"
			}
			return brokenImage(png, "is truncated: its %s needs %s, but only %s are left",
				what, FormatBytes(int64(n)), FormatBytes(int64(left)))
		}
		end := p + 8 + int(n)
		if !imageDataChunk(typ) && crc32.ChecksumIEEE(data[p+4:end]) != binary.BigEndian.Uint32(data[end:]) {
			return brokenImage(png, "is damaged: the checksum of its %s chunk is wrong", typ)
		}
		switch {
		case first && string(typ) != "IHDR":
			return brokenImage(png, "is damaged: it does not start with its header (IHDR chunk)")
		case !first && string(typ) == "IHDR":
			return brokenImage(png, "is damaged: it has a second header (IHDR chunk)")
		case string(typ) == "IDAT":
			idat += int(n)
		case string(typ) == "IEND":
			if idat == 0 {
				return brokenImage(png, "is truncated: it has no image data (IDAT)")
			}
			return nil
		}
		p = end + 4
	}
}

// imageDataChunk reports whether a PNG chunk type holds compressed pixels: IDAT, or fdAT (the
// frames of an APNG).
func imageDataChunk(t []byte) bool { return string(t) == "IDAT" || string(t) == "fdAT" }

// isChunkName reports whether a PNG chunk type is four ASCII letters.
func isChunkName(t []byte) bool {
	for _, c := range t {
		if !('a' <= c|0x20 && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}

// JPEG markers the walk treats specially.
const (
	jpegSOS = 0xda
	jpegEOI = 0xd9
	jpegSOI = 0xd8
)

// isJPEGFrame reports whether m is a start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC).
func isJPEGFrame(m byte) bool {
	return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc
}

// checkJPEG walks the segments after SOI by their lengths: a frame header (SOF) must come before
// the first scan (SOS), every scan must be followed by entropy-coded data, and the image must end
// with EOI. Like libjpeg (and image/jpeg), it skips fill bytes before a marker and stray bytes
// between segments.
func checkJPEG(data []byte) error {
	const jpeg = "JPEG"
	frame, scans := false, 0
	p := 2
	for {
		for p < len(data) && data[p] != 0xff {
			p++ // stray bytes: libjpeg warns and goes on
		}
		for p < len(data) && data[p] == 0xff {
			p++ // fill bytes
		}
		if p >= len(data) {
			if scans == 0 {
				return brokenImage(jpeg, "is truncated: it has no image data (SOS)")
			}
			return brokenImage(jpeg, "is truncated: it has no end marker (EOI)")
		}
		m := data[p]
		p++
		switch {
		case m == jpegEOI:
			if !frame {
				return brokenImage(jpeg, "is damaged: it has no frame header (SOF)")
			}
			if scans == 0 {
				return brokenImage(jpeg, "is truncated: it has no image data (SOS)")
			}
			return nil
		case m == jpegSOI:
			return brokenImage(jpeg, "is damaged: it has a second start marker (SOI) at byte %d", p-2)
		case m == 0x01 || m >= 0xd0 && m <= 0xd7, m == 0x00:
			continue // TEM and RSTn stand alone; 0x00 is a stuffed byte out of place
		}
		if len(data)-p < 2 {
			return brokenImage(jpeg, "is truncated: a segment header is cut off at byte %d", p-2)
		}
		n := int(binary.BigEndian.Uint16(data[p:]))
		if n < 2 {
			return brokenImage(jpeg, "is damaged: the segment at byte %d has length %d", p-2, n)
		}
		if n > len(data)-p {
			return brokenImage(jpeg, "is truncated: its %s segment needs %s, but only %s are left",
				jpegMarkerName(m), FormatBytes(int64(n)), FormatBytes(int64(len(data)-p)))
		}
		p += n
		switch {
		case isJPEGFrame(m):
			frame = true
		case m == jpegSOS:
			if !frame {
				return brokenImage(jpeg, "is damaged: its image data (SOS) comes before its frame header (SOF)")
			}
			var coded int
			p, coded = skipEntropyCoded(data, p)
			if coded == 0 {
				if p == len(data) {
					return brokenImage(jpeg, "is truncated: it has no image data after its scan header (SOS)")
				}
				return brokenImage(jpeg, "is damaged: a scan (SOS) holds no image data")
			}
			scans++
		}
	}
}

// skipEntropyCoded returns the offset of the marker that ends the entropy-coded data starting
// at p (len(data) when none does) and how many bytes of coded data there were: a 0xFF there is
// a stuffed 0xFF00 or a restart marker RSTn, anything else after 0xFF is the next marker.
func skipEntropyCoded(data []byte, p int) (next, coded int) {
	for {
		i := bytes.IndexByte(data[p:], 0xff)
		if i < 0 {
			return len(data), coded + len(data) - p
		}
		coded += i
		p += i
		if p+1 >= len(data) {
			return len(data), coded
		}
		switch m := data[p+1]; {
		case m == 0x00:
			coded++
			p += 2
		case m >= 0xd0 && m <= 0xd7:
			p += 2
		default:
			return p, coded
		}
	}
}

// jpegMarkerName names a JPEG marker for a message.
func jpegMarkerName(m byte) string {
	switch {
	case isJPEGFrame(m):
		return "frame header (SOF)"
	case m == jpegSOS:
		return "scan header (SOS)"
	case m == 0xc4:
		return "Huffman table (DHT)"
	case m == 0xdb:
		return "quantization table (DQT)"
	case m >= 0xe0 && m <= 0xef:
		return fmt.Sprintf("APP%d", m-0xe0)
	}
	return fmt.Sprintf("0x%02X", m)
}

// checkGIF walks the blocks after the logical screen descriptor and its color table: extensions
// and images with their data sub-blocks, up to the trailer (0x3B). There must be at least one
// image, each must have LZW data and lie within the logical screen (the size the pixel limits
// were checked against; some browsers grow the screen to fit a larger image).
func checkGIF(data []byte) error {
	const gif = "GIF"
	if len(data) < 13 {
		return brokenImage(gif, "is truncated: its screen descriptor is cut off")
	}
	p := 13 + colorTableSize(data[10])
	if p > len(data) {
		return brokenImage(gif, "is truncated: its color table is cut off")
	}
	sw, sh := int(binary.LittleEndian.Uint16(data[6:])), int(binary.LittleEndian.Uint16(data[8:]))
	images := 0
	for {
		if p >= len(data) {
			if images == 0 {
				return brokenImage(gif, "is truncated: it has no image (image descriptor)")
			}
			return brokenImage(gif, "is truncated: it has no trailer (0x3B)")
		}
		switch data[p] {
		case 0x21: // extension: introducer, label, data sub-blocks
			next, ok := skipSubBlocks(data, p+2)
			if !ok {
				return brokenImage(gif, "is truncated: an extension block is cut off at byte %d", p)
			}
			p = next
		case 0x2c: // image: descriptor, local color table, LZW minimum code size, data sub-blocks
			if len(data)-p < 11 {
				return brokenImage(gif, "is truncated: an image descriptor is cut off at byte %d", p)
			}
			x, y := int(binary.LittleEndian.Uint16(data[p+1:])), int(binary.LittleEndian.Uint16(data[p+3:]))
			w, h := int(binary.LittleEndian.Uint16(data[p+5:])), int(binary.LittleEndian.Uint16(data[p+7:]))
			if x+w > sw || y+h > sh {
				return brokenImage(gif, "is damaged: the image at byte %d (%d×%d pixels at (%d, %d)) "+
					"lies outside the %d×%d screen", p, w, h, x, y, sw, sh)
			}
			q := p + 10 + colorTableSize(data[p+9])
			if q+1 >= len(data) {
				return brokenImage(gif, "is truncated: it has no image data after the image descriptor at byte %d", p)
			}
			if data[q+1] == 0 {
				return brokenImage(gif, "is damaged: the image at byte %d has no image data", p)
			}
			next, ok := skipSubBlocks(data, q+1)
			if !ok {
				return brokenImage(gif, "is truncated: the image data of the image at byte %d is cut off", p)
			}
			p = next
			images++
		case 0x3b:
			if images == 0 {
				return brokenImage(gif, "is damaged: it has no image (image descriptor)")
			}
			return nil
		default:
			return brokenImage(gif, "is damaged: byte %d (0x%02X) starts no block", p, data[p])
		}
	}
}

// colorTableSize is the size in bytes of the color table that a GIF descriptor's packed flags
// announce (0 when the flags say there is none).
func colorTableSize(flags byte) int {
	if flags&0x80 == 0 {
		return 0
	}
	return 3 << (flags&7 + 1)
}

// skipSubBlocks skips GIF data sub-blocks from p through the zero-length terminator and returns
// the offset after it, or false when the data ends first.
func skipSubBlocks(data []byte, p int) (int, bool) {
	for p < len(data) {
		n := int(data[p])
		p += 1 + n
		if n == 0 {
			return p, true
		}
	}
	return 0, false
}

// nextRIFFChunk splits the first RIFF chunk off b: its FourCC, its payload and what follows it
// (after the pad byte of an odd-sized payload, which a last chunk may lack). Its errors are
// broken(format, …).
func nextRIFFChunk(b []byte, broken func(string, string, ...any) *LimitError,
	format string) (id string, payload, rest []byte, err error) {
	if len(b) < 8 {
		return "", nil, nil, broken(format, "is truncated: a chunk header is cut off")
	}
	id = string(b[:4])
	n := int64(binary.LittleEndian.Uint32(b[4:]))
	if n > int64(len(b)-8) {
		return "", nil, nil, broken(format, "is truncated: its %q chunk needs %s, but only %s are left",
			id, FormatBytes(n), FormatBytes(int64(len(b)-8)))
	}
	next := min(8+n+n&1, int64(len(b)))
	return id, b[8 : 8+n], b[next:], nil
}
