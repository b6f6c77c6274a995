//go:build !js

package schemacheck_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// runner reads a JSON array of schema texts on stdin and writes, for each, the text the page
// sends the module (JSON.stringify of the parsed value) and checkSchema's answer, with the
// pattern checker (the chunk a page fetches for its first pattern).
const runner = `
import { checkSchema } from "./schema-check.ts";
import { patternProblem } from "./patterns.ts";
const chunks = [];
process.stdin.setEncoding("utf8");
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const out = JSON.parse(chunks.join("")).map((text) => {
    const v = JSON.parse(text);
    return { sent: JSON.stringify(v), got: checkSchema(v, patternProblem) };
  });
  process.stdout.write(JSON.stringify(out));
});
`

type pageAnswer struct {
	Sent string `json:"sent"`
	Got  *struct {
		Path    string `json:"path"`
		Rule    string `json:"rule"`
		Message string `json:"message"`
	} `json:"got"`
}

// TestPageAgreesWithCompile: for every schema of the corpus, checkSchema (the page) and
// inputschema.Compile (the module, given the JSON text the page sends) give the same answer:
// both accept, or both refuse at the same path by the same rule of the table, with the same
// values in its message — the page in the table's words, Go in its own (RE2's error, Go's
// quoting).
func TestPageAgreesWithCompile(t *testing.T) {
	node, err := npmcache.Node()
	if err != nil {
		t.Fatal(err)
	}
	script := bundle(t)
	corpus := corpus(t)
	in, err := json.Marshal(corpus)
	require.NoError(t, err)
	cmd := exec.Command(node, script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var answers []pageAnswer
	require.NoError(t, json.Unmarshal(out, &answers))
	require.Len(t, answers, len(corpus))

	agree, refused, changed := 0, 0, 0
	for i, a := range answers {
		_, goErr := inputschema.CompileJSON([]byte(a.Sent))
		if a.Sent != corpus[i] {
			if _, fromText := inputschema.CompileJSON([]byte(corpus[i])); fmt.Sprint(fromText) != fmt.Sprint(goErr) {
				changed++ // JSON.parse changed the schema: 1e400 is Infinity, sent as null
			}
		}
		want := "accepted"
		if goErr != nil {
			refused++
			var se *inputschema.SchemaError
			require.ErrorAs(t, goErr, &se)
			rule, args := rules.of(se.Reason, false)
			want = fmt.Sprintf("%s | %s %q", se.Path, rule, args)
		}
		got := "accepted"
		if a.Got != nil {
			prefix := "registerTool: inputSchema" + a.Got.Path + ": "
			reason, ok := strings.CutPrefix(a.Got.Message, prefix)
			rule, args := rules.of(reason, true)
			if !ok || rule != a.Got.Rule {
				rule = fmt.Sprintf("%s (message %q, not the rule's)", a.Got.Rule, a.Got.Message)
			}
			got = fmt.Sprintf("%s | %s %q", a.Got.Path, rule, args)
		}
		if got == want {
			agree++
			continue
		}
		t.Errorf("schema %s\nGo:   %s\npage: %s", a.Sent, want, got)
	}
	t.Logf(
		"%d of %d schemas answered alike (%d refused, %d accepted; for %d, JSON.parse changed the answer, "+
			"e.g. 1e400 is sent as null)",
		agree,
		len(corpus),
		refused,
		len(corpus)-refused,
		changed,
	)
	require.Greater(t, refused, len(corpus)/4, "the corpus should refuse a fair share")
	require.Greater(t, len(corpus)-refused, len(corpus)/10, "the corpus should accept a fair share")
}

// ruleTable reads a reason back into its rule of the table and the values it names: Go's reasons
// (inputschema.Messages, quoted by strconv.Quote) and the page's (the same formats, quoted as
// JSON), the reasons of excluded and refused keywords, and the reason of a schema too deep.
type ruleTable struct {
	formats map[string]*regexp.Regexp // rule → its format as a pattern, a group per value
	fixed   map[string]string         // reason → rule, for the rules without values
}

var rules = func() ruleTable {
	t := ruleTable{formats: map[string]*regexp.Regexp{}, fixed: map[string]string{}}
	for name, format := range inputschema.Messages() {
		pattern := regexp.QuoteMeta(format)
		for verb, group := range map[string]string{"%q": `("(?:[^"\\]|\\.)*")`, "%s": `(.*)`, "%d": `(\d+)`} {
			pattern = strings.ReplaceAll(pattern, verb, group)
		}
		if name == "patternWrong" {
			pattern += `(?:: .*)?` // Go adds RE2's own error
		}
		t.formats[name] = regexp.MustCompile("^" + pattern + "$")
	}
	for _, k := range inputschema.Keywords() {
		if k.Reason != "" {
			t.fixed[k.Reason] = k.Kind
		}
	}
	t.fixed[(&jsonvalue.DepthError{Limit: jsonvalue.MaxDepth}).Error()] = "tooDeep"
	return t
}()

// of is the rule of reason and its values, unquoted (as JSON when page, else as Go quotes).
func (t ruleTable) of(reason string, page bool) (string, []string) {
	if rule, ok := t.fixed[reason]; ok {
		return rule, nil
	}
	for name, re := range t.formats {
		m := re.FindStringSubmatch(reason)
		if m == nil {
			continue
		}
		values := m[1:]
		for i, v := range values {
			if strings.HasPrefix(v, `"`) {
				var u string
				var err error
				if page {
					err = json.Unmarshal([]byte(v), &u)
				} else {
					u, err = strconv.Unquote(v)
				}
				if err == nil {
					values[i] = u
				}
			}
		}
		return name, values
	}
	return "no rule: " + reason, nil
}

// bundle builds the runner with web/src/schema-check.ts into one script for node.
func bundle(t *testing.T) string {
	src := checkout.Path("web", "src")
	r := api.Build(api.BuildOptions{
		Stdin:    &api.StdinOptions{Contents: runner, ResolveDir: src, Sourcefile: "runner.js", Loader: api.LoaderJS},
		Bundle:   true,
		Format:   api.FormatESModule,
		Platform: api.PlatformNode,
		Target:   api.ES2020,
		Write:    false,
		LogLevel: api.LogLevelSilent,
	})
	for _, m := range r.Errors {
		t.Errorf("esbuild: %s", m.Text)
	}
	require.Empty(t, r.Errors)
	require.Len(t, r.OutputFiles, 1)
	script := filepath.Join(t.TempDir(), "check.mjs")
	require.NoError(t, os.WriteFile(script, r.OutputFiles[0].Contents, 0o644))
	return script
}

// corpus is every schema the test asks both sides about, as JSON text.
func corpus(t *testing.T) []string {
	var fromFile []string
	f, err := os.Open(checkout.Path("bridge", "inputschema", "testdata", "corpus.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		fromFile = append(fromFile, lines.Text())
	}
	require.NoError(t, lines.Err())
	require.Greater(t, len(fromFile), 600, "the differential test's corpus")
	var patternSchemas []string
	for _, p := range patterns {
		patternSchemas = append(patternSchemas, `{"pattern":`+quote(p)+`}`)
	}
	parts := []struct {
		name    string
		schemas []string
	}{
		{"bridge/inputschema/testdata/corpus.jsonl", fromFile},
		{"WPT register_tool_invalid_subset_schema", wptInvalidSubset},
		{"keyword × value", keywordSchemas()},
		{"hand-written", handCases},
		{"patterns", patternSchemas},
		{"limits", limitSchemas()},
		{"random", randomSchemas(rand.New(rand.NewPCG(17, 25)), 3000)},
	}
	var list, sizes []string
	for _, p := range parts {
		list = append(list, p.schemas...)
		sizes = append(sizes, fmt.Sprintf("%d %s", len(p.schemas), p.name))
	}
	t.Logf("corpus: %s", strings.Join(sizes, ", "))
	return list
}

// limitSchemas are at and beyond the limits: nesting the module reads, and pattern length.
func limitSchemas() []string {
	var list []string
	for _, depth := range []int{126, 127, 128, 129} {
		list = append(list,
			`{"const":`+strings.Repeat("[", depth-1)+strings.Repeat("]", depth-1)+`}`,
			strings.Repeat(`{"not":`, depth-1)+"{}"+strings.Repeat("}", depth-1),
			strings.Repeat(`{"not":`, depth-1)+`{"type":"x"}`+strings.Repeat("}", depth-1),
			`{"x-bad":1,"default":`+strings.Repeat("[", depth)+strings.Repeat("]", depth)+`}`)
	}
	for _, n := range []int{999, 1000, 1001} {
		for _, unit := range []string{"a", "é", "😀", `\ud800`, "(", `\\d`} {
			list = append(list, `{"pattern":"`+strings.Repeat(unit, n)+`"}`)
		}
	}
	list = append(list,
		`{"pattern":"(?:`+strings.Repeat("a", 3400)+`){1000}"}`,
		`{"pattern":"(?:`+strings.Repeat("a", 990)+`){1000}"}`,
		`{"pattern":"`+strings.Repeat("(", 499)+"a"+strings.Repeat(")", 499)+`"}`,
		`{"pattern":"`+strings.Repeat("(", 500)+"a"+strings.Repeat(")", 500)+`"}`,
		`{"pattern":"`+strings.Repeat("a{1000}", 142)+`"}`,
		`{"pattern":"`+strings.Repeat("(?:a*)*", 142)+`"}`,
		`{"pattern":"`+strings.Repeat("(a", 333)+strings.Repeat(")*", 333)+`"}`,
	)
	return list
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// wptInvalidSubset is the schemas of WPT's webmcp/imperative/register_tool_invalid_subset_schema.
var wptInvalidSubset = []string{
	`{"type":"object","properties":{"x":{"$ref":"#/foo"}}}`,
	`{"type":"object","properties":{"x":{"type":"string","format":"email"}}}`,
	`{"type":"object","additionalProperties":true}`,
	`{"type":"object","additionalProperties":{"type":"string"}}`,
	`{"type":"object","unevaluatedProperties":false}`,
	`{"type":"object","dependentRequired":{"x":["y"]}}`,
	`{"type":"string","pattern":"["}`,
	`{"type":"object","properties":{"x":{"type":"string","$defs":{}}}}`,
	`{"type":"object","properties":{"x":{"type":"string","contentEncoding":"base64"}}}`,
}

// values are keyword values of every shape, right and wrong for each keyword.
var values = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `2`, `1.5`, `2.0`, `1e2`, `1e400`, `-1e400`, `1e-400`, `5e-324`,
	`1e21`, `-0.5`,
	`"x"`, `"string"`, `"integer"`, `"^a"`, `"["`, `"(?=a)"`, `""`,
	`[]`, `[1]`, `["a"]`, `["a","a"]`, `["a","b"]`, `["string","null"]`, `["string","string"]`, `["thing"]`,
	`["string",1]`,
	`[{}]`, `[true,false]`, `[{"type":1}]`, `[{},{"minimum":"1"}]`, `[[]]`,
	`{}`, `{"a":{}}`, `{"a":{"type":"x"}}`, `{"a":1}`, `{"type":"integer"}`, `{"$ref":"#"}`, `{"b":true,"a":false}`,
}

// keywordSchemas puts every value under every keyword of the table, at the root and nested.
func keywordSchemas() []string {
	var list []string
	for _, k := range inputschema.Keywords() {
		for _, v := range values {
			member := quote(k.Name) + ":" + v
			list = append(list, "{"+member+"}",
				`{"properties":{"a/b~c":{`+member+`}}}`,
				`{"anyOf":[true,{`+member+`}]}`,
				`{"type":"array","items":{"not":{`+member+`}}}`)
		}
	}
	return list
}

// handCases are schemas with several problems (the first in Go's order wins), names that
// JavaScript orders or quotes differently, and keywords that read their siblings.
var handCases = []string{
	`{"minLength":-1,"foo":1,"$ref":"#"}`,
	`{"zzz":1,"aaa":1}`,
	`{"\uffff":1,"😀":1}`,
	`{"properties":{"\uffff":{"type":"x"},"😀":{"type":"y"}}}`,
	`{"properties":{"b":{"type":"x"},"a":{"type":"y"},"c":{"type":"z"}}}`,
	`{"properties":{"é":{"type":"x"},"z":{"type":"y"}}}`,
	`{"\ud800":1}`, `{"\udc00x":1}`, `{"properties":{"\ud800":{"type":1}}}`, `{"type":"\ud800"}`,
	`{"required":["\ud800","\ufffd"]}`,
	`{"a\"b\\c":1}`, `{"\u0000":1}`, `{"\u0007\b\f\n\r\t\u000b":1}`, `{"\u007f\u0080\u009f":1}`, `{"\u00a0":1}`,
	`{"\u00ad":1}`, `{"\u00a1é":1}`,
	`{"\u2028\u2029":1}`, `{"\u200b":1}`, `{"\ufeff":1}`, `{"\ue000":1}`, `{"😀\u0301":1}`, `{"\u0378":1}`,
	`{"中文":1}`,
	`{"𝔸":1}`, `{"\udb40\udc01":1}`, `{"\udbff\udfff":1}`, `{"a~/b":{"x":1}}`,
	`{"properties":{"~":{"$ref":"#"},"/":{"format":"x"}}}`,
	`{"type":["string","thing"]}`, `{"type":["thing","string","string"]}`, `{"type":"Object"}`, `{"type":[1]}`,
	`{"type":[]}`,
	`{"required":["a","b","a"]}`, `{"required":["\u0000","\u0000"]}`, `{"required":["a",1]}`,
	`{"contains":{},"maxContains":-1,"minContains":-1}`, `{"contains":{"type":"x"},"minContains":-1}`,
	`{"contains":true,"maxContains":1.5}`,
	`{"maxContains":"x","minContains":"y"}`, `{"contains":false,"minContains":0,"maxContains":0}`,
	`{"items":[{}]}`, `{"items":{"type":"x"}}`, `{"items":1}`, `{"prefixItems":[{"type":"x"}],"items":false}`,
	`{"prefixItems":[true,1]}`,
	`{"additionalProperties":false,"properties":1}`, `{"properties":{"a":true},"additionalProperties":{}}`,
	`{"allOf":[{"anyOf":[{"oneOf":[{"not":{"items":{"properties":{"x":{"format":"date"}}}}}]}]}]}`,
	`{"allOf":[true,false,{"minimum":1},{"x-vendor":1}]}`,
	`{"multipleOf":1e-400}`, `{"multipleOf":5e-324}`, `{"multipleOf":-0}`, `{"minimum":1e400}`, `{"maxLength":1e400}`,
	`{"maxLength":1e21}`,
	`{"maxItems":9007199254740993}`, `{"minLength":1.0000000000000002}`, `{"minLength":0.9999999999999999}`,
	`{"const":{"$ref":"#"}}`, `{"enum":[{"format":"x"}]}`, `{"default":{"$ref":"#"}}`, `{"examples":"x"}`, `{"title":1}`,
	`{"__proto__":{"type":"x"}}`, `{"properties":{"__proto__":{"type":"x"},"constructor":{"type":"y"}}}`,
	`{"constructor":1}`, `{"toString":1}`,
	`{"hasOwnProperty":1}`, `{"properties":{"hasOwnProperty":true,"valueOf":false}}`,
	`{"pattern":"\ud800"}`, `{"pattern":"[\ud800-\udbff]"}`, `{"pattern":"\udc00+"}`, `{"pattern":"(?<\ud800>x)"}`,
	`{"pattern":"\\p{\ud800}"}`,
	`"object"`, `1`, `1.5`, `[]`, `[{}]`, `null`, `true`, `false`, `{}`, `""`,
}

// patterns are ECMAScript patterns RE2 runs, ECMAScript-only syntax, and syntax errors.
var patterns = []string{
	`(`, `)`, `a)`, `(a`, `((a)`, `(a))`, `a{2,1}`, `a{1001}`, `a{1000}`, `a{0,1000}`, `a{1000,}`, `a{1001,}`,
	`(a{100}){11}`, `(a{10}){100}`, `(a{10}){101}`,
	`(?:a{2}){500}`, `(?:a{2}){501}`, `((a{2}){2}){250}`, `((a{2}){2}){251}`, `(a{0}){1000}(b{2})`, `(a{2}|b{3}){334}`,
	`(a{2}|b{3}){333}`, `(a{1,}){1000}`, `(a{2,}){501}`,
	`(a*){1000}`, `(a{0,1}){1000}`, `(a{1}){1000}`, `(a{1,1}){1000}`, `a{2}{3}`, `a**`, `a*?`, `a*??`, `a+*`, `a?+`,
	`*a`, `+`, `?`, `|*`, `(*)`, `(|*)`, `(?i)*`,
	`a(?i)*`, `(?:)*`, `()*`, `^*`, `$+`, `\b*`, `a|*`, `a||b`, `(|)`, `|`, `a|`, `a{2}?`, `a{2}??`, `a{2}+`, `a{2}*`,
	`a*{2}`, `{`, `}`, `{1}`, `a{,}`, `a{,2}`,
	`x{`, `x{1`, `x{1,`, `x{01}`, `a*{01}`, `a*{1,02}`, `{01}`, `a{00}`, `a*{0}`, `x{1,02}`, `x{0}`, `x{00}`,
	`x{99999999999}`, `x{1,99999999999}`, `x{100000000}`, `x{99999999}`, `x{1,2}{`, `x{ 1}`,
	`\`, `a\`, `[\`, `\c`, `\cA`, `\cz`, `\c1`, `\c_`, `[\cA]`, `[\c]`, `[z-a]`, `[a-z]`, `[\d-z]`, `[a-\d]`, `[\w]`,
	`[a-\x{10ffff}]`, `[\x{10ffff}-a]`,
	`\p{NoSuchClass}`, `\p{Greek}`, `\pL`, `\pl`, `\pN`, `\pZ`, `\pX`, `\p{^Greek}`, `\P{L}`, `\P{^L}`, `\p{greek}`,
	`\p{GREEK}`, `\p{Old_Italic}`, `\p{OldItalic}`,
	`\p{Letter}`, `\p{letter}`, `\p{Cased_Letter}`, `\p{cased-letter}`, `\p{ Cased Letter }`, `\p{ASCII}`, `\p{Ascii}`,
	`\p{Any}`, `\p{Assigned}`, `\p{LC}`, `\p{Lc}`,
	`\p{L`, `\p`, `\p{}`, `\p{^}`, `\p^`, `\p{é}`, `\pé`, `\p😀`, `[\p{L}]`, `[\p{Nope}]`, `[\pL-z]`,
	`\p{Script=Greek}`, `\p{sc=Greek}`, `\p{Han}`, `\p{Hani}`,
	`\x`, `\x4`, `\x41`, `\x4G`, `\x{41}`, `\x{}`, `\x{110000}`, `\x{10ffff}`, `\x{0000000041}`, `\x{41`, `\x{g}`,
	`\u`, `\u12`, `\u0041`, `\u004G`, `\u{41}`, `\u{110000}`, `\u{10FFFF}`, `\u{}`, `\u{41`, `\u{g}`, `\ud83d\ude00`,
	`\ud800`, `\udc00`, `\ud800\u0041`, `[\ud800-\udfff]`,
	`[\ud83d\ude00-\ud83d\ude02]`, `[😀-😂]`, `[😂-😀]`, `[\u{1F600}-\u{1F602}]`, `[\u0062-\u0061]`,
	`\0`, `\00`, `\01`, `\08`, `\012`, `\1`, `\9`, `[\1]`, `[\12]`, `[\8]`, `[\0]`, `\8`, `\k<a>`, `\k`, `[\k<a>]`,
	`(?<a>x)\k<a>`, `(a)\1`,
	`(?<a>x)`, `(?<a_1>x)`, `(?<1a>x)`, `(?<a-b>x)`, `(?<>x)`, `(?<a`, `(?<é>x)`, `(?<a>x)(?<a>y)`, `(?P<a>x)`,
	`(?P=a)`, `(?P<a`, `(?P<>x)`, `(?P`, `(?P<`, `(?<`, `(?`,
	`(?i)`, `(?i:a)`, `(?-i)`, `(?i-)`, `(?-)`, `(?i-s:a)`, `(?i-s)`, `(?im-sU:a)`, `(?i-m-s)`, `(?x)`, `(?#c)`, `(?)`,
	`(?:`, `(?:a`, `(?:a)`, `(?'a'x)`,
	`(?=a)`, `(?!a)`, `(?<=a)`, `(?<!a)`, `a(?=b`, `[(?=a)]`, `\(?=a)`, `((?=a)`,
	`[a-\s]`, `[\x00-\s]`, `[\x01-\s]`, `[\s-\x{10ffff}]`, `[\s-\x{feff}]`, `[\s-\x{fefe}]`, `[a-\S]`, `[\x00-\S]`,
	`[\S-\x{10ffff}]`, `[\S-]`, `[-\s]`, `[\x08-\S]`, `[\x09-\S]`, `[\S-\x{ff00}]`, `[\S-\x{fefe}]`, `[\s-]`, `.-a`,
	`[.-a]`, `\s{2}`, `[\s\S-\d]`,
	`[`, `]`, `[]`, `[^]`, `[]a]`, `[^]a]`, `[[]`, `[[]]`, `[[:alpha:]]`, `[[:nope:]]`, `[a-]`, `[-a]`, `[a-b-c]`,
	`[\]]`, `[\b]`, `[^\b]`, `[\B]`, `[\s\S]`, `[^\s]`, `[\S-a]`,
	`\b`, `\B`, `\A`, `\z`, `\Z`, `\C`, `\Q*\E*`, `\Q\E*`, `\Qab`, `\Q`, `a\Q\E*`, `a\E`, `\q`, `\_`, `\-`, `\/`, `\é`,
	`\😀`, `\ `, `\a\f\n\r\t\v`, `\e`, `\N`,
	`.`, `.*`, `\s\S\w\W\d\D`, `^$`, `^(a|bc)+$`, `^[^a]*$`, `^\S+$`, `^[A-Z]{3}$`, `^(?=.*\d)\w+$`, `^(?!admin$)\w+$`,
	`(?<=\$)\d+`, `(?<!-)\d+`, `^(a)\1$`,
	`(["'])x\9`, `^(?<q>["'])\w*\k<q>$`, `[\s\S]\u{10FFFF}\ud83d\ude00`, `[^]|[]|\cz\0`, `\k<n>(?<n>x)\1`, `[[:alpha:]]`,
	"a\u0000b", "é{2}", "😀+", "😀{1001}",
}

// randomSchemas are schemas drawn from the keyword table, unknown names and the values
// above, nested a few levels, with patterns made of regular-expression syntax at random.
func randomSchemas(r *rand.Rand, n int) []string {
	names := []string{"x-unknown", "nullable", "Type", "properties ", "é", "😀"}
	for _, k := range inputschema.Keywords() {
		names = append(names, k.Name)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = randomSchema(r, names, 0)
	}
	return out
}

func randomSchema(r *rand.Rand, names []string, depth int) string {
	if depth > 0 && r.IntN(6) == 0 {
		return strconv.FormatBool(r.IntN(2) == 0)
	}
	var members []string
	for range 1 + r.IntN(3) {
		k := names[r.IntN(len(names))]
		var v string
		switch {
		case k == "pattern" || r.IntN(10) == 0:
			v = randomPattern(r)
		case depth < 3 && (k == "properties" || k == "items" || k == "not" || k == "contains" || r.IntN(8) == 0):
			if k == "properties" {
				v = `{"a":` + randomSchema(r, names, depth+1) + `,"é":` + randomSchema(r, names, depth+1) + `}`
			} else {
				v = randomSchema(r, names, depth+1)
			}
		case depth < 3 && (k == "allOf" || k == "anyOf" || k == "oneOf" || k == "prefixItems"):
			v = "[" + randomSchema(r, names, depth+1) + "," + randomSchema(r, names, depth+1) + "]"
		default:
			v = values[r.IntN(len(values))]
		}
		members = append(members, quote(k)+":"+v)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// patternPieces are what random patterns are made of: the syntax the translation and RE2
// treat specially, and a few plain characters.
var patternPieces = []string{
	`(`,
	`)`,
	`(?`,
	`(?:`,
	`(?<`,
	`(?P<`,
	`(?=`,
	`(?i)`,
	`[`,
	`]`,
	`[^`,
	`{`,
	`}`,
	`{2}`,
	`{1,3}`,
	`{1000}`,
	`{2,}`,
	`*`,
	`+`,
	`?`,
	`|`,
	`\`,
	`^`,
	`$`,
	`.`,
	`-`,
	`,`,
	`:`,
	`<`,
	`>`,
	`=`,
	`!`,
	`P`,
	`\p`,
	`\p{`,
	`L`,
	`Greek`,
	`\d`,
	`\s`,
	`\S`,
	`\w`,
	`\b`,
	`\u`,
	`\u{`,
	`\x`,
	`\c`,
	`\k`,
	`\Q`,
	`\E`,
	`\0`,
	`\1`,
	`0`,
	`1`,
	`2`,
	`9`,
	`a`,
	`z`,
	`A`,
	`F`,
	`é`,
	`😀`,
}

// randomPattern is a random pattern as a JSON string, lone surrogates included.
func randomPattern(r *rand.Rand) string {
	b := []byte(`"`)
	for range 1 + r.IntN(8) {
		if r.IntN(30) == 0 {
			b = append(b, `\ud800`...)
			continue
		}
		q := quote(patternPieces[r.IntN(len(patternPieces))])
		b = append(b, q[1:len(q)-1]...)
	}
	return string(append(b, '"'))
}
