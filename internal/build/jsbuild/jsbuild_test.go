package main

import (
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/build/budget"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// wasmExec is the wasm_exec.js of the Go running the tests.
func wasmExec(t *testing.T) string {
	t.Helper()
	root, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	return filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js")
}

func outfiles(bs []build) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.outfile)
	}
	return out
}

// TestPlan: each kind of build writes the files its users load, and no other.
func TestPlan(t *testing.T) {
	loader := []string{"webmcp-bridge.js", "webmcp-bridge.mjs", "webmcp-bridge-worker.js"}
	chunkFiles := []string{
		"webmcp-bridge-patterns.mjs", "webmcp-bridge-schema.js", "webmcp-bridge-forms.js", "webmcp-bridge-frames.js",
	}
	rest := []string{"webmcp-bridge-extension.js", "render.js", "render.mjs", "webmcp-bridge-content.mjs",
		"webmcp-bridge-content.js", "webmcp-bridge-react.mjs", "nuxt.mjs"}
	for _, c := range []struct {
		name string
		o    options
		want []string
	}{
		{"shipped", options{}, append(append(append([]string{}, loader...), chunkFiles...), rest...)},
		{"test", options{test: true}, append(append([]string{}, loader...), chunkFiles...)},
		{"webmcp-mcp's", options{rawResults: true}, append(append([]string{}, loader...), rest...)},
		{"extension", options{extension: true}, []string{"relay.js", "panel.js", "background.js", "dist/webmcp-bridge.js"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs := plan(c.o)
			assert.Equal(t, c.want, outfiles(bs))
			for _, b := range bs[1:] {
				assert.False(t, b.chunked, "%s: only the script a page loads fetches chunks", b.outfile)
			}
			assert.Equal(t, !c.o.rawResults && !c.o.extension, bs[0].chunked, "the page's script fetches its chunks")
		})
	}
}

// TestBuild builds web/src as make build does: every file with its source map and the version,
// each script chunk wrapped to hand itself to the loader, the loader within its budget.
func TestBuild(t *testing.T) {
	out := t.TempDir()
	o := options{src: checkout.Path("web", "src"), out: out, version: "9.8.7", wasmExec: wasmExec(t)}
	require.NoError(t, run(o))
	for _, b := range plan(o) {
		data, err := os.ReadFile(filepath.Join(out, b.outfile))
		require.NoError(t, err)
		assert.FileExists(t, filepath.Join(out, b.outfile+".map"))
		text := string(data)
		assert.True(t, strings.HasPrefix(text, "/* webmcp-bridge 9.8.7: see README.md. */"), b.outfile)
		assert.NotContains(t, text, versionPlaceholder, b.outfile)
		if b.chunk {
			assert.True(t, strings.HasPrefix(text, "/* webmcp-bridge 9.8.7: see README.md. */"+chunkWrap[0]), b.outfile)
			assert.Contains(t, text, chunkWrap[1]+"\n//# sourceMappingURL="+b.outfile+".map", b.outfile)
		}
	}
	script, err := os.ReadFile(filepath.Join(out, "webmcp-bridge.js"))
	require.NoError(t, err)
	for _, c := range chunks {
		assert.Contains(t, string(script), c.outfile, "the script names the chunk it fetches")
	}
	// esbuild adds __require and __toESM to a script for an external import() written as a
	// literal, where nothing calls them: every page would pay for them (chunk.ts's importChunk).
	assert.NotContains(t, string(script), "Dynamic require of", "the script carries esbuild's unused require helpers")
}

// TestChunkMustNotCarryLoaderState: a chunk that imports the loader's captures (or its state)
// would take them anew, from a page that may have patched what they capture: the build refuses.
func TestChunkMustNotCarryLoaderState(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(src, "builtins.ts"), []byte("export const apply = Reflect.apply;\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "chunk-bad.ts"),
		[]byte("import { apply } from \"./builtins.ts\";\n__webmcpChunkGive(apply);\n"), 0o644))
	o := options{src: src, out: t.TempDir(), version: "1.0.0"}
	errs := esbuild(build{entry: "chunk-bad.ts", outfile: "bad.js", chunk: true}, o)
	require.Len(t, errs, 1)
	assert.ErrorContains(t, errs[0], "bad.js must not carry")
	assert.ErrorContains(t, errs[0], "builtins.ts")
}

// TestLoaderBudget: a loader over budget.LoaderGzip, gzip -9, fails the build and says by how much.
func TestLoaderBudget(t *testing.T) {
	dir := t.TempDir()
	big := make([]byte, budget.LoaderGzip+100) // random bytes do not compress
	_, _ = rand.Read(big)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.js"), big, 0o644))
	err := checkLoaderBudget(dir, "big.js")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "big.js is ")
	assert.Contains(t, err.Error(), "move code a page may not need into a chunk")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "small.js"), []byte("console.log(1)"), 0o644))
	assert.NoError(t, checkLoaderBudget(dir, "small.js"))
}

// TestSourceSizes: -sizes prints what each source weighs in the file it names, heaviest first,
// and their sum.
func TestSourceSizes(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(src, "heavy.ts"),
		[]byte("export const words = "+strings.Repeat("\"a long string \" + ", 40)+"\"\";\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "entry.ts"),
		[]byte("import { words } from \"./heavy.ts\";\nconsole.log(words);\n"), 0o644))
	o := options{src: src, out: t.TempDir(), version: "1.0.0", sizes: "entry.js"}
	r, w, err := os.Pipe()
	require.NoError(t, err)
	stdout := os.Stdout
	os.Stdout = w
	errs := esbuild(build{entry: "entry.ts", outfile: "entry.js"}, o)
	os.Stdout = stdout
	require.NoError(t, w.Close())
	require.Empty(t, errs)
	printed, err := io.ReadAll(r)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(printed)), "\n")
	require.Len(t, lines, 3, "%s", printed)
	assert.True(t, strings.HasSuffix(lines[0], "heavy.ts"), "the heaviest first: %s", printed)
	assert.True(t, strings.HasSuffix(lines[1], "entry.ts"), "%s", printed)
	var heavy, entry, total int
	_, err = fmt.Sscan(lines[0], &heavy)
	require.NoError(t, err)
	_, err = fmt.Sscan(lines[1], &entry)
	require.NoError(t, err)
	_, err = fmt.Sscan(lines[2], &total)
	require.NoError(t, err)
	assert.Greater(t, heavy, 40*len("a long string "), "the string is in the output whole")
	assert.Equal(t, heavy+entry, total)
	assert.Contains(t, lines[2], "entry.js, from its sources")
}

// TestUsage: the flags the build cannot run without are usage errors (exit status 2).
func TestUsage(t *testing.T) {
	var usage usageError
	assert.ErrorAs(t, run(options{wasmExec: wasmExec(t)}), &usage)
	assert.ErrorAs(t, run(options{version: "1.0.0", wasmExec: filepath.Join(t.TempDir(), "none.js")}), &usage)
	assert.ErrorAs(t, run(options{version: "1.0.0", wasmExec: wasmExec(t), sizes: "none.js"}), &usage,
		"-sizes names a file the run does not build")
}
