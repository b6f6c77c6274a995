package inputschema

import (
	"fmt"
	"slices"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// shape is what an enforced keyword's value must be for the schema to compile: checkValue
// checks it for every keyword before the keyword's compile function reads the value, and
// Keywords writes it out for the page's own check (web/src/schema-check.ts).
type shape string

const (
	shapeAny       shape = "any"             // any JSON value (const)
	shapeTypes     shape = "types"           // a type name, or a non-empty array of distinct type names
	shapeArray     shape = "array"           // an array, possibly empty (enum)
	shapeCount     shape = "count"           // a non-negative integer (2.0 and 1e2 count)
	shapeNumber    shape = "number"          // a number
	shapePositive  shape = "positive number" // a number greater than 0 (multipleOf)
	shapeBoolean   shape = "boolean"         // true or false
	shapePattern   shape = "pattern"         // a string: an ECMA-262 pattern RE2 can run (pattern.go)
	shapeNames     shape = "names"           // an array of distinct strings
	shapeSchema    shape = "schema"          // a schema: an object or a boolean
	shapeSchemas   shape = "schemas"         // a non-empty array of schemas
	shapeSchemaMap shape = "schema map"      // an object whose members are schemas
	shapeItem      shape = "item schema"     // a schema, where an array (the old tuple form) is told apart
	shapeFalse     shape = "false"           // false, and nothing else
)

// The reasons Compile gives, one place for Go and for the page (Messages). %q quotes as Go
// does (strconv.Quote); %s is the text as it is.
const (
	msgUnknown    = "%q is not a keyword this bridge enforces, so it is refused rather than ignored"
	msgExcluded   = "%s (excluded from the WebMCP input schema subset)"
	msgNotASchema = "a schema must be an object or a boolean, not %s"
	msgTypes      = "must be a type name or a non-empty array of distinct type names"
	msgEmptyTypes = "must not be an empty array"
	msgNotAType   = "%q is not a JSON Schema type"
	msgArray      = "must be an array"
	msgCount      = "must be a non-negative integer"
	msgNumber     = "must be a number"
	msgPositive   = "must be greater than 0"
	msgBoolean    = "must be a boolean"
	msgString     = "must be a string"
	msgNames      = "must be an array of strings"
	msgTwice      = "lists %q twice"
	msgSchemas    = "must be a non-empty array of schemas"
	msgObject     = "must be an object"
	msgTuple      = `must be a schema; for a tuple use "prefixItems" ` +
		`(the array form of "items" is from drafts before 2020-12)`
	msgFalse        = "only additionalProperties: false is supported"
	msgPatternUses  = `"%s" uses %s, which this bridge does not support (ECMAScript-only regular expression syntax)`
	msgPatternWrong = `"%s" is not a valid regular expression` // then ": " and RE2's error, where Go runs
	msgPatternLong  = "has %d characters: the longest pattern this bridge accepts has %d"
	// msgPatternRepetition refuses a pattern whose repetition product is over MaxPatternRepetition.
	msgPatternRepetition = `"%s" has a repetition product of %d (its items once each counted repetition is ` +
		`written out): the largest this bridge accepts is %d, as checking it would take too long`
	// msgArgumentBytes refuses arguments over the maxArgumentBytes policy setting.
	msgArgumentBytes = "the arguments are %d bytes of JSON, over the maxArgumentBytes limit of %d bytes: " +
		"they were refused before validation"
	// msgArgumentValues refuses arguments over the maxArgumentValues policy setting.
	msgArgumentValues = "the arguments hold more than %d JSON values, over the maxArgumentValues limit: " +
		"they were refused before validation"
	// msgLoneSurrogate refuses arguments that hold a lone surrogate.
	msgLoneSurrogate = "holds a lone surrogate (half of a UTF-16 pair), which is not a Unicode character: the checks " +
		"would read it as U+FFFD while the tool got it unchanged, so the arguments are refused"
	// msgPatternWork is an argument refused, not matched, by the bound on pattern work; it is an
	// InputError's message, not a schema's.
	msgPatternWork = "is %d bytes: checking it against %q (repetition product %d) would take more than the %d " +
		"units (bytes × repetition product) one validation may spend on patterns, so the argument is refused, not matched"
)

// checkValue reports a value of keyword k that does not have shape sh. For the shapes made
// of schemas it checks the container only: compiling the subschemas checks them.
func (s *site) checkValue(k string, sh shape, v any) error {
	switch sh {
	case shapeTypes:
		return s.checkTypes(k, v)
	case shapeArray:
		if _, ok := v.([]any); !ok {
			return s.bad(k, msgArray)
		}
	case shapeCount:
		if d, ok := jsonvalue.NumberOf(v); !ok || d.Sign() < 0 || !d.IsInteger() {
			return s.bad(k, msgCount)
		}
	case shapeNumber, shapePositive:
		d, ok := jsonvalue.NumberOf(v)
		if !ok {
			return s.bad(k, msgNumber)
		}
		if sh == shapePositive && d.Sign() <= 0 {
			return s.bad(k, msgPositive)
		}
	case shapeBoolean:
		if _, ok := v.(bool); !ok {
			return s.bad(k, msgBoolean)
		}
	case shapePattern:
		if _, ok := v.(string); !ok {
			return s.bad(k, msgString)
		}
	case shapeNames:
		_, err := s.names(k, v)
		return err
	case shapeSchemas:
		if list, ok := v.([]any); !ok || len(list) == 0 {
			return s.bad(k, msgSchemas)
		}
	case shapeSchemaMap:
		if _, ok := v.(map[string]any); !ok {
			return s.bad(k, msgObject)
		}
	case shapeItem:
		if _, tuple := v.([]any); tuple {
			return s.bad(k, msgTuple)
		}
	case shapeFalse:
		if v != false {
			return s.bad(k, msgFalse)
		}
	}
	return nil
}

// checkTypes checks type's value: a JSON Schema type name, or a non-empty array of distinct ones.
func (s *site) checkTypes(k string, v any) error {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		var err error
		if names, err = s.names(k, t); err != nil {
			return err
		}
		if len(names) == 0 {
			return s.bad(k, msgEmptyTypes)
		}
	default:
		return s.bad(k, msgTypes)
	}
	for _, t := range names {
		if !slices.Contains(jsonTypes, t) {
			return s.bad(k, fmt.Sprintf(msgNotAType, t))
		}
	}
	return nil
}

