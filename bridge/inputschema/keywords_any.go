package inputschema

import (
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// The keywords that apply to any value: type, const, enum and the combinators.

var jsonTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

// compileType: checkTypes has checked the names.
func compileType(s *site, v any) (check, error) {
	names := []string{}
	if t, one := v.(string); one {
		names = append(names, t)
	} else {
		names, _ = s.names("type", v)
	}
	want := strings.Join(names, " or ")
	return func(v any, at string, b *budget) *InputError {
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
	return func(v any, at string, b *budget) *InputError {
		if canonical(v) == key {
			return nil
		}
		return fail(at, "const", "must be %s", jsonvalue.Compact(want))
	}, nil
}

func compileEnum(_ *site, v any) (check, error) {
	list := v.([]any)
	allowed := make(map[string]bool, len(list))
	for _, e := range list {
		allowed[canonical(e)] = true
	}
	return func(v any, at string, b *budget) *InputError {
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
	return func(v any, at string, b *budget) *InputError {
		for _, sub := range subs {
			if e := sub.validate(v, at, b); e != nil {
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
	return func(v any, at string, b *budget) *InputError {
		var first *InputError
		for _, sub := range subs {
			e := sub.validate(v, at, b)
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
	return func(v any, at string, b *budget) *InputError {
		matches := 0
		for _, sub := range subs {
			if sub.validate(v, at, b) == nil {
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
	return func(v any, at string, b *budget) *InputError {
		if sub.validate(v, at, b) != nil {
			return nil
		}
		return fail(at, "not", "matches a schema it must not match")
	}, nil
}
