//go:build !js

package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// exported is a top-level export of a declaration in TypeScript, with its name.
var exported = regexp.MustCompile(`(?m)^export (?:declare )?(?:async )?` +
	`(?:const|let|function\*?|class|interface|type|enum) ([A-Za-z_$][\w$]*)`)

// identifier is a word of TypeScript or Go source, as an export's name is.
var identifier = regexp.MustCompile(`[A-Za-z_$][\w$]*`)

// publicEntries are the files whose exports are the package's API (package.json's exports and
// the types entry-module re-exports): their exports are for importers, used here or not.
var publicEntries = map[string]bool{
	"entry-module.ts": true, "react.ts": true, "types.ts": true, "render.ts": true, "page-link.ts": true,
}

// TestNoExportUsedOnlyInItsFile: every export of web/src is used by another file — of web/src,
// of the extension, of the unit tests (web/test) or of the Go tests that bundle web/src modules — so that nothing a file keeps
// to itself reaches the published typings (web/types) as if it were part of the package.
func TestNoExportUsedOnlyInItsFile(t *testing.T) {
	web, err := webDir()
	require.NoError(t, err)
	root := filepath.Dir(web)
	sources := map[string]string{} // path → text: web/src, web/extension, web/test, the Go tests' bundled runners
	internal := filepath.Join(root, "internal")
	for _, dir := range []string{filepath.Join(web, "src"), filepath.Join(web, "extension"), filepath.Join(web, "test"), internal} {
		require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				if d != nil && (d.Name() == "node_modules" || d.Name() == ".out") {
					return filepath.SkipDir
				}
				return err
			}
			ext := filepath.Ext(path)
			if ext == ".ts" || ext == ".tsx" || ext == ".go" && strings.HasPrefix(path, internal) {
				b, err := os.ReadFile(path)
				sources[path] = string(b)
				return err
			}
			return nil
		}))
	}
	words := map[string]map[string]bool{} // path → the identifiers its text has
	for path, text := range sources {
		words[path] = map[string]bool{}
		for _, w := range identifier.FindAllString(text, -1) {
			words[path][w] = true
		}
	}
	src := filepath.Join(web, "src")
	for path, text := range sources {
		rel, err := filepath.Rel(src, path)
		if err != nil || strings.HasPrefix(rel, "..") || publicEntries[rel] || filepath.Ext(path) == ".go" {
			continue
		}
		for _, m := range exported.FindAllStringSubmatch(text, -1) {
			name := m[1]
			used := false
			for other := range sources {
				if other != path && words[other][name] {
					used = true
					break
				}
			}
			if !used {
				t.Errorf("web/src/%s exports %s, which no other file uses: keep it to its file", filepath.ToSlash(rel), name)
			}
		}
	}
}

// importFrom is an import or re-export of another module of web/src, types only or not.
var importFrom = regexp.MustCompile(`(?m)^(?:import|export)\b[^;]*?from "\./([\w./-]+\.ts)"` +
	`|^import "\./([\w./-]+\.ts)"`)

// TestNoImportCycle: the modules of web/src import each other without a circle (type-only
// imports count: a circle of types is a circle of concerns), so each can be read, tested and
// split off on its own.
func TestNoImportCycle(t *testing.T) {
	web, err := webDir()
	require.NoError(t, err)
	src := filepath.Join(web, "src")
	imports := map[string][]string{}
	require.NoError(t, filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".ts" {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(src, path)
		for _, m := range importFrom.FindAllStringSubmatch(string(b), -1) {
			to := filepath.ToSlash(filepath.Join(filepath.Dir(rel), m[1]+m[2]))
			imports[filepath.ToSlash(rel)] = append(imports[filepath.ToSlash(rel)], to)
		}
		return err
	}))
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(m string)
	visit = func(m string) {
		switch state[m] {
		case open:
			i := slices.Index(path, m)
			t.Errorf("web/src has an import circle: %s", strings.Join(append(slices.Clone(path[i:]), m), " → "))
			return
		case done:
			return
		}
		state[m] = open
		path = append(path, m)
		for _, to := range imports[m] {
			visit(to)
		}
		path = path[:len(path)-1]
		state[m] = done
	}
	for _, m := range slices.Sorted(maps.Keys(imports)) {
		visit(m)
	}
}