// Keyword is one row of the keyword table, for a generator: the page decides with it, before
// the module is loaded, whether registerTool accepts a schema.
type Keyword struct {
	Name string
	// Kind is "enforced", "annotation", "excluded" or "refused" (see the package comment).
	Kind string
	// Reason is what registerTool says of an excluded or refused keyword, after its path.
	Reason string
	// Value is, for an enforced keyword, what its value must be: "any", "types", "array",
	// "count", "number", "positive number", "boolean", "pattern", "names", "schema",
	// "schemas", "schema map", "item schema" or "false" (shapes.go says what each means).
	Value string
}

// Keywords is the keyword table in the order Compile applies it.
func Keywords() []Keyword {
	out := make([]Keyword, len(keywords))
	for i, k := range keywords {
		out[i] = Keyword{Name: k.name, Kind: kindNames[k.kind], Value: string(k.value)}
		switch k.kind {
		case excluded:
			out[i].Reason = fmt.Sprintf(msgExcluded, k.why)
		case refused:
			out[i].Reason = k.why
		}
	}
	return out
}

var kindNames = [...]string{enforced: "enforced", annotation: "annotation", excluded: "excluded", refused: "refused"}

// Messages are the formats of the reasons Compile gives, by name, for a generator: %q quotes
// as Go's strconv.Quote does, %s inserts the text as it is, %d a number.
func Messages() map[string]string {
	return map[string]string{
		"unknown": msgUnknown, "notASchema": msgNotASchema, "types": msgTypes, "emptyTypes": msgEmptyTypes,
		"notAType": msgNotAType, "array": msgArray, "count": msgCount, "number": msgNumber, "positive": msgPositive,
		"boolean": msgBoolean, "string": msgString, "names": msgNames, "twice": msgTwice, "schemas": msgSchemas,
		"object": msgObject, "tuple": msgTuple, "false": msgFalse, "patternUses": msgPatternUses,
		"patternWrong": msgPatternWrong, "patternLong": msgPatternLong, "patternRepetition": msgPatternRepetition,
	}
}

// TypeNames are the type names the type keyword accepts.
func TypeNames() []string { return slices.Clone(jsonTypes) }
