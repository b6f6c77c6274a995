package sanitize

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// imageSize reads the width and height of an image of type mime (as SniffImage gives it) from
// its header, and refuses the headers Go's own decoders refuse in image.DecodeConfig — the
// PNG, JPEG, GIF and WebP variants they do not support (a 12-bit or arithmetic-coded JPEG, a
// PNG bit depth that does not exist, a palette larger than its bit depth allows, …) — without
// linking those decoders. It reads only the header: the structure checks (imageformat.go) walk
// the rest, and where both fail CheckImage reports the structure's reason.
func imageSize(mime string, data []byte) (w, h int, err error) {
	switch mime {
	case "image/png":
		return pngSize(data)
	case "image/jpeg":
		return jpegSize(data)
	case "image/gif":
		return gifSize(data)
	case "image/webp":
		return webpSize(data)
	}
	return 0, 0, errors.New("no decoder for " + mime)
}

var errHeaderCut = errors.New("the header is cut off")

// pngSize reads IHDR and, for a paletted image, the PLTE chunk and what follows it up to tRNS
// or the image data, as image/png's DecodeConfig does.
func pngSize(data []byte) (w, h int, err error) {
	chunk := func(p int) (typ string, body []byte, next int, ok bool) {
		if len(data)-p < 12 {
			return "", nil, 0, false
		}
		n := int64(binary.BigEndian.Uint32(data[p:]))
		if n > int64(len(data)-p-12) {
			return "", nil, 0, false
		}
		end := p + 8 + int(n)
		typ = string(data[p+4 : p+8])
		if typ != "IDAT" && crc32.ChecksumIEEE(data[p+4:end]) != binary.BigEndian.Uint32(data[end:]) {
			return "", nil, 0, false // the decoder checks every chunk it reads but the image data
		}
		return typ, data[p+8 : end], end + 4, true
	}
	typ, ihdr, p, ok := chunk(8)
	switch {
	case !ok:
		return 0, 0, errHeaderCut
	case typ != "IHDR":
		return 0, 0, errors.New("png: chunk out of order")
	case len(ihdr) != 13:
		return 0, 0, errors.New("png: bad IHDR length")
	case ihdr[10] != 0:
		return 0, 0, errors.New("png: unsupported compression method")
	case ihdr[11] != 0:
		return 0, 0, errors.New("png: unsupported filter method")
	case ihdr[12] > 1:
		return 0, 0, errors.New("png: invalid interlace method")
	}
	w32, h32 := int32(binary.BigEndian.Uint32(ihdr)), int32(binary.BigEndian.Uint32(ihdr[4:]))
	if w32 <= 0 || h32 <= 0 {
		return 0, 0, errors.New("png: non-positive dimension")
	}
	if int64(w32)*int64(h32) >= 1<<60 {
		return 0, 0, errors.New("png: dimension overflow") // image/png counts 8 bytes a pixel in an int64
	}
	depth, colorType := ihdr[8], ihdr[9]
	if !pngDepthAllowed(depth, colorType) {
		return 0, 0, errors.New("png: unsupported bit depth and color type")
	}
	if colorType != 3 {
		return int(w32), int(h32), nil
	}
	// Paletted: PLTE must come before the image data and tRNS, and fit the bit depth.
	seenPLTE := false
	for {
		typ, body, next, ok := chunk(p)
		if !ok {
			return 0, 0, errHeaderCut
		}
		switch typ {
		case "PLTE":
			if seenPLTE {
				return 0, 0, errors.New("png: chunk out of order")
			}
			if np := len(body) / 3; len(body)%3 != 0 || np == 0 || np > 256 || np > 1<<depth {
				return 0, 0, errors.New("png: bad PLTE length")
			}
			seenPLTE = true
		case "tRNS", "IDAT":
			if !seenPLTE {
				return 0, 0, errors.New("png: chunk out of order")
			}
			if typ == "tRNS" && len(body) > 256 {
				return 0, 0, errors.New("png: bad tRNS length")
			}
			return int(w32), int(h32), nil
		case "IHDR", "IEND":
			return 0, 0, errors.New("png: chunk out of order")
		}
		p = next
	}
}

// pngDepthAllowed reports whether a PNG's bit depth and color type go together.
func pngDepthAllowed(depth, colorType byte) bool {
	switch colorType {
	case 0: // gray
		return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16
	case 3: // paletted
		return depth == 1 || depth == 2 || depth == 4 || depth == 8
	case 2, 4, 6: // true color, gray with alpha, true color with alpha
		return depth == 8 || depth == 16
	}
	return false
}

