package inputschema_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// The differential test: for schemas within the subset, Validate accepts exactly the
// arguments santhosh-tekuri/jsonschema (draft 2020-12) accepts.
//
// Deliberate differences, kept out of the corpus:
//   - null or missing arguments count as {} (executeTool passes {} when there is no input);
//     the reference validates {} in their place here.
//   - pattern is ECMA-262: ., \s and \S keep their ECMAScript (Unicode) meaning, where the
//     reference runs the pattern as RE2. Generated strings avoid the characters on which the
//     two differ (\r, U+2028, U+2029 and the non-ASCII spaces); pattern_test.go covers them.
//   - annotation values are not checked (the reference refuses "title": 1 via its meta-schema).
//   - additionalProperties other than false is refused at compile time, as WebMCP's
//     conformance tests expect, and so is every keyword outside the table (the reference
//     ignores unknown keywords).

// handCorpus is tool-like schemas within the subset, each with hand-written arguments.
var handCorpus = []struct {
	schema string
	args   []string
}{
	{`{"type":"object","title":"search","properties":{"query":{"type":"string","minLength":1,"maxLength":20,` +
		`"description":"words"},"limit":{"type":"integer","minimum":1,"maximum":50,"default":10},` +
		`"sort":{"enum":["relevance","date"]}},"required":["query"],"additionalProperties":false}`,
		[]string{`{"query":"go"}`, `{"query":""}`, `{"query":"go","limit":0}`, `{"query":"go","limit":50.0}`,
			`{"query":"go","sort":"size"}`, `{"query":"go","x":1}`, `{}`, `{"query":"go","limit":"5"}`}},
	{`{"type":"object","properties":{"lat":{"type":"number","minimum":-90,"maximum":90},"lng":{"type":"number",` +
		`"exclusiveMinimum":-180,"exclusiveMaximum":180}},"required":["lat","lng"]}`,
		[]string{`{"lat":0,"lng":0}`, `{"lat":-90,"lng":180}`, `{"lat":90.0001,"lng":1}`, `{"lat":1,"lng":-179.999}`,
			`{"lat":1}`}},
	{`{"type":"object","properties":{"amount":{"type":"number","multipleOf":0.01,"exclusiveMinimum":0},` +
		`"currency":{"type":"string","pattern":"^[A-Z]{3}$"}}}`,
		[]string{`{"amount":19.99}`, `{"amount":0.07,"currency":"EUR"}`, `{"amount":0.001}`, `{"amount":0}`,
			`{"amount":1e2,"currency":"eur"}`, `{"amount":1234567.89}`}},
	{`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","minLength":1},"uniqueItems":true,` +
		`"minItems":1,"maxItems":3}}}`,
		[]string{`{"tags":["a"]}`, `{"tags":[]}`, `{"tags":["a","a"]}`, `{"tags":["a",""]}`, `{"tags":["a","b","c","d"]}`,
			`{"tags":"a"}`}},
	{`{"type":"object","properties":{"point":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],` +
		`"items":false,"minItems":2}}}`,
		[]string{`{"point":[1,2]}`, `{"point":[1]}`, `{"point":[1,2,3]}`, `{"point":["1",2]}`}},
	{`{"type":"object","properties":{"list":{"type":"array","contains":{"const":"admin"},"maxContains":1}}}`,
		[]string{`{"list":["admin","x"]}`, `{"list":[]}`, `{"list":["admin","admin"]}`, `{"list":["x"]}`}},
	{`{"type":"object","properties":{"shape":{"oneOf":[{"type":"object","properties":{"kind":{"const":"circle"},` +
		`"r":{"type":"number"}},"required":["kind","r"],"additionalProperties":false},{"type":"object",` +
		`"properties":{"kind":{"const":"square"},"side":{"type":"number"}},"required":["kind","side"],` +
		`"additionalProperties":false}]}}}`,
		[]string{`{"shape":{"kind":"circle","r":1}}`, `{"shape":{"kind":"square","side":2}}`,
			`{"shape":{"kind":"circle","side":2}}`, `{"shape":{}}`}},
	{`{"type":"object","properties":{"note":{"anyOf":[{"type":"string"},{"type":"null"}]},"name":{"type":"string",` +
		`"not":{"enum":["root","admin"]}}}}`,
		[]string{`{"note":null}`, `{"note":"x"}`, `{"note":1}`, `{"name":"root"}`, `{"name":"bob"}`}},
	{`{"type":"object","properties":{"a":{"type":"integer","minimum":0},"b":true,"c":true,"d":true},` +
		`"additionalProperties":false,"minProperties":1,"maxProperties":3}`,
		[]string{`{"a":1}`, `{}`, `{"a":-1}`, `{"a":1,"b":2,"c":3,"d":4}`, `{"a":1.5}`, `{"e":1}`}},
	{`{"allOf":[{"type":"object","required":["a"]},{"properties":{"a":{"type":"integer","multipleOf":3}}}]}`,
		[]string{`{"a":3}`, `{"a":4}`, `{"b":3}`, `{"a":-9e3}`}},
	{`{"const":{"a":[1,{"b":null}]}}`, []string{`{"a":[1,{"b":null}]}`, `{"a":[1.0,{"b":null}]}`, `{"a":[1,{}]}`}},
	{`{"properties":{"n":{"maximum":9007199254740992,"multipleOf":2}}}`,
		[]string{`{"n":9007199254740992}`, `{"n":9007199254740993}`, `{"n":9007199254740994}`, `{"n":4e15}`}},
	{`{"properties":{"s":{"minLength":2,` +
		`"maxLength":3}}}`, []string{`{"s":"é😀"}`, `{"s":"😀"}`, `{"s":"中文字典"}`}},
	{`{"properties":{"a":true,"b":false}}`, []string{`{"a":1}`, `{"b":1}`, `{}`}},
	{`{"type":"object","properties":{"lines":{"type":"array","items":{"type":"object",` +
		`"properties":{"id":{"type":"integer"},"qty":{"type":"integer","minimum":1}},"required":["id"]}}}}`,
		[]string{`{"lines":[{"id":1,"qty":2}]}`, `{"lines":[{"id":1,"qty":0}]}`, `{"lines":[{"qty":1}]}`, `{"lines":[]}`}},
	{`{"properties":{"v":{"enum":[1,"1",null,[1],{"a":1}]}}}`,
		[]string{`{"v":1.0}`, `{"v":"1"}`, `{"v":null}`, `{"v":[1]}`, `{"v":{"a":1}}`, `{"v":2}`, `{"v":{"a":1,"b":2}}`}},
	{`{"properties":{"v":{"type":["integer","string"],"minimum":2,"minLength":2}}}`,
		[]string{`{"v":2}`, `{"v":1}`, `{"v":"ab"}`, `{"v":"a"}`, `{"v":2.5}`}},
	{`{"properties":{"v":{"minContains":2}}}`, []string{`{"v":[]}`}},
	{`{"properties":{"v":{"contains":false,"minContains":0}}}`, []string{`{"v":[]}`, `{"v":[1]}`}},
	{`{"properties":{"p":{"pattern":"^.{2}$"},"q":{"pattern":"\\d"},"r":{"pattern":"^\\w+\\s\\S$"}}}`,
		[]string{`{"p":"ab"}`, `{"p":"😀é"}`, `{"p":"a\n"}`, `{"q":"a1"}`, `{"q":"a"}`, `{"r":"ab c"}`, `{"r":"é c"}`}},
	{`{"properties":{"a/b":{"type":"integer"},"~x":{"type":"string"}},"required":["a/b"]}`,
		[]string{`{"a/b":1,"~x":"y"}`, `{"~x":"y"}`, `{"a/b":1,"~x":1}`}},
	{`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/tool","$comment":"c",` +
		`"examples":[{}],"deprecated":false,"readOnly":false,"writeOnly":false,"type":"object"}`,
		[]string{`{}`, `[]`}},
	{`{"properties":{"big":{"minimum":1e400},"tiny":{"exclusiveMaximum":1e-400,"exclusiveMinimum":-1e-400}}}`,
		[]string{`{"big":1e401}`, `{"big":1e399}`, `{"tiny":0}`, `{"tiny":1e-401}`, `{"tiny":1e-399}`}},
	{`{"not":{"type":"object"}}`, []string{`{}`, `1`, `"x"`}},
	{`true`, []string{`{}`, `[1]`}},
	{`false`, []string{`{}`}},
}

