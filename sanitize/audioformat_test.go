package sanitize_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

var audioLimits = sanitize.AudioLimits{
	Types: []string{"audio/wav", "audio/mpeg", "audio/ogg", "audio/flac", "audio/webm", "audio/mp4", "audio/aac"},
}

// wellFormedAudio are complete clips of every container with a structure check: WAV, ADTS and
// MP4 built here, the rest from testdata/audio (see its README).
func wellFormedAudio(t testing.TB) []imageCase {
	return []imageCase{
		{"wav", fixtures.WAV(64)},
		{"mp3", readAudio(t, "tone.mp3")},
		{"mp3 after an ID3v2 tag", readAudio(t, "tone-id3.mp3")},
		{"aac (adts)", adts(3)},
		{"ogg (opus)", readAudio(t, "tone.opus")},
		{"flac", readAudio(t, "tone.flac")},
		{"mp4", []byte(mp4Box("ftyp", "M4A \x00\x00\x00\x00M4A isom") +
			mp4Box("moov", mp4Box("mvhd", strings.Repeat("\x00", 100))) + mp4Box("mdat", "data"))},
	}
}

// brokenAudio are clips damaged in one way each, and a few odd but whole ones.
func brokenAudio(t testing.TB) []imageCase {
	wav := fixtures.WAV(64)
	mp3, id3 := readAudio(t, "tone.mp3"), readAudio(t, "tone-id3.mp3")
	opus, flac := readAudio(t, "tone.opus"), readAudio(t, "tone.flac")
	ftyp, moov := mp4Box("ftyp", "M4A \x00\x00\x00\x00M4A isom"), mp4Box("moov", "")
	return []imageCase{
		{"wav, cut", wav[:len(wav)-10]},
		{"wav, streamed (RIFF size unknown)", setUint32LE(wav, 4, 0xffffffff)},
		{"wav, no data chunk", setUint32LE(wav[:36], 4, 28)},
		{"wav, data and no fmt chunk", joinWAV(riffChunk{"data", []byte("xx")})},
		{"wav, data before fmt", joinWAV(riffChunk{"data", []byte("xx")}, riffChunk{"fmt ", wav[20:36]})},
		{"wav, no channels", setUint16LE(wav, 22, 0)},
		{"wav, data chunk over the RIFF", setUint32LE(wav, 40, 1000)},
		{"wav, trailing bytes", append(bytes.Clone(wav), "trailing"...)},
		{"mp3, last frame cut", mp3[:len(mp3)-5]},
		{"mp3, ID3 tag cut", id3[:50]},
		{"mp3, ID3 tag only", id3[:10+int(id3[9])]},
		{"mp3, ID3 tag then text", append(id3[:10+int(id3[9]):10+int(id3[9])], "not audio"...)},
		{"mp3, ID3 tag then ADTS", append(id3[:10+int(id3[9]):10+int(id3[9])], adts(1)...)},
		{"mp3, ID3 tag with a bad size", setUint32BE(id3, 6, 0x00008000)},
		{"mp3, ID3 padding then frames", append(append(id3[:10+int(id3[9]):10+int(id3[9])], 0, 0, 0), mp3...)},
		{"mp3, frame header cut", append(bytes.Clone(mp3), 0xff, 0xe3, 0x18)},
		{"mp3, ID3v1 tag at the end", append(bytes.Clone(mp3), "TAG"+strings.Repeat("\x00", 125)...)},
		{"aac, frame cut", adts(2)[:16]},
		{"aac, frame header cut", adts(2)[:13]},
		{"aac, ID3v1 tag at the end", append(adts(2), "TAG"+strings.Repeat("\x00", 125)...)},
		{"aac, bad sampling rate", setByte(adts(1), 2, 0x7c)},
		{"aac, frame shorter than its header", setByte(adts(1), 4, 0)},
		{"ogg, last page cut", opus[:len(opus)-5]},
		{"ogg, page header cut", opus[:47+20]},
		{"ogg, first page does not begin a stream", setByte(opus, 5, 0)},
		{"ogg, second page version 1", setByte(opus, 47+4, 1)},
		{"ogg, trailing bytes after the end of the stream", append(bytes.Clone(opus), "trailing"...)},
		{"ogg, trailing bytes mid-stream", append(bytes.Clone(opus[:841]), "trailing"...)},
		{"flac, metadata cut", flac[:30]},
		{"flac, no frames", flac[:flacFrames(flac)]},
		{"flac, not STREAMINFO first", setByte(flac, 4, 0x84)},
		{"flac, no frame sync", append(flac[:flacFrames(flac):flacFrames(flac)], "xx"...)},
		{"flac, frame sync only", flac[:flacFrames(flac)+2]},
		{"mp4, no moov", []byte(ftyp + mp4Box("mdat", "data"))},
		{"mp4, no mdat", []byte(ftyp + moov)},
		{"mp4, mdat cut", []byte((ftyp + moov + mp4Box("mdat", "data"))[:len(ftyp+moov)+10])},
		{"mp4, box header cut", []byte(ftyp + moov + "\x00\x00")},
		{"mp4, box size 4", []byte(ftyp + moov + "\x00\x00\x00\x04mdat")},
		{"mp4, mdat to the end (size 0)", []byte(ftyp + moov + "\x00\x00\x00\x00mdatdata")},
		{"mp4, 64-bit mdat size", []byte(ftyp + moov + "\x00\x00\x00\x01mdat\x00\x00\x00\x00\x00\x00\x00\x14data")},
		{"mp4, 64-bit size over the data", []byte(ftyp + moov + "\x00\x00\x00\x01mdat\x00\x00\x00\x01\x00\x00\x00\x14data")},
		{"webm, signature only", []byte("\x1a\x45\xdf\xa3")},
	}
}

