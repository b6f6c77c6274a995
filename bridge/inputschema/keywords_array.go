package inputschema

// The keywords that constrain arrays, but for their size (keywords_size.go).

func compileUniqueItems(_ *site, v any) (check, error) {
	if v == false {
		return nil, nil
	}
	return func(v any, at string, b *budget) *InputError {
		x, _ := v.([]any)
		seen := make(map[string]int, len(x))
		for i, e := range x {
			key := canonical(e)
			if j, dup := seen[key]; dup {
				return fail(at, "uniqueItems", "items %d and %d are equal", j, i)
			}
			seen[key] = i
		}
		return nil
	}, nil
}

// prefixItems checks the first items, one schema each.
func compilePrefixItems(s *site, v any) (check, error) {
	subs, err := s.schemas("prefixItems", v)
	if err != nil {
		return nil, err
	}
	return func(v any, at string, b *budget) *InputError {
		x, _ := v.([]any)
		for i := 0; i < len(x) && i < len(subs); i++ {
			if e := subs[i].validate(x[i], b.index(at, i), b); e != nil {
				return e
			}
		}
		return nil
	}, nil
}

// items checks the items after those prefixItems covers; items: false forbids them.
func compileItems(s *site, v any) (check, error) {
	sub, err := s.schema("items", v)
	if err != nil || sub.acceptsAll() {
		return nil, err
	}
	prefix, _ := s.obj["prefixItems"].([]any)
	skip := len(prefix)
	return func(v any, at string, b *budget) *InputError {
		x, _ := v.([]any)
		for i := skip; i < len(x); i++ {
			if sub.never {
				return fail(b.index(at, i), "items", "no item is allowed beyond the first %d", skip)
			}
			if e := sub.validate(x[i], b.index(at, i), b); e != nil {
				return e
			}
		}
		return nil
	}, nil
}

// countOnly compiles minContains and maxContains: contains reads them, and alone they
// constrain nothing, so only their value is checked.
func countOnly() compileFunc {
	return func(*site, any) (check, error) {
		return nil, nil // checkValue has checked the count
	}
}

// contains needs between minContains (1 by default) and maxContains items that match.
func compileContains(s *site, v any) (check, error) {
	sub, err := s.schema("contains", v)
	if err != nil {
		return nil, err
	}
	low, high := 1, -1
	if m, ok := s.obj["minContains"]; ok {
		if low, err = s.count("minContains", m); err != nil {
			return nil, err
		}
	}
	if m, ok := s.obj["maxContains"]; ok {
		if high, err = s.count("maxContains", m); err != nil {
			return nil, err
		}
	}
	return func(v any, at string, b *budget) *InputError {
		x, ok := v.([]any)
		if !ok {
			return nil
		}
		matches := 0
		for _, e := range x {
			if sub.validate(e, at, b) == nil {
				matches++
			}
		}
		switch {
		case matches < low && low == 1:
			return fail(at, "contains", "no item matches the contains schema")
		case matches < low:
			return fail(at, "minContains", "%d items match the contains schema; at least %d must", matches, low)
		case high >= 0 && matches > high:
			return fail(at, "maxContains", "%d items match the contains schema; at most %d may", matches, high)
		}
		return nil
	}, nil
}
