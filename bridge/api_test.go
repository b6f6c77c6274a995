package bridge_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// TestNoInternalTypeInPublicAPI: an importer can call everything the public packages export —
// no exported function, method, type, field, variable or constant names a type from internal/ —
// and go doc shows every exported constant's value, not the name of an internal one.
func TestNoInternalTypeInPublicAPI(t *testing.T) {
	for _, dir := range []string{".", "mcpwire", "inputschema", "mcpsdk", "pagetext", "../sanitize"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, where := range internalUses(f) {
				t.Errorf("%s: %s", name, where)
			}
		}
	}
}

// internalUses lists the exported declarations of f whose signature names a package under
// internal/.
func internalUses(f *ast.File) []string {
	internal := map[string]bool{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if !strings.Contains(path, "/internal/") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		internal[name] = true
	}
	if len(internal) == 0 {
		return nil
	}
	names := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] {
					found = true
				}
			}
			return !found
		})
		return found
	}
	var uses []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || receiverExported(d.Recv)) && names(d.Type) {
				uses = append(uses, "func "+d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && exportedPartNames(s.Type, names) {
						uses = append(uses, "type "+s.Name.Name)
					}
				case *ast.ValueSpec:
					for i, n := range s.Names {
						if n.IsExported() && s.Type != nil && names(s.Type) {
							uses = append(uses, "var or const "+n.Name)
						}
						// go doc shows a constant's value as written: internal.X tells nothing.
						if n.IsExported() && d.Tok == token.CONST && i < len(s.Values) && names(s.Values[i]) {
							uses = append(uses, "the value of const "+n.Name)
						}
					}
				}
			}
		}
	}
	return uses
}

func receiverExported(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if idx, ok := t.(*ast.IndexExpr); ok {
		t = idx.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// exportedPartNames applies names to what an importer sees of a type: a struct's exported
// fields, an interface's exported methods, any other type whole.
func exportedPartNames(t ast.Expr, names func(ast.Node) bool) bool {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return names(t)
	}
	for _, f := range fields.List {
		exported := len(f.Names) == 0 // embedded
		for _, n := range f.Names {
			exported = exported || n.IsExported()
		}
		if exported && names(f.Type) {
			return true
		}
	}
	return false
}

// TestAppendJSONAppends: each public AppendJSON appends what MarshalJSON writes.
func TestAppendJSONAppends(t *testing.T) {
	r, vs := bridge.Normalize([]any{"a", map[string]any{"type": "link", "url": "https://example.com/"}},
		bridge.DefaultPolicy())
	type both interface {
		MarshalJSON() ([]byte, error)
		AppendJSON([]byte) ([]byte, error)
	}
	values := []both{
		r, bridge.DefaultPolicy(), bridge.ToModelInput(r), bridge.Violation{Item: 1, Type: "x"}, r.Content[0], r.Content[1],
	}
	for _, v := range vs {
		values = append(values, v)
	}
	for _, v := range values {
		want, err := v.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.AppendJSON([]byte("prefix"))
		if err != nil || string(got) != "prefix"+string(want) {
			t.Errorf("%T.AppendJSON = %q, %v; want prefix%s", v, got, err, want)
		}
	}
}

// publicPackages are the packages an importer of the module may use.
var publicPackages = []string{
	"bridge", "bridge/inputschema", "bridge/mcpsdk", "bridge/mcpwire", "bridge/pagetext", "sanitize",
}

// TestPublicAPI: the public API is what testdata/api.txt says — go doc -short of each public
// package — so a change to it shows in review as a change to that file (go test -run
// TestPublicAPI -update ./bridge/ rewrites it). It holds one HTML entry point per result shape
// in sanitize, and none of the seams the WebAssembly module and webmcp-mcp use (those are under
// internal/).
func TestPublicAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go doc")
	}
	var got strings.Builder
	for _, pkg := range publicPackages {
		path := "github.com/webmcp-bridge/webmcp-bridge/" + pkg
		out, err := exec.Command("go", "doc", "-short", path).CombinedOutput()
		if err != nil {
			t.Fatalf("go doc -short %s: %v\n%s", path, err, out)
		}
		fmt.Fprintf(&got, "== %s\n%s", path, out)
	}
	golden := filepath.Join("testdata", "api.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, string(want), got.String(), "the public API changed: review it, then run with -update")
}
