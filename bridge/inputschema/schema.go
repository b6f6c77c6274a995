package inputschema

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// Schema is a tool's inputSchema, checked against the JSON Schema subset the WebMCP draft
// accepts and ready to validate arguments.
type Schema struct {
	root *schemaNode
}

// InputError is an argument that breaks the schema, in the shape the WebMCP draft gives a
// DataError's message: Path is a JSON Pointer into the arguments, Reason the failing keyword,
// SchemaPath the keyword as "/keyword", and Message a sentence for people.
type InputError struct {
	Path       string `json:"path"`
	Reason     string `json:"reason"`
	SchemaPath string `json:"schemaPath"`
	Message    string `json:"message"`
}

// Error is the JSON the WebMCP draft puts in a DataError's message.
func (e *InputError) Error() string {
	b, _ := jsonvalue.Marshal(e)
	return string(b)
}

// AppendJSON writes {path, reason, schemaPath, message}.
func (e *InputError) AppendJSON(w *jsonvalue.Writer) {
	first := true
	w.Raw("{")
	for _, f := range [...]struct{ k, v string }{{"path", e.Path}, {"reason", e.Reason}, {"schemaPath", e.SchemaPath}, {"message", e.Message}} {
		w.Key(&first, f.k)
		w.Str(f.v)
	}
	w.Raw("}")
}

// SchemaError is an inputSchema the subset does not accept: Path is where in the schema.
type SchemaError struct {
	Path   string
	Reason string
}

func (e *SchemaError) Error() string { return "inputSchema" + e.Path + ": " + e.Reason }

// excludedKeywords are left out of the WebMCP subset (see the WPT test
// register_tool_invalid_subset_schema): references, formats and the keywords whose evaluation
// depends on other parts of the schema.
var excludedKeywords = map[string]string{
	"$ref": "references are not supported", "$dynamicRef": "references are not supported",
	"$defs": "definitions are not supported", "definitions": "definitions are not supported",
	"$anchor": "anchors are not supported", "$dynamicAnchor": "anchors are not supported",
	"format": "format is not supported", "contentEncoding": "contentEncoding is not supported",
	"contentMediaType": "contentMediaType is not supported", "contentSchema": "contentSchema is not supported",
	"unevaluatedProperties": "unevaluatedProperties is not supported", "unevaluatedItems": "unevaluatedItems is not supported",
	"dependentRequired": "dependentRequired is not supported", "dependentSchemas": "dependentSchemas is not supported",
	"dependencies": "dependencies is not supported", "patternProperties": "patternProperties is not supported",
	"propertyNames": "propertyNames is not supported", "if": "if/then/else is not supported",
	"then": "if/then/else is not supported", "else": "if/then/else is not supported",
}

type schemaNode struct {
	types         []string
	properties    map[string]*schemaNode
	required      []string
	noAdditional  bool
	enum          []any
	constVal      any
	hasConst      bool
	pattern       *regexp.Regexp
	items         *schemaNode
	prefixItems   []*schemaNode
	minItems      *float64
	maxItems      *float64
	minLength     *float64
	maxLength     *float64
	minimum       *float64
	maximum       *float64
	exclusiveMin  *float64
	exclusiveMax  *float64
	multipleOf    *float64
	anyOf, oneOf  []*schemaNode
	allOf         []*schemaNode
	not           *schemaNode
	alwaysInvalid bool // the schema `false`
}

// Compile checks a decoded inputSchema (nil means "any object") against the subset
// and compiles it. The error says where and why, as the TypeError registerTool rejects with.
func Compile(v any) (*Schema, error) {
	if v == nil {
		return &Schema{root: &schemaNode{}}, nil
	}
	root, err := compileNode(v, "")
	if err != nil {
		return nil, err
	}
	return &Schema{root: root}, nil
}

// CompileJSON is Compile for JSON text ("" means no schema).
func CompileJSON(b []byte) (*Schema, error) {
	if strings.TrimSpace(string(b)) == "" {
		return Compile(nil)
	}
	v, err := jsonvalue.Decode(b)
	if err != nil {
		return nil, &SchemaError{Reason: err.Error()}
	}
	return Compile(v)
}

func compileNode(v any, path string) (*schemaNode, error) {
	switch x := v.(type) {
	case bool:
		return &schemaNode{alwaysInvalid: !x}, nil
	case map[string]any:
		return compileObject(x, path)
	}
	return nil, &SchemaError{Path: path, Reason: fmt.Sprintf("a schema must be an object or a boolean, not %s", jsonvalue.TypeName(v))}
}