const maxMismatchReport = 20

// generatedSchemas is how many schemas the differential test generates at full size.
const generatedSchemas = 600

// corpusSize is how many schemas to generate and how many arguments to draw for each.
func corpusSize() (schemas, args int) {
	if testing.Short() {
		return 100, 50
	}
	return generatedSchemas, 150
}

func TestDifferentialAgainstJSONSchemaV6(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	nSchemas, argsPerSchema := corpusSize()
	type entry struct {
		schema string
		args   []string
	}
	var corpus []entry
	for _, h := range handCorpus {
		corpus = append(corpus, entry{h.schema, h.args})
	}
	for _, s := range genSchemas(t, rng, nSchemas) {
		corpus = append(corpus, entry{schema: s})
	}
	var checked, accepted, mismatches int
	for _, e := range corpus {
		ours, err := inputschema.CompileJSON([]byte(e.schema))
		require.NoError(t, err, e.schema)
		ref, err := compileReference(e.schema)
		require.NoError(t, err, e.schema)
		args := e.args
		for range argsPerSchema {
			args = append(args, mustJSON(t, genValue(rng, 0, true)))
		}
		for _, a := range args {
			got, want := ours.ValidateJSON([]byte(a)), validateReference(t, ref, a)
			checked++
			if want == nil {
				accepted++
			}
			if (got == nil) != (want == nil) {
				if mismatches++; mismatches <= maxMismatchReport {
					t.Errorf("schema %s\nargs   %s\nours:      %v\nreference: %v", e.schema, a, got, want)
				}
			}
		}
	}
	t.Logf("%d schemas (%d hand-written), %d arguments checked, %d accepted, %d refused, %d mismatches",
		len(corpus), len(handCorpus), checked, accepted, checked-accepted, mismatches)
	require.Greater(t, accepted, checked/10, "the corpus should accept a fair share")
	require.Greater(t, checked-accepted, checked/10, "the corpus should refuse a fair share")
}

