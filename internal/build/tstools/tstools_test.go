//go:build !js

package main

import (
	"context"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RequireEnv, set to 1 (make ts sets it), runs the test that needs web/'s TypeScript (installed
// by npm ci in web/); without it that test skips, so that `go test ./...` needs no npm.
const RequireEnv = "WEBMCP_BRIDGE_TS_TESTS"

// TestLinesFit: no line of the TypeScript sources, the unit tests among them, is over 120
// characters. Prettier (web/.prettierrc.json, `npm run format:check`) wraps code to that width
// but leaves long strings and comments as they are: those are wrapped by hand.
func TestLinesFit(t *testing.T) {
	web, err := webDir()
	require.NoError(t, err)
	for _, dir := range []string{"src", "extension", "test"} {
		require.NoError(t, filepath.WalkDir(filepath.Join(web, dir), func(path string, d fs.DirEntry, err error) error {
			if d != nil && d.IsDir() && (d.Name() == "generated" || d.Name() == ".out") {
				return filepath.SkipDir
			}
			if err != nil || d.IsDir() || filepath.Ext(path) != ".ts" {
				return err
			}
			b, err := os.ReadFile(path)
			for i, line := range strings.Split(string(b), "\n") {
				if n := utf8.RuneCountInString(line); n > 120 {
					t.Errorf("%s:%d has %d characters (at most 120)", path, i+1, n)
				}
			}
			return err
		}))
	}
}

// TestTypingsAreCurrent: web/types is what tsc makes of the sources now, so the published
// typings cannot drift from the code. `go run ./internal/build/tstools types` writes them.
func TestTypingsAreCurrent(t *testing.T) {
	if os.Getenv(RequireEnv) != "1" {
		t.Skipf("runs tsc from web/node_modules: make ts runs it (%s=1, after npm ci in web/)", RequireEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	web, err := webDir()
	require.NoError(t, err)
	out := t.TempDir()
	require.NoError(t, emitTypings(ctx, web, out))
	want := readTree(t, out)
	got := readTree(t, filepath.Join(web, "types"))
	require.Equal(
		t,
		keys(want),
		keys(got),
		"web/types has other files than tsc makes: run go run ./internal/build/tstools types",
	)
	for name, w := range want {
		require.Equal(t, w, got[name], "web/types/%s is stale: run go run ./internal/build/tstools types", name)
	}
	require.Contains(t, want["entry-module.d.ts"], `from "./types.js"`, "the typings import each other as .js")
}

// TestTypingsArePublicOnly: the published typings are the public entries (publicTypings: the
// package's "." and "./react") and the declarations their types import, no other module of
// web/src (the loader's internals, its captures, its chunks): each file of web/types is reached
// from an entry by a type import.
func TestTypingsArePublicOnly(t *testing.T) {
	web, err := webDir()
	require.NoError(t, err)
	files := readTree(t, filepath.Join(web, "types"))
	reached := map[string]bool{}
	todo := slices.Clone(publicTypings)
	for len(todo) > 0 {
		rel := todo[0]
		todo = todo[1:]
		if reached[rel] {
			continue
		}
		reached[rel] = true
		for _, m := range regexp.MustCompile(`(?:from|import)\s*\(?\s*"(\.{1,2}/[^"]*)\.js"`).
			FindAllStringSubmatch(sideEffectImport.ReplaceAllString(files[rel], ""), -1) {
			todo = append(todo, filepath.ToSlash(filepath.Join(filepath.Dir(rel), m[1]+".d.ts")))
		}
	}
	for name := range files {
		assert.True(t, reached[name], "web/types/%s is published but no public entry's types import it", name)
	}
	for _, entry := range publicTypings {
		assert.Contains(t, files, entry, "a public entry's typings")
	}
	// The module's exports and globals are the loader's business, not a user's: the policy's
	// types come from a generated file of their own (generated/policy.ts), not with them.
	for name, text := range files {
		for _, internal := range []string{"ExportArgs", "EXPORT_NAMES", "GLOBAL_EXPORTS"} {
			assert.NotContains(t, text, internal, "web/types/%s publishes the module's %s", name, internal)
		}
	}
}

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return files
}

func keys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
