// Package checkout finds the files of the repository a test runs in, whatever the depth of its
// package: go test runs a package's tests in the package's directory, so a path spelled
// "../../.." from one package is wrong from another. [Path] is the one helper.
package checkout

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
)

// modulePath is the first line of the repository's go.mod.
const modulePath = "module github.com/webmcp-bridge/webmcp-bridge"

var root = sync.OnceValue(func() string {
	dir, err := os.Getwd()
	if err != nil {
		panic("checkout: " + err.Error())
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if first, _, _ := bytes.Cut(b, []byte("\n")); err == nil && string(bytes.TrimSpace(first)) == modulePath {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			panic("checkout: no go.mod of " + modulePath + " above the working directory")
		}
		dir = parent
	}
})

// Path is the absolute path of a file of the repository, given from its root: Path("web",
// "src") is web/src. Path() is the root. It panics outside the repository.
func Path(elem ...string) string {
	return filepath.Join(append([]string{root()}, elem...)...)
}