// TestDifferentialCompile: keyword values the 2020-12 meta-schema refuses are refused here
// too, and the values it allows compile (for the keywords the subset has).
func TestDifferentialCompile(t *testing.T) {
	for _, tt := range keywordCases {
		if tt.schema == `"object"` || strings.Contains(tt.err, "excluded from") ||
			strings.Contains(tt.err, "refused rather than ignored") || strings.Contains(tt.err,
			"additionalItems") || strings.Contains(tt.err, "only additionalProperties") ||
			strings.Contains(tt.schema, `"title":1`) || strings.Contains(tt.err, "repetition product") {
			continue // outside the subset, an annotation value (see above), or a pattern too costly to run
		}
		_, ours := inputschema.CompileJSON([]byte(tt.schema))
		_, ref := compileReference(tt.schema)
		require.Equal(t, ours == nil, ref == nil, "%s\nours:      %v\nreference: %v", tt.schema, ours, ref)
	}
}

func compileReference(schema string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("file:///schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("file:///schema.json")
}

func validateReference(t *testing.T, s *jsonschema.Schema, args string) error {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	require.NoError(t, err, args)
	if v == nil {
		v = map[string]any{} // null arguments count as {} (see above)
	}
	return s.Validate(v)
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// The generators draw from small pools, so that generated schemas and arguments meet: the
// same member names, numbers on both sides of the usual limits, strings of a few characters.
var (
	genNames   = []string{"a", "b", "c", "a/b"}
	genNumbers = []json.Number{"0", "-0", "1", "-1", "2", "3", "5", "10", "100", "0.5", "1.5", "-2.5", "0.1", "0.3",
		"0.07", "19.99", "1e2", "1.0", "2.0", "3.14", "1e-7", "9007199254740992", "9007199254740993", "1e400"}
	genMultiples = []json.Number{"0.5", "2", "3", "0.1", "0.01", "1.5", "7", "1e-2", "2.0"}
	// genRunes leaves out \r, U+2028, U+2029 and the non-ASCII spaces (see above).
	genRunes = []string{
		"a", "b", "c", "z", "A", "0", "1", "9", "-", "_", " ", "\t", "\n", ".", "/", "é", "中", "😀",
	}
	genPatterns = []string{
		`^[a-z]*$`, `b`, `^.{2}$`, `\d`, `^\w+$`, `\s`, `é`, `^[^a]*$`, `^(a|bc)+$`, `^\S+$`, `[😀-😂]`, `^$`,
	}
	genTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}
)

// genValue is a random JSON value; at the top it is an object more often than not.
func genValue(r *rand.Rand, depth int, top bool) any {
	k := r.IntN(8)
	if top && r.IntN(4) > 0 {
		k = 7
	}
	if depth >= 3 && k >= 6 {
		k = r.IntN(6)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2, 3:
		return genNumbers[r.IntN(len(genNumbers))]
	case 4, 5:
		var b strings.Builder
		for range r.IntN(5) {
			b.WriteString(genRunes[r.IntN(len(genRunes))])
		}
		return b.String()
	case 6:
		list := []any{}
		for range r.IntN(5) {
			list = append(list, genValue(r, depth+1, false))
		}
		if r.IntN(4) == 0 && len(list) > 0 {
			list = append(list, respell(list[0])) // a duplicate, for uniqueItems
		}
		return list
	}
	m := map[string]any{}
	for range r.IntN(4) {
		m[genNames[r.IntN(len(genNames))]] = genValue(r, depth+1, false)
	}
	return m
}

// respell is v with its numbers written another way: 1 as 1e0, so 1.0 equal to 1.
func respell(v any) any {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(x), "eE") {
			return x + "e0"
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = respell(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = respell(e)
		}
		return out
	}
	return v
}