func compileObject(m map[string]any, path string) (*schemaNode, error) {
	n := &schemaNode{}
	bad := func(k, reason string) error { return &SchemaError{Path: path + "/" + k, Reason: reason} }
	num := func(k string) (*float64, error) {
		f, ok := jsonvalue.ToFloat(m[k])
		if !ok {
			return nil, bad(k, "must be a number")
		}
		return &f, nil
	}
	for k, v := range m {
		if why, ok := excludedKeywords[k]; ok {
			return nil, bad(k, why+" (excluded from the WebMCP input schema subset)")
		}
		var err error
		switch k {
		case "type":
			switch t := v.(type) {
			case string:
				n.types = []string{t}
			case []any:
				for _, e := range t {
					s, ok := e.(string)
					if !ok {
						return nil, bad(k, "must be a string or an array of strings")
					}
					n.types = append(n.types, s)
				}
			default:
				return nil, bad(k, "must be a string or an array of strings")
			}
			for _, t := range n.types {
				switch t {
				case "object", "array", "string", "number", "integer", "boolean", "null":
				default:
					return nil, bad(k, fmt.Sprintf("%q is not a JSON Schema type", t))
				}
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return nil, bad(k, "must be an object")
			}
			n.properties = make(map[string]*schemaNode, len(props))
			for name, sub := range props {
				if n.properties[name], err = compileNode(sub, path+"/properties/"+escapePointer(name)); err != nil {
					return nil, err
				}
			}
		case "required":
			list, ok := v.([]any)
			if !ok {
				return nil, bad(k, "must be an array of strings")
			}
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					return nil, bad(k, "must be an array of strings")
				}
				n.required = append(n.required, s)
			}
		case "additionalProperties":
			if b, ok := v.(bool); !ok || b {
				return nil, bad(k, "only additionalProperties: false is supported")
			}
			n.noAdditional = true
		case "enum":
			list, ok := v.([]any)
			if !ok {
				return nil, bad(k, "must be an array")
			}
			n.enum = list
		case "const":
			n.constVal, n.hasConst = v, true
		case "pattern":
			s, ok := v.(string)
			if !ok {
				return nil, bad(k, "must be a string")
			}
			if n.pattern, err = regexp.Compile(s); err != nil {
				return nil, bad(k, fmt.Sprintf("%q is not a valid regular expression: %v", s, err))
			}
		case "items":
			if n.items, err = compileNode(v, path+"/items"); err != nil {
				return nil, err
			}
		case "prefixItems":
			list, ok := v.([]any)
			if !ok {
				return nil, bad(k, "must be an array of schemas")
			}
			for i, sub := range list {
				c, err := compileNode(sub, path+"/prefixItems/"+strconv.Itoa(i))
				if err != nil {
					return nil, err
				}
				n.prefixItems = append(n.prefixItems, c)
			}
		case "anyOf", "oneOf", "allOf":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return nil, bad(k, "must be a non-empty array of schemas")
			}
			var subs []*schemaNode
			for i, sub := range list {
				c, err := compileNode(sub, path+"/"+k+"/"+strconv.Itoa(i))
				if err != nil {
					return nil, err
				}
				subs = append(subs, c)
			}
			switch k {
			case "anyOf":
				n.anyOf = subs
			case "oneOf":
				n.oneOf = subs
			default:
				n.allOf = subs
			}
		case "not":
			if n.not, err = compileNode(v, path+"/not"); err != nil {
				return nil, err
			}
		case "minItems":
			n.minItems, err = num(k)
		case "maxItems":
			n.maxItems, err = num(k)
		case "minLength":
			n.minLength, err = num(k)
		case "maxLength":
			n.maxLength, err = num(k)
		case "minimum":
			n.minimum, err = num(k)
		case "maximum":
			n.maximum, err = num(k)
		case "exclusiveMinimum":
			n.exclusiveMin, err = num(k)
		case "exclusiveMaximum":
			n.exclusiveMax, err = num(k)
		case "multipleOf":
			if n.multipleOf, err = num(k); err == nil && *n.multipleOf <= 0 {
				err = bad(k, "must be greater than 0")
			}
		}
		// Annotations (title, description, default, examples, $schema, $id, $comment, …) and
		// unknown keywords do not constrain the arguments.
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

// Validate checks decoded arguments (nil counts as {}) and returns the first *InputError.
func (s *Schema) Validate(args any) error {
	if args == nil {
		args = map[string]any{}
	}
	if e := s.root.validate(args, ""); e != nil {
		return e
	}
	return nil
}

// ValidateJSON is Validate for JSON text.
func (s *Schema) ValidateJSON(b []byte) error {
	if strings.TrimSpace(string(b)) == "" {
		return s.Validate(nil)
	}
	v, err := jsonvalue.Decode(b)
	if err != nil {
		return &InputError{Path: "", Reason: "type", SchemaPath: "/type", Message: err.Error()}
	}
	return s.Validate(v)
}

