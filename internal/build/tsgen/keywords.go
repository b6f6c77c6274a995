package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

func init() { outputs["keywords.ts"] = keywordsTS }

// keywordsTS writes the input-schema keyword table (inputschema.Keywords), the reasons
// Compile gives, the limits, and the class names RE2 knows, for web/src/schema-check.ts.
func keywordsTS() ([]byte, error) {
	table := inputschema.Keywords()
	var kinds, shapes []string
	for _, k := range table {
		if !slices.Contains(kinds, k.Kind) {
			kinds = append(kinds, k.Kind)
		}
		if k.Value != "" && !slices.Contains(shapes, k.Value) {
			shapes = append(shapes, k.Value)
		}
	}
	f := newFile("The input-schema keyword table the page checks schemas with: bridge/inputschema.")
	f.line("")
	f.line("export type KeywordKind = %s;", union(kinds))
	f.line("/** What an enforced keyword's value must be (bridge/inputschema/shapes.go). */")
	f.line("export type ValueShape = %s;", union(shapes))
	f.line("export interface KeywordRow {")
	f.line("  readonly kind: KeywordKind;")
	f.line("  /** Excluded and refused keywords: what registerTool says, after the keyword's path. */")
	f.line("  readonly reason?: string;")
	f.line("  /** Enforced keywords: what the value must be. */")
	f.line("  readonly value?: ValueShape;")
	f.line("}")
	f.line("")
	f.line("/** Every keyword the bridge knows, in the order it applies them; any other is refused. */")
	f.line("export const KEYWORDS: ReadonlyMap<string, KeywordRow> = new Map<string, KeywordRow>([")
	for _, k := range table {
		fields := []string{"kind: " + q(k.Kind)}
		if k.Reason != "" {
			fields = append(fields, "reason: "+q(k.Reason))
		}
		if k.Value != "" {
			fields = append(fields, "value: "+q(k.Value))
		}
		f.line("  [%s, { %s }],", q(k.Name), strings.Join(fields, ", "))
	}
	f.line("]);")
	f.line("")
	f.line("/** The type names the type keyword accepts. */")
	f.line("export const JSON_TYPES: readonly string[] = [%s];", strings.Join(quoteAll(inputschema.TypeNames()), ", "))
	f.line("")
	messages := inputschema.Messages()
	f.line("/** The rules a schema is refused by, by name: %%q is a quoted value, %%s and %%d are")
	f.line(" * inserted as they are. */")
	f.line("export const MESSAGES = {")
	for _, name := range sortedKeys(messages) {
		f.line("  %s: %s,", name, q(messages[name]))
	}
	f.line("} as const;")
	f.line("")
	f.line("/** The longest pattern the bridge accepts, in code points (inputschema.MaxPatternLength). */")
	f.line("export const MAX_PATTERN_LENGTH = %d;", inputschema.MaxPatternLength)
	f.line("/** The largest repetition product a pattern may have (inputschema.MaxPatternRepetition). */")
	f.line("export const MAX_PATTERN_REPETITION = %d;", inputschema.MaxPatternRepetition)
	f.line("/** The deepest nesting of arrays and objects the module reads, and its reason beyond. */")
	f.line("export const MAX_DEPTH = %d;", jsonvalue.MaxDepth)
	f.line("export const TOO_DEEP = %s;", q((&jsonvalue.DepthError{Limit: jsonvalue.MaxDepth}).Error()))
	f.line("")
	classes, err := unicodeClassNames()
	if err != nil {
		return nil, err
	}
	f.line("/** The names \\p{…} accepts in a pattern (Go's regexp/syntax), in canonical form: first letter")
	f.line(" * upper case, the others lower case, without _ - and space. */")
	f.line("export const UNICODE_CLASSES: ReadonlySet<string> = new Set(%s.split(\" \"));", q(strings.Join(classes, " ")))
	return f.Bytes(), nil
}

// unicodeClassNames are the canonical names of the classes Go's regexp accepts in \p{…}: the
// categories, scripts and category aliases of package unicode, and Any, Assigned and ASCII.
// Each is tried with regexp itself, so the list is what the module's RE2 accepts.
func unicodeClassNames() ([]string, error) {
	candidates := []string{"Any", "Assigned", "ASCII"}
	for _, m := range []map[string]*unicode.RangeTable{unicode.Categories, unicode.Scripts} {
		candidates = append(candidates, sortedKeys(m)...)
	}
	candidates = append(candidates, sortedKeys(unicode.CategoryAliases)...)
	var names []string
	for _, c := range candidates {
		name := canonicalClassName(c)
		if slices.Contains(names, name) {
			continue
		}
		if _, err := regexp.Compile(`\p{` + name + `}`); err != nil {
			continue // a key the lookup never reaches (not canonical)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	for _, probe := range []string{"Greek", "L", "Lu", "Letter", "Any", "Ascii", "Lc"} {
		if !slices.Contains(names, probe) {
			return nil, fmt.Errorf("unicode class %s is missing: regexp/syntax changed its lookup", probe)
		}
	}
	return names, nil
}

// canonicalClassName is how regexp/syntax compares class names: without _, - and spaces, the
// first letter upper case and the others lower case.
func canonicalClassName(name string) string {
	var b strings.Builder
	for _, c := range name {
		switch {
		case c == '_' || c == '-' || c == ' ':
			continue
		case b.Len() == 0:
			b.WriteRune(unicode.ToUpper(c))
		default:
			b.WriteRune(unicode.ToLower(c))
		}
	}
	return b.String()
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = q(s)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
