package inputschema

import (
	"slices"
	"sort"
)

// The keywords that constrain objects, but for their size (keywords_size.go). Members are
// visited in name order, so the error reported for arguments with several problems is always
// the same one.

func compileRequired(s *site, v any) (check, error) {
	names, err := s.names("required", v)
	if err != nil {
		return nil, err
	}
	return func(v any, at string, b *budget) *InputError {
		x, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for _, r := range names {
			if _, ok := x[r]; !ok {
				return fail(at+"/"+escapePointer(r), "required", "the required property %q is missing", r)
			}
		}
		return nil
	}, nil
}

// properties checks each named member that is present; a member whose schema is false must
// be absent.
func compileProperties(s *site, v any) (check, error) {
	props := v.(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Sort(sort.StringSlice(names)) // the first bad member in name order is the one reported
	subs := make(map[string]*node, len(props))
	for _, name := range names {
		n, err := s.schema("properties/"+escapePointer(name), props[name])
		if err != nil {
			return nil, err
		}
		subs[name] = n
	}
	return func(v any, at string, b *budget) *InputError {
		x, _ := v.(map[string]any)
		for _, name := range names {
			e, present := x[name]
			if !present {
				continue
			}
			if subs[name].never {
				return fail(at+"/"+escapePointer(name), "properties", "the property %q is not allowed", name)
			}
			if err := subs[name].validate(e, at+"/"+escapePointer(name), b); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// additionalProperties: the subset has only false, no members but those properties names.
// true and schemas are refused, as WebMCP's conformance tests expect of registerTool.
func compileAdditionalProperties(s *site, _ any) (check, error) {
	known, _ := s.obj["properties"].(map[string]any)
	return func(v any, at string, b *budget) *InputError {
		x, _ := v.(map[string]any)
		var extra []string
		for k := range x {
			if _, ok := known[k]; !ok {
				extra = append(extra, k)
			}
		}
		if len(extra) == 0 {
			return nil
		}
		k := slices.Min(extra)
		return fail(at+"/"+escapePointer(k), "additionalProperties", "the property %q is not allowed", k)
	}, nil
}
