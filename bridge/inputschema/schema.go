package inputschema

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// Schema is a tool's inputSchema, checked against the subset and ready to validate arguments.
// It is immutable: one Schema may validate calls concurrently.
type Schema struct {
	root *node
}

// node is one compiled schema (the root or a subschema).
type node struct {
	checks []check // one per enforced keyword present, in table order
	never  bool    // the schema false: no value is valid
}

// check validates one keyword against the value found at the instance path at.
type check func(v any, at string, b *budget) *InputError

// Compile checks a decoded inputSchema against the subset and compiles it. nil means no
// inputSchema: every value passes (WebMCP arguments are always an object). The error is a
// *SchemaError that says where and why, as the TypeError registerTool rejects with.
func Compile(v any) (*Schema, error) {
	if v == nil {
		return &Schema{root: &node{}}, nil
	}
	root, err := compileSchema(v, "")
	if err != nil {
		return nil, err
	}
	return &Schema{root: root}, nil
}

// CompileJSON is Compile for JSON text; empty text means no inputSchema.
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

// Validate checks decoded arguments (nil counts as {}, as executeTool's missing input does)
// and returns the first *InputError, keywords taken in table order.
func (s *Schema) Validate(args any) error {
	if args == nil {
		args = map[string]any{}
	}
	b := &budget{left: MaxPatternWork}
	e := s.root.validate(args, "", b)
	if b.refused != nil {
		return b.refused // whatever the keywords around it made of the refused check
	}
	if e != nil {
		return e
	}
	return nil
}

// budget is what one validation may still spend on pattern checks (see MaxPatternWork). Once a
// check would go over it, the check is refused, not run, and so is every later one: the
// validation fails with the first refusal even where not, anyOf, oneOf or contains would have
// made a failed check pass.
type budget struct {
	left    int
	refused *InputError
}

// spend takes the work of checking n bytes against a pattern of repetition product rep, or
// reports the refusal when the budget cannot pay for it.
func (b *budget) spend(n, rep int, at, src string) *InputError {
	if work := n * rep; b.refused == nil && work <= b.left {
		b.left -= work
		return nil
	}
	if b.refused == nil {
		b.refused = fail(at, "pattern", msgPatternWork, n, src, rep, MaxPatternWork)
	}
	return b.refused
}

// ValidateJSON is Validate for JSON text; empty text and null count as {}.
func (s *Schema) ValidateJSON(b []byte) error {
	if strings.TrimSpace(string(b)) == "" {
		return s.Validate(nil)
	}
	v, err := jsonvalue.DecodeKeepingLoneSurrogates(b)
	if err != nil {
		return &InputError{Path: "", Reason: "type", SchemaPath: "/type", Message: err.Error()}
	}
	if e := loneSurrogate(v, ""); e != nil {
		return e
	}
	return s.Validate(v)
}

// loneSurrogate refuses arguments that hold a lone surrogate (a "\ud800" escape without its
// pair) in a string or a member name, found at the instance path at. JavaScript strings can
// hold one; UTF-8, Go and MCP cannot: read as U+FFFD, "ok\ud800" would pass enum ["ok\ufffd"]
// while execute got the original, and two different names would count as one. The tool gets
// exactly what was validated, or nothing.
func loneSurrogate(v any, at string) *InputError {
	bad := func(at string) *InputError {
		return &InputError{Path: at, Reason: "loneSurrogate", Message: msgLoneSurrogate}
	}
	switch x := v.(type) {
	case string:
		if !utf8.ValidString(x) {
			return bad(at)
		}
	case []any:
		for i, e := range x {
			if err := loneSurrogate(e, at+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) {
				return bad(at + "/" + escapePointer(strings.ToValidUTF8(k, "\ufffd")))
			}
			if err := loneSurrogate(e, at+"/"+escapePointer(k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// ValidateJSONWithin is ValidateJSON for arguments of at most maxBytes bytes (0: no limit):
// longer ones are refused before they are read, with an InputError whose reason is
// "maxArgumentBytes", the policy setting that holds the limit.
func (s *Schema) ValidateJSONWithin(b []byte, maxBytes int) error {
	if maxBytes > 0 && len(b) > maxBytes {
		return &InputError{Reason: "maxArgumentBytes", Message: fmt.Sprintf(msgArgumentBytes, len(b), maxBytes)}
	}
	return s.ValidateJSON(b)
}

// validate returns the first error of v, found at the instance path at, or nil.
func (n *node) validate(v any, at string, b *budget) *InputError {
	if n.never {
		return fail(at, "false", "no value is allowed here")
	}
	for _, c := range n.checks {
		if e := c(v, at, b); e != nil {
			return e
		}
	}
	return nil
}

// acceptsAll reports whether n is true or {}: applying it is a no-op.
func (n *node) acceptsAll() bool { return !n.never && len(n.checks) == 0 }

// compileSchema compiles a schema found at the schema path path: an object or a boolean.
func compileSchema(v any, path string) (*node, error) {
	switch x := v.(type) {
	case bool:
		return &node{never: !x}, nil
	case map[string]any:
		return compileObject(x, path)
	}
	return nil, &SchemaError{Path: path, Reason: fmt.Sprintf(msgNotASchema, jsonvalue.TypeName(v))}
}

// compileObject looks every member of a schema object up in the keyword table: enforced
// keywords become checks, annotations are skipped, anything else is refused. Members are
// taken in name order so that the error for a schema with several problems is always the same.
func compileObject(m map[string]any, path string) (*node, error) {
	s := &site{obj: m, path: path}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Sort(sort.StringSlice(names)) // not slices.Sort, whose copy for strings the module would add
	slots := make([]check, len(keywords))
	for _, k := range names {
		i, known := keywordIndex[k]
		if !known {
			return nil, s.bad(k, fmt.Sprintf(msgUnknown, k))
		}
		switch kw := keywords[i]; kw.kind {
		case excluded:
			return nil, s.bad(k, fmt.Sprintf(msgExcluded, kw.why))
		case refused:
			return nil, s.bad(k, kw.why)
		case enforced:
			if err := s.checkValue(k, kw.value, m[k]); err != nil {
				return nil, err
			}
			c, err := kw.compile(s, m[k])
			if err != nil {
				return nil, err
			}
			slots[i] = c
		}
	}
	n := &node{}
	for _, c := range slots {
		if c != nil {
			n.checks = append(n.checks, c)
		}
	}
	return n, nil
}
