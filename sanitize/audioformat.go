package sanitize

import (
	"bytes"
	"encoding/binary"
)

// The audio structure checks are the cheap counterpart of the image ones: one linear pass over
// a container's headers (RIFF chunks, ID3 tag and MPEG or ADTS frame headers, Ogg pages, FLAC
// metadata blocks, ISO BMFF boxes) that refuses a clip whose headers are cut off or claim more
// bytes than there are. They decode no audio. WebM (EBML), AIFF and MIDI are identified by
// their signature alone.

// checkAudioStructure checks data, whose type SniffAudio says is mime, by the rules of that
// container.
func checkAudioStructure(mime string, data []byte) error {
	switch mime {
	case "audio/wav":
		return checkWAV(data)
	case "audio/mpeg":
		return checkMPEGAudio(data)
	case "audio/aac":
		return checkADTS(data, 0)
	case "audio/ogg":
		return checkOgg(data)
	case "audio/flac":
		return checkFLAC(data)
	case "audio/mp4":
		return checkMP4(data)
	}
	return nil
}

// checkWAV reads the RIFF header, which must not claim more bytes than there are (so a WAV
// streamed with an unknown length is refused), and its chunks: a format chunk (fmt) with at
// least one channel and a sample rate, then the samples (data), each within the file.
func checkWAV(data []byte) error {
	const wav = "WAV"
	size := int64(binary.LittleEndian.Uint32(data[4:]))
	if size < 4 || size > int64(len(data)-8) {
		return brokenAudio(wav, "is truncated: its RIFF header says %s follow, but %s do",
			FormatBytes(size), FormatBytes(int64(len(data)-8)))
	}
	format := false
	for rest := data[12 : 8+size]; len(rest) > 0; {
		id, chunk, next, err := nextRIFFChunk(rest, brokenAudio, wav)
		if err != nil {
			return err
		}
		rest = next
		switch id {
		case "fmt ":
			if len(chunk) < 16 || binary.LittleEndian.Uint16(chunk[2:]) == 0 || binary.LittleEndian.Uint32(chunk[4:]) == 0 {
				return brokenAudio(wav, "is damaged: its format (fmt chunk) is not valid")
			}
			format = true
		case "data":
			if !format {
				return brokenAudio(wav, "is damaged: its samples (data chunk) come before its format (fmt chunk)")
			}
			return nil
		}
	}
	return brokenAudio(wav, "is truncated: it has no samples (data chunk)")
}

// checkMPEGAudio skips ID3v2 tags and requires a valid MPEG audio frame header (MP3 and its
// layers I and II) after them, then walks the frames by their lengths: the last one must not be
// cut off. Zero padding after a tag is skipped; the walk ends at anything that is not a frame
// header (an ID3v1 tag, say), or at a free-format frame, whose length the header does not give.
func checkMPEGAudio(data []byte) error {
	const mp3 = "MPEG audio"
	p := 0
	for bytes.HasPrefix(data[p:], []byte("ID3")) {
		if len(data)-p < 10 {
			return brokenAudio(mp3, "is truncated: its ID3 tag header is cut off")
		}
		h := data[p : p+10]
		if (h[6]|h[7]|h[8]|h[9])&0x80 != 0 {
			return brokenAudio(mp3, "is damaged: its ID3 tag size is not valid")
		}
		n := 10 + (int(h[6])<<21 | int(h[7])<<14 | int(h[8])<<7 | int(h[9])) // a syncsafe integer
		if h[5]&0x10 != 0 {
			n += 10 // footer
		}
		if n > len(data)-p {
			return brokenAudio(mp3, "is truncated: its ID3 tag needs %s, but only %s are left",
				FormatBytes(int64(n)), FormatBytes(int64(len(data)-p)))
		}
		p += n
		for p < len(data) && data[p] == 0 {
			p++
		}
	}
	if len(data)-p < 4 {
		return brokenAudio(mp3, "is truncated: it has no audio frame")
	}
	n, ok := mpegFrameLen(data[p:])
	if !ok {
		return brokenAudio(mp3, "is damaged: byte %d is not an MPEG audio frame header", p)
	}
	for n > 0 {
		if n > len(data)-p {
			return brokenAudio(mp3, "is truncated: the audio frame at byte %d needs %s, but only %s are left",
				p, FormatBytes(int64(n)), FormatBytes(int64(len(data)-p)))
		}
		p += n
		if n, ok = mpegFrameLen(data[p:]); !ok {
			if len(data)-p < 4 && len(data)-p >= 2 && data[p] == 0xff && data[p+1]&0xe0 == 0xe0 {
				return brokenAudio(mp3, "is truncated: the frame header at byte %d is cut off", p)
			}
			return nil
		}
	}
	return nil
}

