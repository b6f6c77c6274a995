package sanitize

import (
	"bytes"
	"encoding/binary"
)

// checkWebP reads the RIFF header, which must not claim more bytes than there are, and the
// chunks inside it: a simple file is one VP8 (lossy) or VP8L (lossless) chunk; an extended one
// (VP8X) has a VP8 or VP8L chunk for the canvas or, when animated, ANMF frames that hold one
// each. Every chunk must fit, and each bitstream's header must agree with the size it is drawn
// at, since the pixel limits were checked against that size.
func checkWebP(data []byte) error {
	const webp = "WebP"
	size := int64(binary.LittleEndian.Uint32(data[4:]))
	if size < 4 {
		return brokenImage(webp, "is damaged: its RIFF header says %s follow", FormatBytes(size))
	}
	if size > int64(len(data)-8) {
		return brokenImage(webp, "is truncated: its RIFF header says %s follow, but only %s do",
			FormatBytes(size), FormatBytes(int64(len(data)-8)))
	}
	body := data[12 : 8+size]
	id, chunk, rest, err := nextWebPChunk(body)
	if err != nil {
		return err
	}
	switch id {
	case "VP8 ", "VP8L":
		_, _, err := checkWebPBitstream(id, chunk)
		return err
	case "VP8X":
		return checkWebPExtended(chunk, rest)
	}
	return brokenImage(webp, "is damaged: its first chunk is %q, not VP8, VP8L or VP8X", id)
}

// nextWebPChunk is nextRIFFChunk for WebP.
func nextWebPChunk(b []byte) (id string, payload, rest []byte, err error) {
	return nextRIFFChunk(b, brokenImage, "WebP")
}

// checkWebPExtended checks the chunks after a VP8X chunk (vp8x is its payload).
func checkWebPExtended(vp8x, rest []byte) error {
	const webp = "WebP"
	if len(vp8x) < 10 {
		return brokenImage(webp, "is damaged: its VP8X chunk is %d bytes, not 10", len(vp8x))
	}
	animated := vp8x[0]&0x02 != 0
	cw, ch := int(le24(vp8x[4:]))+1, int(le24(vp8x[7:]))+1
	frames := 0
	for len(rest) > 0 {
		id, chunk, next, err := nextWebPChunk(rest)
		if err != nil {
			return err
		}
		rest = next
		switch {
		case !animated && (id == "VP8 " || id == "VP8L"):
			w, h, err := checkWebPBitstream(id, chunk)
			if err != nil {
				return err
			}
			if w != cw || h != ch {
				return brokenImage(webp, "is damaged: its canvas is %d×%d pixels but its image is %d×%d", cw, ch, w, h)
			}
			return nil
		case animated && id == "ANMF":
			if err := checkWebPFrame(chunk, cw, ch); err != nil {
				return err
			}
			frames++
		}
	}
	if animated {
		if frames == 0 {
			return brokenImage(webp, "is truncated: the animation has no frames (ANMF)")
		}
		return nil
	}
	return brokenImage(webp, "is truncated: it has no image data (VP8 or VP8L chunk)")
}

// checkWebPFrame checks an ANMF chunk's payload: a frame of an animation on a cw×ch canvas
// that lies within the canvas and holds a VP8 or VP8L bitstream of the frame's size.
func checkWebPFrame(anmf []byte, cw, ch int) error {
	const webp = "WebP"
	if len(anmf) < 16 {
		return brokenImage(webp, "is truncated: an animation frame (ANMF) header is cut off")
	}
	x, y := 2*int(le24(anmf)), 2*int(le24(anmf[3:]))
	fw, fh := int(le24(anmf[6:]))+1, int(le24(anmf[9:]))+1
	if x+fw > cw || y+fh > ch {
		return brokenImage(webp, "is damaged: an animation frame of %d×%d pixels at (%d, %d) lies outside the %d×%d canvas",
			fw, fh, x, y, cw, ch)
	}
	for rest := anmf[16:]; len(rest) > 0; {
		id, chunk, next, err := nextWebPChunk(rest)
		if err != nil {
			return err
		}
		rest = next
		if id == "VP8 " || id == "VP8L" {
			w, h, err := checkWebPBitstream(id, chunk)
			if err != nil {
				return err
			}
			if w != fw || h != fh {
				return brokenImage(webp, "is damaged: an animation frame is %d×%d pixels but its image is %d×%d", fw, fh, w, h)
			}
			return nil
		}
	}
	return brokenImage(webp, "is truncated: an animation frame (ANMF) has no image data")
}

// checkWebPBitstream reads the header of a VP8 (lossy, key frame) or VP8L (lossless) bitstream
// and returns the size it codes. A VP8 frame's first partition must fit in the chunk.
func checkWebPBitstream(id string, b []byte) (w, h int, err error) {
	const webp = "WebP"
	if id == "VP8L" {
		if len(b) < 5 || b[0] != 0x2f || b[4]>>5 != 0 {
			return 0, 0, brokenImage(webp, "is damaged: its lossless (VP8L) header is not valid")
		}
		bits := binary.LittleEndian.Uint32(b[1:])
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, nil
	}
	if len(b) < 10 {
		return 0, 0, brokenImage(webp, "is truncated: its lossy (VP8) frame header is cut off")
	}
	tag := le24(b)
	if tag&1 != 0 || tag>>1&7 > 3 || tag>>4&1 == 0 || !bytes.Equal(b[3:6], []byte{0x9d, 0x01, 0x2a}) {
		return 0, 0, brokenImage(webp, "is damaged: its lossy (VP8) data does not start with a visible key frame")
	}
	if part := int(tag >> 5); part > len(b)-10 {
		return 0, 0, brokenImage(webp, "is truncated: its lossy (VP8) frame needs %s, but only %s are left",
			FormatBytes(int64(part)), FormatBytes(int64(len(b)-10)))
	}
	w, h = int(binary.LittleEndian.Uint16(b[6:])&0x3fff), int(binary.LittleEndian.Uint16(b[8:])&0x3fff)
	if w == 0 || h == 0 {
		return 0, 0, brokenImage(webp, "is damaged: its lossy (VP8) frame is %d×%d pixels", w, h)
	}
	return w, h, nil
}

// le24 reads a 24-bit little-endian number.
func le24(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 }
