package inputschema

// kind is what the bridge does with a keyword.
type kind int

const (
	// enforced keywords compile into a check that every call's arguments must pass.
	enforced kind = iota
	// annotation keywords describe and never constrain: accepted, and ignored on purpose.
	annotation
	// excluded keywords are left out of the WebMCP subset (see the WPT test
	// register_tool_invalid_subset_schema): references, formats, and the keywords whose
	// result depends on other parts of the schema. registerTool refuses them.
	excluded
	// refused keywords are from older drafts: refused with a pointer to the 2020-12 form.
	refused
)

// compileFunc compiles an enforced keyword's value v, which has the row's shape already, and
// returns its check; a nil check means the keyword constrains nothing alone (minContains is
// read by contains).
type compileFunc func(s *site, v any) (check, error)

// keyword is one row of the keyword table.
type keyword struct {
	name    string
	kind    kind
	value   shape       // enforced keywords only: what the value must be (checked before compile)
	compile compileFunc // enforced keywords only
	why     string      // excluded and refused: the reason registerTool gives
}

// keywords is the table: every keyword the package knows. Enforced keywords are checked in
// this order, so the first error is predictable: the type first, applicators last. A keyword
// that is not here is refused, never silently ignored. It is filled by init because the
// applicators' compile functions compile subschemas, which reads the table.
var keywords []keyword

// keywordIndex finds a keyword's row in the table.
var keywordIndex map[string]int

func init() {
	keywords = []keyword{
		{name: "type", value: shapeTypes, compile: compileType},
		{name: "const", value: shapeAny, compile: compileConst},
		{name: "enum", value: shapeArray, compile: compileEnum},

		{name: "minLength", value: shapeCount, compile: sizeBound("minLength", stringSize, -1, "shorter than %d characters")},
		{name: "maxLength", value: shapeCount, compile: sizeBound("maxLength", stringSize, +1, "longer than %d characters")},
		{name: "pattern", value: shapePattern, compile: compilePattern},

		{name: "minimum", value: shapeNumber, compile: bound("minimum", "less than", func(c int) bool { return c >= 0 })},
		{name: "maximum", value: shapeNumber, compile: bound("maximum", "greater than", func(c int) bool { return c <= 0 })},
		{name: "exclusiveMinimum", value: shapeNumber,
			compile: bound("exclusiveMinimum", "not greater than", func(c int) bool { return c > 0 })},
		{name: "exclusiveMaximum", value: shapeNumber,
			compile: bound("exclusiveMaximum", "not less than", func(c int) bool { return c < 0 })},
		{name: "multipleOf", value: shapePositive, compile: compileMultipleOf},

		{name: "minItems", value: shapeCount, compile: sizeBound("minItems", arraySize, -1, "fewer than %d items")},
		{name: "maxItems", value: shapeCount, compile: sizeBound("maxItems", arraySize, +1, "more than %d items")},
		{name: "uniqueItems", value: shapeBoolean, compile: compileUniqueItems},
		{name: "prefixItems", value: shapeSchemas, compile: compilePrefixItems},
		{name: "items", value: shapeItem, compile: compileItems},
		{name: "contains", value: shapeSchema, compile: compileContains},
		{name: "minContains", value: shapeCount, compile: countOnly()},
		{name: "maxContains", value: shapeCount, compile: countOnly()},

		{name: "required", value: shapeNames, compile: compileRequired},
		{name: "minProperties", value: shapeCount,
			compile: sizeBound("minProperties", objectSize, -1, "fewer than %d properties")},
		{name: "maxProperties", value: shapeCount,
			compile: sizeBound("maxProperties", objectSize, +1, "more than %d properties")},
		{name: "properties", value: shapeSchemaMap, compile: compileProperties},
		{name: "additionalProperties", value: shapeFalse, compile: compileAdditionalProperties},

		{name: "allOf", value: shapeSchemas, compile: compileAllOf},
		{name: "anyOf", value: shapeSchemas, compile: compileAnyOf},
		{name: "oneOf", value: shapeSchemas, compile: compileOneOf},
		{name: "not", value: shapeSchema, compile: compileNot},

		{name: "title", kind: annotation},
		{name: "description", kind: annotation},
		{name: "default", kind: annotation},
		{name: "examples", kind: annotation},
		{name: "deprecated", kind: annotation},
		{name: "readOnly", kind: annotation},
		{name: "writeOnly", kind: annotation},
		{name: "$comment", kind: annotation},
		{name: "$schema", kind: annotation},
		{name: "$id", kind: annotation},

		{name: "$ref", kind: excluded, why: "references are not supported"},
		{name: "$dynamicRef", kind: excluded, why: "references are not supported"},
		{name: "$defs", kind: excluded, why: "definitions are not supported"},
		{name: "definitions", kind: excluded, why: "definitions are not supported"},
		{name: "$anchor", kind: excluded, why: "anchors are not supported"},
		{name: "$dynamicAnchor", kind: excluded, why: "anchors are not supported"},
		{name: "$vocabulary", kind: excluded, why: "vocabularies are not supported"},
		{name: "format", kind: excluded, why: "format is not supported"},
		{name: "contentEncoding", kind: excluded, why: "contentEncoding is not supported"},
		{name: "contentMediaType", kind: excluded, why: "contentMediaType is not supported"},
		{name: "contentSchema", kind: excluded, why: "contentSchema is not supported"},
		{name: "unevaluatedProperties", kind: excluded, why: "unevaluatedProperties is not supported"},
		{name: "unevaluatedItems", kind: excluded, why: "unevaluatedItems is not supported"},
		{name: "dependentRequired", kind: excluded, why: "dependentRequired is not supported"},
		{name: "dependentSchemas", kind: excluded, why: "dependentSchemas is not supported"},
		{name: "dependencies", kind: excluded, why: "dependencies is not supported"},
		{name: "patternProperties", kind: excluded, why: "patternProperties is not supported"},
		{name: "propertyNames", kind: excluded, why: "propertyNames is not supported"},
		{name: "if", kind: excluded, why: "if/then/else is not supported"},
		{name: "then", kind: excluded, why: "if/then/else is not supported"},
		{name: "else", kind: excluded, why: "if/then/else is not supported"},

		{name: "additionalItems", kind: refused,
			why: `"additionalItems" is not a draft 2020-12 keyword: use "items" after "prefixItems"`},
	}
	keywordIndex = indexKeywords(keywords)
}

// indexKeywords maps names to rows, and checks the table: each name once, and a compile
// function and a value shape exactly for the enforced keywords.
func indexKeywords(table []keyword) map[string]int {
	index := make(map[string]int, len(table))
	for i, k := range table {
		if _, twice := index[k.name]; twice || (k.kind == enforced) != (k.compile != nil) ||
			(k.kind == enforced) != (k.value != "") {
			panic("inputschema: bad keyword table row " + k.name)
		}
		index[k.name] = i
	}
	return index
}
