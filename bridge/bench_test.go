package bridge_test

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
)

func benchNormalize(b *testing.B, in []byte) {
	p := bridge.DefaultPolicy()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := bridge.NormalizeJSON(in, p); err != nil {
			b.Fatal(err)
		}
	}
}

func jsonString(s string) string { return mustJSON(s) }

func BenchmarkNormalizeText1KB(b *testing.B) {
	benchNormalize(b, []byte(`{"type":"text","text":`+jsonString(strings.Repeat("lorem ipsum ", 85))+`}`))
}

func BenchmarkNormalizePNG100KB(b *testing.B) {
	png := fixtures.PNG(160, 160, true) // ~100 KB, incompressible
	benchNormalize(b,
		[]byte(`{"type":"image","data":"`+base64.StdEncoding.EncodeToString(png)+`","mimeType":"image/png"}`))
}

func BenchmarkNormalizePNG5MB(b *testing.B) {
	png := fixtures.PNG(1140, 1140, true) // ~5 MB
	p := bridge.DefaultPolicy()
	p.MaxImageBytes = 6 << 20
	in := []byte(`{"type":"image","data":"` + base64.StdEncoding.EncodeToString(png) + `"}`)
	b.SetBytes(int64(len(png)))
	b.ReportAllocs()
	for b.Loop() {
		r, vs, err := bridge.NormalizeJSON(in, p)
		if err != nil || len(vs) > 0 || r.Content[0].ContentType() != "image" {
			b.Fatal(err, vs)
		}
	}
}

func BenchmarkNormalizeHTML10KB(b *testing.B) {
	benchNormalize(b, []byte(`{"type":"html","html":`+jsonString(fixtures.Article(10<<10))+`}`))
}

func BenchmarkNormalizeHTML500KB(b *testing.B) {
	benchNormalize(b, []byte(`{"type":"html","html":`+jsonString(fixtures.Article(500<<10))+`}`))
}

// BenchmarkNormalizeLinkTable500KB is a link- and table-heavy result: a URL check and a link
// mark per href.
func BenchmarkNormalizeLinkTable500KB(b *testing.B) {
	benchNormalize(b, []byte(`{"type":"html","html":`+jsonString(fixtures.LinkTable(500<<10))+`}`))
}

// BenchmarkBluemondayUGC10KB and BenchmarkBluemondayUGC500KB are the floor the mission sets for
// the two above: bluemonday's UGCPolicy alone on the same markup (make bench's native ratio).
func BenchmarkBluemondayUGC10KB(b *testing.B) { benchUGC(b, fixtures.Article(10<<10)) }

func BenchmarkBluemondayUGC500KB(b *testing.B) { benchUGC(b, fixtures.Article(500<<10)) }

func benchUGC(b *testing.B, doc string) {
	p := bluemonday.UGCPolicy()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		p.Sanitize(doc)
	}
}

func BenchmarkResultMarshal(b *testing.B) {
	r, _, _ := bridge.NormalizeJSON([]byte(`{"type":"html","html":`+jsonString(fixtures.Article(10<<10))+`}`),
		bridge.DefaultPolicy())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

// wideObject is a JSON object of at least size bytes made of many small members, each a small
// object: data, not blocks.
func wideObject(size int) []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		n := strconv.Itoa(i)
		b.WriteString(`"k` + n + `":{"id":` + n + `,"ok":true,"v":"x` + n + `"}`)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// BenchmarkNormalizeWideObject15MiB is the large-result path the module runs for data: decode,
// normalize and write the result of a 15 MiB object with about 300,000 small members.
func BenchmarkNormalizeWideObject15MiB(b *testing.B) {
	in := wideObject(15 << 20)
	p := bridge.DefaultPolicy()
	p.MaxResultBytes = 0
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r, _, err := bridge.NormalizeJSON(in, p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
