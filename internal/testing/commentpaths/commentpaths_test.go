package commentpaths

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoPath is a path that starts at one of the repository's top-level folders, as comments
// write them ("wasm/module.go", "web/src/results.ts:42", "web/src/entry-*.ts"). It must not be
// part of a longer path or a URL, and ends with a letter, digit, underscore or * (so
// "bridge/<wire>/" is not one).
var repoPath = regexp.MustCompile(`(?:^|[^\w./@-])((?:bridge|sanitize|wasm|web|cmd|internal|docs|mk)/[\w./@*-]*[\w*])`)

// scriptComment is a comment in TypeScript, JavaScript or CSS.
var scriptComment = regexp.MustCompile(`(?s)/\*.*?\*/|(?m)(?:^|[^:"'\x60\\])//[^\n]*`)

// shellComment is a comment in a Makefile.
var shellComment = regexp.MustCompile(`(?m)#[^\n]*`)

// built are folders the build writes and git ignores: a comment may name what is in them.
var built = []string{"web/dist/", "web/node_modules/", ".cache/", "out/"}

// TestCommentsNamePathsThatExist: every repository path named in a comment of the Go, the
// TypeScript and JavaScript, the CSS or the Makefiles is a file or folder of the repository.
func TestCommentsNamePathsThatExist(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "node_modules" || ignored(rel+"/") {
				return filepath.SkipDir
			}
			return nil
		}
		for _, named := range namedPaths(t, path) {
			if ignored(named) {
				continue
			}
			if found, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(named))); len(found) == 0 {
				t.Errorf("%s: a comment names %s, which is not in the repository", rel, named)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func ignored(rel string) bool {
	for _, b := range built {
		if strings.HasPrefix(rel+"/", b) {
			return true
		}
	}
	return false
}

// namedPaths lists the repository paths named in the comments of the file at path.
func namedPaths(t *testing.T, path string) []string {
	var comments []string
	switch ext := filepath.Ext(path); {
	case ext == ".go":
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil // testdata holds Go that does not parse; the build checks the rest
		}
		for _, g := range f.Comments {
			comments = append(comments, g.Text())
		}
	case ext == ".ts" || ext == ".tsx" || ext == ".js" || ext == ".mjs" || ext == ".css":
		comments = scriptComment.FindAllString(read(t, path), -1)
	case ext == ".mk" || filepath.Base(path) == "Makefile":
		comments = shellComment.FindAllString(read(t, path), -1)
	}
	var named []string
	for _, c := range comments {
		for _, m := range repoPath.FindAllStringSubmatch(c, -1) {
			named = append(named, strings.TrimRight(m[1], "."))
		}
	}
	return named
}

func read(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