// TestCheckAudioStructure compares what CheckAudio says of every clip with
// testdata/checkaudio.golden (-update rewrites it).
func TestCheckAudioStructure(t *testing.T) {
	for _, c := range wellFormedAudio(t) {
		typ, err := sanitize.CheckAudio(c.data, "", audioLimits)
		require.NoError(t, err, c.name)
		assert.Equal(t, sanitize.SniffAudio(c.data), typ)
	}
	var b strings.Builder
	for _, c := range append(wellFormedAudio(t), brokenAudio(t)...) {
		typ, err := sanitize.CheckAudio(c.data, "", audioLimits)
		if err != nil {
			var le *sanitize.LimitError
			require.ErrorAs(t, err, &le, c.name)
			fmt.Fprintf(&b, "%s: refused (%s): %s\n", c.name, le.Limit, le.Reason)
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", c.name, typ)
	}
	golden := filepath.Join("testdata", "checkaudio.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
}

func readAudio(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "audio", name))
	require.NoError(t, err)
	return b
}

// adts is n ADTS AAC frames (AAC LC, 44.1 kHz, stereo, no CRC) of 9 bytes each: a header and two
// bytes of payload.
func adts(n int) []byte {
	const size = 9 // 13 bits: two in byte 3, eight in byte 4, three in byte 5
	frame := []byte{0xff, 0xf1, 0x50, 0x80 | size>>11, size >> 3 & 0xff, size&7<<5 | 0x1f, 0xfc, 0x21, 0x00}
	return bytes.Repeat(frame, n)
}

// mp4Box is an ISO BMFF box of type typ holding body.
func mp4Box(typ, body string) string {
	return string(binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))) + typ + body
}

// joinWAV writes a RIFF WAVE file of chunks.
func joinWAV(chunks ...riffChunk) []byte {
	b := joinRIFF(chunks)
	copy(b[8:], "WAVE")
	return b
}

// flacFrames is the offset of the first audio frame of a well-formed FLAC file.
func flacFrames(b []byte) int {
	p := 4
	for {
		last := b[p]&0x80 != 0
		p += 4 + (int(b[p+1])<<16 | int(b[p+2])<<8 | int(b[p+3]))
		if last {
			return p
		}
	}
}

func setUint16LE(b []byte, at int, v uint16) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint16(b[at:], v)
	return b
}

func setByte(b []byte, at int, v byte) []byte {
	b = bytes.Clone(b)
	b[at] = v
	return b
}