// genSchemas is n random schemas as JSON text, the first n of the corpus file's (corpus_test.go).
func genSchemas(t *testing.T, rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = mustJSON(t, genSchema(rng, 0))
	}
	return out
}

// genSchema is a random schema within the subset: one to three keywords with values the
// meta-schema allows, subschemas to depth 3.
func genSchema(r *rand.Rand, depth int) any {
	if depth > 0 && r.IntN(8) == 0 {
		return r.IntN(3) > 0
	}
	s := map[string]any{}
	for range 1 + r.IntN(3) {
		k, v := keywordGens[r.IntN(len(keywordGens))](schemaGen{r, depth})
		s[k] = v
	}
	if r.IntN(6) == 0 {
		s["description"] = "generated"
	}
	return s
}

// schemaGen draws keyword values at a depth.
type schemaGen struct {
	r     *rand.Rand
	depth int
}

func pick[T any](g schemaGen, list []T) T { return list[g.r.IntN(len(list))] }

func (g schemaGen) count() any { return g.r.IntN(4) }

func (g schemaGen) sub() any {
	if g.depth >= 3 {
		return g.r.IntN(2) == 0
	}
	return genSchema(g.r, g.depth+1)
}

func (g schemaGen) subs() any {
	list := []any{}
	for range 1 + g.r.IntN(3) {
		list = append(list, g.sub())
	}
	return list
}

func (g schemaGen) some(n int, value func() any) []any {
	list := []any{}
	for range g.r.IntN(n + 1) {
		list = append(list, value())
	}
	return list
}

// keywordGens draw one enforced keyword each, with a value the meta-schema allows. (Filled
// by init: they call genSchema, which calls them.)
var keywordGens []func(g schemaGen) (string, any)

func init() {
	keywordGens = []func(g schemaGen) (string, any){
		func(g schemaGen) (string, any) { return "type", pick(g, genTypes) },
		func(g schemaGen) (string, any) {
			a, b := pick(g, genTypes), pick(g, genTypes)
			if a == b {
				return "type", []any{a}
			}
			return "type", []any{a, b}
		},
		func(g schemaGen) (string, any) { return "const", genValue(g.r, 1, false) },
		func(g schemaGen) (string, any) {
			return "enum", g.some(3, func() any { return genValue(g.r, 2, false) })
		},
		func(g schemaGen) (string, any) { return pick(g, []string{"minLength", "maxLength"}), g.count() },
		func(g schemaGen) (string, any) { return "pattern", pick(g, genPatterns) },
		func(g schemaGen) (string, any) {
			return pick(g, []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}), pick(g, genNumbers)
		},
		func(g schemaGen) (string, any) { return "multipleOf", pick(g, genMultiples) },
		func(g schemaGen) (string, any) { return pick(g, []string{"minItems", "maxItems"}), g.count() },
		func(g schemaGen) (string, any) { return "uniqueItems", g.r.IntN(3) > 0 },
		func(g schemaGen) (string, any) { return "prefixItems", g.subs() },
		func(g schemaGen) (string, any) { return "items", g.sub() },
		func(g schemaGen) (string, any) { return "contains", g.sub() },
		func(g schemaGen) (string, any) { return pick(g, []string{"minContains", "maxContains"}), g.count() },
		func(g schemaGen) (string, any) {
			var names []any
			for _, n := range genNames {
				if g.r.IntN(3) == 0 {
					names = append(names, n)
				}
			}
			return "required", append([]any{}, names...)
		},
		func(g schemaGen) (string, any) { return pick(g, []string{"minProperties", "maxProperties"}), g.count() },
		func(g schemaGen) (string, any) {
			props := map[string]any{}
			for range 1 + g.r.IntN(3) {
				props[pick(g, genNames)] = g.sub()
			}
			return "properties", props
		},
		func(g schemaGen) (string, any) { return "additionalProperties", false },
		func(g schemaGen) (string, any) { return pick(g, []string{"allOf", "anyOf", "oneOf"}), g.subs() },
		func(g schemaGen) (string, any) { return "not", g.sub() },
		func(g schemaGen) (string, any) { return "type", "object" },
	}
}
