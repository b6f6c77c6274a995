package inputschema

import (
	"fmt"
	"math"
	"strconv"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// site is the schema object being compiled: its path, for errors, and its members, for the
// few keywords that read a sibling (items after prefixItems, additionalProperties after
// properties, contains with minContains and maxContains).
//
// Its readers check a keyword's value as the draft 2020-12 meta-schema requires.
type site struct {
	obj  map[string]any
	path string
}

// bad is the SchemaError for keyword k.
func (s *site) bad(k, reason string) error {
	return &SchemaError{Path: s.path + "/" + k, Reason: reason}
}

// schema compiles the subschema v found at k (a keyword, or a keyword and a member or index).
func (s *site) schema(k string, v any) (*node, error) {
	return compileSchema(v, s.path+"/"+k)
}

// schemas reads a non-empty array of schemas.
func (s *site) schemas(k string, v any) ([]*node, error) {
	if err := s.checkValue(k, shapeSchemas, v); err != nil {
		return nil, err
	}
	list := v.([]any)
	out := make([]*node, len(list))
	for i, sub := range list {
		n, err := s.schema(k+"/"+strconv.Itoa(i), sub)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// count reads a non-negative integer (2.0 and 1e2 are integers); values beyond int are
// clamped, as no string, array or object is that long.
func (s *site) count(k string, v any) (int, error) {
	if err := s.checkValue(k, shapeCount, v); err != nil {
		return 0, err
	}
	d, _ := jsonvalue.NumberOf(v)
	n, fits := d.Int64()
	if !fits || n > math.MaxInt {
		return math.MaxInt, nil // more than 18 digits, or more than a 32-bit int holds
	}
	return int(n), nil
}

// number reads a number.
func (s *site) number(k string, v any) (jsonvalue.Decimal, error) {
	d, ok := jsonvalue.NumberOf(v)
	if !ok {
		return jsonvalue.Decimal{}, s.bad(k, msgNumber)
	}
	return d, nil
}

// names reads an array of distinct strings.
func (s *site) names(k string, v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, s.bad(k, msgNames)
	}
	out := make([]string, len(list))
	seen := make(map[string]bool, len(list))
	for i, e := range list {
		name, ok := e.(string)
		if !ok {
			return nil, s.bad(k, msgNames)
		}
		if seen[name] {
			return nil, s.bad(k, fmt.Sprintf(msgTwice, name))
		}
		seen[name] = true
		out[i] = name
	}
	return out, nil
}

// escapePointer escapes a member name for a JSON Pointer.
func escapePointer(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}
