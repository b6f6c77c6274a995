package inputschema

import "github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"

// The keywords that constrain numbers, compared exactly (see jsonvalue.Decimal).

// bound compiles minimum, maximum, exclusiveMinimum or exclusiveMaximum: pass says which
// results of comparing the value with the limit are allowed, verb how the others are told.
func bound(keyword, verb string, pass func(cmp int) bool) compileFunc {
	return func(s *site, v any) (check, error) {
		limit, err := s.number(keyword, v)
		if err != nil {
			return nil, err
		}
		return func(v any, at string, b *budget) *InputError {
			if x, ok := jsonvalue.NumberOf(v); ok && !pass(x.Cmp(limit)) {
				return fail(at, keyword, "%s is %s %s", x.Text(), verb, limit.Text())
			}
			return nil
		}, nil
	}
}

func compileMultipleOf(s *site, v any) (check, error) {
	m, err := s.number("multipleOf", v) // checkValue has checked that m > 0
	if err != nil {
		return nil, err
	}
	return func(v any, at string, b *budget) *InputError {
		if x, ok := jsonvalue.NumberOf(v); ok && !x.IsMultipleOf(m) {
			return fail(at, "multipleOf", "%s is not a multiple of %s", x.Text(), m.Text())
		}
		return nil
	}, nil
}
