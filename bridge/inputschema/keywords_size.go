package inputschema

import (
	"cmp"
	"unicode/utf8"
)

// The keywords that bound a size: minLength and maxLength, minItems and maxItems,
// minProperties and maxProperties.

// sizeOf measures the values a size keyword applies to; ok is false for the others.
type sizeOf func(v any) (n int, ok bool)

// stringSize counts code points, as JSON Schema does (not bytes, not UTF-16 units).
func stringSize(v any) (int, bool) {
	x, ok := v.(string)
	return utf8.RuneCountInString(x), ok
}

func arraySize(v any) (int, bool) {
	x, ok := v.([]any)
	return len(x), ok
}

func objectSize(v any) (int, bool) {
	x, ok := v.(map[string]any)
	return len(x), ok
}

// sizeBound compiles a lower (beyond = -1) or upper (beyond = +1) bound on a size; message
// says what is wrong, with %d for the bound.
func sizeBound(keyword string, size sizeOf, beyond int, message string) compileFunc {
	return func(s *site, v any) (check, error) {
		limit, err := s.count(keyword, v)
		if err != nil {
			return nil, err
		}
		return func(v any, at string, b *budget) *InputError {
			if n, ok := size(v); ok && cmp.Compare(n, limit) == beyond {
				return fail(at, keyword, message, limit)
			}
			return nil
		}, nil
	}
}
