package inputschema_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// costlyShape is arguments of one shape that costs the most to read and check per byte, and a
// schema that visits every value of it.
type costlyShape struct {
	name, schema string
	args         func(size int) string // arguments of about size bytes
}

// costlyShapes are the worst cases for one validation per byte of arguments (issue 27, point
// 3): many small numbers, many small nested arrays, many keys, and long strings of escapes or
// of characters beyond ASCII.
var costlyShapes = []costlyShape{
	{"numbers", `{"properties":{"v":{"type":"array","items":{"type":"integer","minimum":0}}}}`,
		func(size int) string { return `{"v":[` + repeatJoined("1", ",", size) + `]}` }},
	{"arrays", `{"properties":{"v":{"type":"array","items":{"type":"array","maxItems":1}}}}`,
		func(size int) string { return `{"v":[` + repeatJoined("[[]]", ",", size) + `]}` }},
	{"keys", `{"properties":{"v":{"type":"object","minProperties":1}}}`,
		func(size int) string {
			var b strings.Builder
			b.WriteString(`{"v":{`)
			for i := 0; b.Len() < size; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`"` + strconv.Itoa(i) + `":0`)
			}
			return b.String() + `}}`
		}},
	{"escapes", `{"properties":{"v":{"type":"string","maxLength":10000000}}}`,
		func(size int) string { return `{"v":"` + strings.Repeat(`\u00e9\n`, size/8) + `"}` }},
	{"unicode", `{"properties":{"v":{"type":"string","maxLength":10000000}}}`,
		func(size int) string { return `{"v":"` + strings.Repeat("é", size/2) + `"}` }},
}

// repeatJoined is item repeated, joined by sep, to about size bytes.
func repeatJoined(item, sep string, size int) string {
	n := max(size/(len(item)+len(sep)), 1)
	return strings.Repeat(item+sep, n-1) + item
}

// BenchmarkValidateCostlyShapes times one validation of 1 MiB of each costly shape with no
// bound on the values (unbounded/…), so that the per-MiB cost of each shape is seen, and the
// most a validation costs within the default maxArgumentBytes and maxArgumentValues (bounded/…:
// arguments of the shape at maxArgumentBytes, read until the value bound refuses them). Under
// js/wasm (go test -exec go_js_wasm_exec) it is what the module pays; these figures chose the
// defaults (docs/policy.md).
func BenchmarkValidateCostlyShapes(b *testing.B) {
	p := bridge.DefaultPolicy()
	for _, bounded := range []bool{false, true} {
		for _, c := range costlyShapes {
			name := "unbounded/" + c.name
			size, maxBytes, maxValues := 1<<20, 0, 0
			if bounded {
				name = "bounded/" + c.name
				size, maxBytes, maxValues = p.MaxArgumentBytes, p.MaxArgumentBytes, p.MaxArgumentValues
			}
			b.Run(name, func(b *testing.B) {
				s, err := inputschema.CompileJSON([]byte(c.schema))
				if err != nil {
					b.Fatal(err)
				}
				args := []byte(c.args(size - 16))
				b.SetBytes(int64(len(args)))
				b.ReportAllocs()
				for b.Loop() {
					if err := s.ValidateJSONWithin(args, maxBytes, maxValues); err != nil && !bounded {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
