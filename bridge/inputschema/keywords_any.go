package inputschema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// The keywords that apply to any value: type, const, enum and the combinators.

var jsonTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

func compileType(s *site, v any) (check, error) {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		var err error
		if names, err = s.names("type", t); err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, s.bad("type", "must not be an empty array")
		}
	default:
		return nil, s.bad("type", "must be a type name or a non-empty array of distinct type names")
	}
	for _, t := range names {
		if !slices.Contains(jsonTypes, t) {
			return nil, s.bad("type", fmt.Sprintf("%q is not a JSON Schema type", t))
		}
	}
	want := strings.Join(names, " or ")
	return func(v any, at string) *InputError {
		got := jsonvalue.TypeName(v)
		for _, t := range names {
			if t == got || (t == "number" && got == "integer") {
				return nil
			}
		}
		return fail(at, "type", "expected %s, got %s", want, got)
	}, nil
}

func compileConst(_ *site, want any) (check, error) {
	key := canonical(want)
	return func(v any, at string) *InputError {
		if canonical(v) == key {
			return nil
		}
		return fail(at, "const", "must be %s", jsonvalue.Compact(want))
	}, nil
}

func compileEnum(s *site, v any) (check, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, s.bad("enum", "must be an array")
	}
	allowed := make(map[string]bool, len(list))
	for _, e := range list {
		allowed[canonical(e)] = true
	}
	return func(v any, at string) *InputError {
		if allowed[canonical(v)] {
			return nil
		}
		return fail(at, "enum", "%s is not one of %s", jsonvalue.Compact(v), jsonvalue.Compact(list))
	}, nil
}

// allOf reports the first subschema's error as it is: each of them must hold anyway.
func compileAllOf(s *site, v any) (check, error) {
	subs, err := s.schemas("allOf", v)
	if err != nil {
		return nil, err
	}
	return func(v any, at string) *InputError {
		for _, sub := range subs {
			if e := sub.validate(v, at); e != nil {
				return e
			}
		}
		return nil
	}, nil
}

func compileAnyOf(s *site, v any) (check, error) {
	subs, err := s.schemas("anyOf", v)
	if err != nil {
		return nil, err
	}
	return func(v any, at string) *InputError {
		var first *InputError
		for _, sub := range subs {
			e := sub.validate(v, at)
			if e == nil {
				return nil
			}
			if first == nil {
				first = e
			}
		}
		return fail(at, "anyOf", "matches none of the allowed schemas (first: %s)", first.Message)
	}, nil
}

func compileOneOf(s *site, v any) (check, error) {
	subs, err := s.schemas("oneOf", v)
	if err != nil {
		return nil, err
	}
	return func(v any, at string) *InputError {
		matches := 0
		for _, sub := range subs {
			if sub.validate(v, at) == nil {
				matches++
			}
		}
		if matches == 1 {
			return nil
		}
		return fail(at, "oneOf", "matches %d of the schemas; exactly one must match", matches)
	}, nil
}

func compileNot(s *site, v any) (check, error) {
	sub, err := s.schema("not", v)
	if err != nil {
		return nil, err
	}
	return func(v any, at string) *InputError {
		if sub.validate(v, at) != nil {
			return nil
		}
		return fail(at, "not", "matches a schema it must not match")
	}, nil
}
