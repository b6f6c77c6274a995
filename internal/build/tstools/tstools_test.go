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

// RequireEnv, set to 1 (make ts sets it), runs the tests that need the npm tools (tsc, ESLint,
// Prettier: an npm install the first time, tens of seconds each run); without it they skip, so
// that `go test ./...` stays quick.
const RequireEnv = "WEBMCP_BRIDGE_TS_TESTS"

// setup skips t unless RequireEnv is set; else it installs the tools and gives web/.
func setup(t *testing.T) (context.Context, string) {
	t.Helper()
	if os.Getenv(RequireEnv) != "1" {
		t.Skipf("runs tsc, ESLint and Prettier from npm: make ts runs it (%s=1)", RequireEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	web, err := webDir()
	require.NoError(t, err)
	_, err = tools(ctx, web)
	require.NoError(t, err)
	return ctx, web
}

// TestTypeCheck: the loader's sources pass tsc's strict checks (web/tsconfig.json).
func TestTypeCheck(t *testing.T) {
	ctx, web := setup(t)
	_, err := run(ctx, web, "tsc", "-p", "tsconfig.json")
	require.NoError(t, err)
}

// TestLint: the sources pass ESLint's recommended and typescript-eslint's type-checked rules
// (web/eslint.config.mjs), functions of at most 100 lines among them.
func TestLint(t *testing.T) {
	ctx, web := setup(t)
	_, err := run(ctx, web, "eslint", "--max-warnings", "0", "src", "extension")
	require.NoError(t, err)
}

// TestFormatted: the sources are as Prettier writes them (web/.prettierrc.json: lines of at most
// 120 characters). `go run ./internal/build/tstools format` formats them.
func TestFormatted(t *testing.T) {
	ctx, web := setup(t)
	out, err := run(ctx, web, "prettier", append([]string{"--check"}, formatted...)...)
	require.NoError(t, err, "run go run ./internal/build/tstools format\n%s", out)
	// Prettier leaves long strings and comments as they are: those are wrapped by hand.
	for _, dir := range []string{"src", "extension"} {
		require.NoError(t, filepath.WalkDir(filepath.Join(web, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".ts" ||
				filepath.Base(filepath.Dir(path)) == "generated" {
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
	ctx, web := setup(t)
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
	web := filepath.Join("..", "..", "..", "web", "types")
	files := readTree(t, web)
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
