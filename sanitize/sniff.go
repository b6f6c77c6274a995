package sanitize

import "bytes"

// SniffImage returns the MIME type that the WHATWG MIME Sniffing "image type pattern" table
// gives for data's leading bytes, or "" when no image signature matches. SVG is text and is
// deliberately not an image here: it can carry script.
func SniffImage(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "image/gif"
	case len(data) >= 14 && bytes.HasPrefix(data, []byte("RIFF")) && bytes.Equal(data[8:14], []byte("WEBPVP")):
		return "image/webp"
	case bytes.HasPrefix(data, []byte("BM")):
		return "image/bmp"
	case bytes.HasPrefix(data, []byte("\x00\x00\x01\x00")), bytes.HasPrefix(data, []byte("\x00\x00\x02\x00")):
		return "image/x-icon"
	case isFtyp(data, "avif", "avis"):
		return "image/avif"
	}
	return ""
}

// SniffAudio returns the MIME type of the common audio containers (the WHATWG "audio or video
// type pattern" table plus FLAC and ADTS AAC), or "" when none matches.
func SniffAudio(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("ID3")):
		return "audio/mpeg"
	case len(data) >= 12 && bytes.HasPrefix(data, []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WAVE")):
		return "audio/wav"
	case len(data) >= 12 && bytes.HasPrefix(data, []byte("FORM")) && bytes.Equal(data[8:12], []byte("AIFF")):
		return "audio/aiff"
	case bytes.HasPrefix(data, []byte("OggS\x00")):
		return "audio/ogg"
	case bytes.HasPrefix(data, []byte("fLaC")):
		return "audio/flac"
	case bytes.HasPrefix(data, []byte("\x1a\x45\xdf\xa3")):
		return "audio/webm"
	case bytes.HasPrefix(data, []byte("MThd\x00\x00\x00\x06")):
		return "audio/midi"
	case isFtyp(data, "M4A ", "M4B ", "mp42", "mp41", "isom", "dash"):
		return "audio/mp4"
	case len(data) >= 2 && data[0] == 0xff && data[1]&0xf6 == 0xf0:
		// ADTS frame header: 12-bit sync, layer bits 00.
		return "audio/aac"
	case len(data) >= 2 && data[0] == 0xff && data[1]&0xe0 == 0xe0 && data[1]&0x06 != 0:
		// MPEG audio frame sync with a layer set (MP3 without an ID3 tag).
		return "audio/mpeg"
	}
	return ""
}

// isFtyp reports whether data is an ISO base media file whose major brand is one of brands.
func isFtyp(data []byte, brands ...string) bool {
	if len(data) < 12 || !bytes.Equal(data[4:8], []byte("ftyp")) {
		return false
	}
	major := string(data[8:12])
	for _, b := range brands {
		if major == b {
			return true
		}
	}
	return false
}

// canonicalMIME lower-cases a declared MIME type, drops parameters and folds common aliases
// onto the names the sniffers return, so "image/JPG; q=1" compares equal to "image/jpeg".
func canonicalMIME(t string) string {
	if i := bytes.IndexByte([]byte(t), ';'); i >= 0 {
		t = t[:i]
	}
	t = string(bytes.ToLower(bytes.TrimSpace([]byte(t))))
	switch t {
	case "image/jpg", "image/pjpeg":
		return "image/jpeg"
	case "image/x-png":
		return "image/png"
	case "image/vnd.microsoft.icon", "image/ico":
		return "image/x-icon"
	case "image/x-ms-bmp":
		return "image/bmp"
	case "audio/mp3", "audio/mpeg3", "audio/x-mpeg":
		return "audio/mpeg"
	case "audio/x-wav", "audio/wave", "audio/vnd.wave":
		return "audio/wav"
	case "audio/x-flac":
		return "audio/flac"
	case "audio/x-m4a", "audio/m4a":
		return "audio/mp4"
	case "audio/x-aiff":
		return "audio/aiff"
	case "audio/x-aac":
		return "audio/aac"
	case "application/ogg", "audio/opus", "audio/vorbis":
		return "audio/ogg"
	}
	return t
}

// CanonicalMIME is canonicalMIME for other packages: lower case, no parameters, aliases folded.
func CanonicalMIME(t string) string { return canonicalMIME(t) }