func fail(path, keyword, format string, a ...any) *InputError {
	return &InputError{Path: path, Reason: keyword, SchemaPath: "/" + keyword, Message: fmt.Sprintf(format, a...)}
}

func (n *schemaNode) validate(v any, path string) *InputError {
	if n.alwaysInvalid {
		return fail(path, "false", "no value is allowed here")
	}
	if len(n.types) > 0 && !typeMatches(v, n.types) {
		return fail(path, "type", "expected %s, got %s", strings.Join(n.types, " or "), jsonvalue.TypeName(v))
	}
	if n.hasConst && !jsonvalue.Equal(v, n.constVal) {
		return fail(path, "const", "must be %s", jsonvalue.Compact(n.constVal))
	}
	if n.enum != nil {
		found := false
		for _, e := range n.enum {
			if jsonvalue.Equal(v, e) {
				found = true
				break
			}
		}
		if !found {
			return fail(path, "enum", "%s is not one of %s", jsonvalue.Compact(v), jsonvalue.Compact(n.enum))
		}
	}
	switch x := v.(type) {
	case string:
		l := float64(utf8.RuneCountInString(x))
		if n.minLength != nil && l < *n.minLength {
			return fail(path, "minLength", "shorter than %v characters", *n.minLength)
		}
		if n.maxLength != nil && l > *n.maxLength {
			return fail(path, "maxLength", "longer than %v characters", *n.maxLength)
		}
		if n.pattern != nil && !n.pattern.MatchString(x) {
			return fail(path, "pattern", "does not match %s", n.pattern.String())
		}
	case json.Number, float64, int, int64:
		f, _ := jsonvalue.ToFloat(x)
		if n.minimum != nil && f < *n.minimum {
			return fail(path, "minimum", "%v is less than %v", f, *n.minimum)
		}
		if n.maximum != nil && f > *n.maximum {
			return fail(path, "maximum", "%v is greater than %v", f, *n.maximum)
		}
		if n.exclusiveMin != nil && f <= *n.exclusiveMin {
			return fail(path, "exclusiveMinimum", "%v is not greater than %v", f, *n.exclusiveMin)
		}
		if n.exclusiveMax != nil && f >= *n.exclusiveMax {
			return fail(path, "exclusiveMaximum", "%v is not less than %v", f, *n.exclusiveMax)
		}
		if n.multipleOf != nil {
			q := f / *n.multipleOf
			if math.Abs(q-math.Round(q)) > 1e-9 {
				return fail(path, "multipleOf", "%v is not a multiple of %v", f, *n.multipleOf)
			}
		}
	case []any:
		l := float64(len(x))
		if n.minItems != nil && l < *n.minItems {
			return fail(path, "minItems", "fewer than %v items", *n.minItems)
		}
		if n.maxItems != nil && l > *n.maxItems {
			return fail(path, "maxItems", "more than %v items", *n.maxItems)
		}
		for i, e := range x {
			sub := n.items
			if i < len(n.prefixItems) {
				sub = n.prefixItems[i]
			}
			if sub != nil {
				if err := sub.validate(e, path+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		for _, r := range n.required {
			if _, ok := x[r]; !ok {
				return fail(path+"/"+escapePointer(r), "required", "the required property %q is missing", r)
			}
		}
		for k, e := range x {
			sub, ok := n.properties[k]
			if !ok {
				if n.noAdditional {
					return fail(path+"/"+escapePointer(k), "additionalProperties", "the property %q is not allowed", k)
				}
				continue
			}
			if err := sub.validate(e, path+"/"+escapePointer(k)); err != nil {
				return err
			}
		}
	}
	for _, sub := range n.allOf {
		if err := sub.validate(v, path); err != nil {
			return err
		}
	}
	if n.anyOf != nil {
		var first *InputError
		for _, sub := range n.anyOf {
			err := sub.validate(v, path)
			if err == nil {
				first = nil
				break
			}
			if first == nil {
				first = err
			}
		}
		if first != nil {
			return fail(path, "anyOf", "matches none of the allowed schemas (first: %s)", first.Message)
		}
	}
	if n.oneOf != nil {
		matches := 0
		for _, sub := range n.oneOf {
			if sub.validate(v, path) == nil {
				matches++
			}
		}
		if matches != 1 {
			return fail(path, "oneOf", "matches %d of the schemas; exactly one must match", matches)
		}
	}
	if n.not != nil && n.not.validate(v, path) == nil {
		return fail(path, "not", "matches a schema it must not match")
	}
	return nil
}

func typeMatches(v any, types []string) bool {
	t := jsonvalue.TypeName(v)
	for _, want := range types {
		if want == t || (want == "number" && t == "integer") {
			return true
		}
	}
	return false
}

// jsonvalue.TypeName names v's JSON type; whole numbers are "integer".
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