// jpegSize reads the markers after SOI as image/jpeg's DecodeConfig does: up to the frame
// header (SOF0, SOF1 or SOF2) when a JFIF APP0 segment came before it, else up to the first
// scan. Other frame types, unknown markers and frame headers the decoder does not support are
// refused.
func jpegSize(data []byte) (w, h int, err error) {
	p := 2
	next := func() (byte, bool) {
		if p >= len(data) {
			return 0, false
		}
		p++
		return data[p-1], true
	}
	jfif, frame := false, false
	for {
		a, ok1 := next()
		b, ok2 := next()
		if !ok1 || !ok2 {
			return 0, 0, errHeaderCut
		}
		for a != 0xff { // stray bytes before a marker
			a = b
			if b, ok1 = next(); !ok1 {
				return 0, 0, errHeaderCut
			}
		}
		marker := b
		if marker == 0 {
			continue
		}
		for marker == 0xff {
			if marker, ok1 = next(); !ok1 {
				return 0, 0, errHeaderCut
			}
		}
		switch {
		case marker == jpegEOI:
			return 0, 0, errors.New("jpeg: missing SOS marker")
		case marker >= 0xd0 && marker <= 0xd7: // RSTn
			continue
		}
		if len(data)-p < 2 {
			return 0, 0, errHeaderCut
		}
		n := int(binary.BigEndian.Uint16(data[p:])) - 2
		p += 2
		if n < 0 {
			return 0, 0, errors.New("jpeg: short segment length")
		}
		if n > len(data)-p {
			return 0, 0, errHeaderCut
		}
		seg := data[p : p+n]
		p += n
		switch {
		case marker == 0xc0 || marker == 0xc1 || marker == 0xc2:
			if frame {
				return 0, 0, errors.New("jpeg: multiple SOF markers")
			}
			if err := checkJPEGFrame(seg); err != nil {
				return 0, 0, err
			}
			frame = true
			w, h = int(binary.BigEndian.Uint16(seg[3:])), int(binary.BigEndian.Uint16(seg[1:]))
			if jfif {
				return w, h, nil
			}
		case marker == jpegSOS:
			if !frame {
				return 0, 0, errors.New("jpeg: missing SOF marker")
			}
			return w, h, nil
		case marker == 0xe0: // APP0
			if n >= 5 {
				jfif = string(seg[:5]) == "JFIF\x00"
			}
		case marker == 0xc4 || marker == 0xdb || marker == 0xdd || marker >= 0xe1 && marker <= 0xef || marker == 0xfe:
			// DHT, DQT, DRI, APPn, COM: not read for the size
		default:
			return 0, 0, errors.New("jpeg: unknown or unsupported marker")
		}
	}
}

// checkJPEGFrame checks a baseline, extended or progressive frame header (SOF0–SOF2) as
// image/jpeg does: 8-bit samples, 1, 3 or 4 distinct components with quantization tables 0–3,
// and the subsampling ratios the decoder supports.
func checkJPEGFrame(seg []byte) error {
	var nComp int
	switch len(seg) {
	case 6 + 3*1, 6 + 3*3, 6 + 3*4:
		nComp = (len(seg) - 6) / 3
	default:
		return errors.New("jpeg: unsupported number of components")
	}
	if seg[0] != 8 {
		return errors.New("jpeg: unsupported precision")
	}
	if int(seg[5]) != nComp {
		return errors.New("jpeg: SOF has wrong length")
	}
	errRatio := errors.New("jpeg: unsupported luma/chroma subsampling ratio")
	var hs, vs [4]int
	for i := range nComp {
		c := seg[6+3*i:]
		for j := range i {
			if seg[6+3*j] == c[0] {
				return errors.New("jpeg: repeated component identifier")
			}
		}
		if c[2] > 3 {
			return errors.New("jpeg: bad Tq value")
		}
		hv := c[1]
		h, v := int(hv>>4), int(hv&0x0f)
		if h < 1 || h > 4 || v < 1 || v > 4 {
			return errors.New("jpeg: luma/chroma subsampling ratio")
		}
		if h == 3 || v == 3 {
			return errRatio
		}
		switch {
		case nComp == 3 && i == 0 && v == 4,
			nComp == 3 && i == 1 && (hs[0]%h != 0 || vs[0]%v != 0),
			nComp == 3 && i == 2 && (hs[1] != h || vs[1] != v),
			nComp == 4 && i == 0 && hv != 0x11 && hv != 0x22,
			nComp == 4 && (i == 1 || i == 2) && hv != 0x11,
			nComp == 4 && i == 3 && (hs[0] != h || vs[0] != v):
			return errRatio
		}
		hs[i], vs[i] = h, v
	}
	return nil
}

// gifSize reads the logical screen descriptor, as image/gif's DecodeConfig does.
func gifSize(data []byte) (w, h int, err error) {
	if len(data) < 13 || len(data) < 13+colorTableSize(data[10]) {
		return 0, 0, errHeaderCut
	}
	if v := string(data[:6]); v != "GIF87a" && v != "GIF89a" {
		return 0, 0, errors.New("gif: can't recognize format")
	}
	return int(binary.LittleEndian.Uint16(data[6:])), int(binary.LittleEndian.Uint16(data[8:])), nil
}

// webpSize reads the first chunk, as x/image/webp's DecodeConfig does: the canvas of a VP8X
// chunk, or the size a VP8 or VP8L bitstream codes.
func webpSize(data []byte) (w, h int, err error) {
	if len(data) < 12 {
		return 0, 0, errHeaderCut
	}
	id, chunk, _, err := nextWebPChunk(data[12:])
	if err != nil {
		return 0, 0, err
	}
	switch id {
	case "VP8 ":
		// x/image/vp8 reads the size of a key frame only: another frame is 0×0.
		switch {
		case len(chunk) < 3:
			return 0, 0, errHeaderCut
		case chunk[0]&1 != 0:
			return 0, 0, nil
		case len(chunk) < 10:
			return 0, 0, errHeaderCut
		case string(chunk[3:6]) != "\x9d\x01\x2a":
			return 0, 0, errors.New("vp8: invalid format")
		}
		return int(binary.LittleEndian.Uint16(chunk[6:]) & 0x3fff), int(binary.LittleEndian.Uint16(chunk[8:]) & 0x3fff), nil
	case "VP8L":
		return checkWebPBitstream(id, chunk)
	case "VP8X":
		if len(chunk) != 10 {
			return 0, 0, errors.New("webp: invalid format")
		}
		w, h = int(le24(chunk[4:]))+1, int(le24(chunk[7:]))+1
		if int64(w)*int64(h) > 1<<31-1 {
			return 0, 0, errors.New("webp: invalid format")
		}
		return w, h, nil
	}
	return 0, 0, errors.New("webp: invalid format")
}