// MPEG audio bit rates in kbit/s by [MPEG-1?][layer I, II, III][index].
var mpegBitrates = [2][3][15]int{
	{ // MPEG-2 and 2.5
		{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256},
		{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
		{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
	},
	{ // MPEG-1
		{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448},
		{0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384},
		{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320},
	},
}

// mpegFrameLen reads the MPEG audio frame header at the start of b and returns the frame's
// length in bytes (0 for a free-format frame), or false when b does not start with a valid header.
func mpegFrameLen(b []byte) (int, bool) {
	if len(b) < 4 {
		return 0, false
	}
	h := binary.BigEndian.Uint32(b)
	version, layer, rate, freq := h>>19&3, h>>17&3, h>>12&15, h>>10&3
	if h>>21 != 0x7ff || version == 1 || layer == 0 || rate == 15 || freq == 3 {
		return 0, false
	}
	if rate == 0 {
		return 0, true
	}
	mpeg1, hz := 0, [3]int{44100, 48000, 32000}[freq]
	switch version {
	case 3: // MPEG-1
		mpeg1 = 1
	case 2: // MPEG-2: half the rates
		hz /= 2
	case 0: // MPEG-2.5: a quarter
		hz /= 4
	}
	l := 3 - int(layer) // 0 for layer I, 1 for II, 2 for III
	bitrate := mpegBitrates[mpeg1][l][rate] * 1000
	pad := int(h >> 9 & 1)
	switch {
	case l == 0:
		return (12*bitrate/hz + pad) * 4, true
	case l == 2 && mpeg1 == 0:
		return 72*bitrate/hz + pad, true
	}
	return 144*bitrate/hz + pad, true
}

// checkADTS walks ADTS AAC frames from p by the lengths their headers give: the first must be a
// valid header, none may be cut off; the walk ends at anything that is not a frame header.
func checkADTS(data []byte, p int) error {
	const aac = "AAC (ADTS)"
	for {
		b := data[p:]
		if len(b) < 2 || b[0] != 0xff || b[1]&0xf6 != 0xf0 {
			return nil // not a frame: the end (SniffAudio saw the first frame's sync)
		}
		if len(b) < 7 {
			return brokenAudio(aac, "is truncated: the frame header at byte %d is cut off", p)
		}
		n := int(b[3]&3)<<11 | int(b[4])<<3 | int(b[5])>>5
		head := 7
		if b[1]&1 == 0 {
			head = 9 // with a CRC
		}
		if b[2]>>2&15 > 12 || n < head {
			return brokenAudio(aac, "is damaged: the frame header at byte %d is not valid", p)
		}
		if n > len(b) {
			return brokenAudio(aac, "is truncated: the frame at byte %d needs %s, but only %s are left",
				p, FormatBytes(int64(n)), FormatBytes(int64(len(b))))
		}
		p += n
	}
}

// checkOgg walks the Ogg pages end to end: each must start with "OggS" and version 0 and fit
// with its segment table and the segments it lists, and the first must begin a stream. Bytes
// after a page that ends the stream (its end-of-stream flag set) are allowed.
func checkOgg(data []byte) error {
	const ogg = "Ogg file"
	ended := false
	for p := 0; p < len(data); {
		b := data[p:]
		if ended && !bytes.HasPrefix(b, []byte("OggS")) {
			return nil
		}
		if len(b) < 27 {
			return brokenAudio(ogg, "is truncated: the page header at byte %d is cut off", p)
		}
		if !bytes.HasPrefix(b, []byte("OggS")) || b[4] != 0 {
			return brokenAudio(ogg, "is damaged: byte %d does not start a page (OggS, version 0)", p)
		}
		if p == 0 && b[5]&0x02 == 0 {
			return brokenAudio(ogg, "is damaged: its first page does not begin a stream")
		}
		segs := int(b[26])
		if len(b) < 27+segs {
			return brokenAudio(ogg, "is truncated: the page at byte %d is cut off", p)
		}
		n := 27 + segs
		for _, s := range b[27 : 27+segs] {
			n += int(s)
		}
		if n > len(b) {
			return brokenAudio(ogg, "is truncated: the page at byte %d needs %s, but only %s are left",
				p, FormatBytes(int64(n)), FormatBytes(int64(len(b))))
		}
		ended = b[5]&0x04 != 0
		p += n
	}
	return nil
}

// checkFLAC walks the metadata blocks, the first of which must be the stream info, up to the
// last one, and requires an audio frame's sync code after them.
func checkFLAC(data []byte) error {
	const flac = "FLAC"
	p := 4
	for last := false; !last; {
		if len(data)-p < 4 {
			return brokenAudio(flac, "is truncated: a metadata block header is cut off at byte %d", p)
		}
		typ, n := data[p]&0x7f, int(data[p+1])<<16|int(data[p+2])<<8|int(data[p+3])
		last = data[p]&0x80 != 0
		if p == 4 && (typ != 0 || n != 34) {
			return brokenAudio(flac, "is damaged: it does not start with its stream info (STREAMINFO block)")
		}
		if typ == 127 {
			return brokenAudio(flac, "is damaged: the metadata block at byte %d is not valid", p)
		}
		if n > len(data)-p-4 {
			return brokenAudio(flac, "is truncated: the metadata block at byte %d needs %s, but only %s are left",
				p, FormatBytes(int64(n)), FormatBytes(int64(len(data)-p-4)))
		}
		p += 4 + n
	}
	if len(data)-p < 2 {
		return brokenAudio(flac, "is truncated: it has no audio frames")
	}
	if data[p] != 0xff || data[p+1]&0xfe != 0xf8 {
		return brokenAudio(flac, "is damaged: byte %d is not an audio frame's sync code", p)
	}
	return nil
}

// checkMP4 walks the top-level boxes of an ISO base media file: each must fit (a size of 0
// runs to the end), and there must be a movie header (moov) and media data (mdat).
func checkMP4(data []byte) error {
	const mp4 = "MP4 audio"
	moov, mdat := false, false
	for p := 0; p < len(data); {
		b := data[p:]
		if len(b) < 8 {
			return brokenAudio(mp4, "is truncated: the box header at byte %d is cut off", p)
		}
		n, head := uint64(binary.BigEndian.Uint32(b)), uint64(8)
		typ := string(b[4:8])
		switch n {
		case 0:
			n = uint64(len(b))
		case 1:
			if len(b) < 16 {
				return brokenAudio(mp4, "is truncated: the box header at byte %d is cut off", p)
			}
			n, head = binary.BigEndian.Uint64(b[8:]), 16
		}
		if n < head {
			return brokenAudio(mp4, "is damaged: the %q box at byte %d has size %d", typ, p, n)
		}
		if n > uint64(len(b)) {
			return brokenAudio(mp4, "is truncated: its %q box needs %s, but only %s are left",
				typ, FormatBytes(int64(min(n, 1<<62))), FormatBytes(int64(len(b))))
		}
		moov = moov || typ == "moov"
		mdat = mdat || typ == "mdat"
		p += int(n)
	}
	switch {
	case !moov:
		return brokenAudio(mp4, "is truncated: it has no movie header (moov box)")
	case !mdat:
		return brokenAudio(mp4, "is truncated: it has no media data (mdat box)")
	}
	return nil
}
