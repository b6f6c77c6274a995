package inputschema_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus.jsonl")

// corpusFile holds every schema the tests of this package compile — the differential test's
// corpus (hand-written and generated, at full size) and the keyword table's cases — one JSON
// text a line, for the tests outside this package that must agree with Compile on the same
// schemas (internal/testing/schemacheck: the page's own check).
const corpusFile = "testdata/corpus.jsonl"

func TestCorpusFileIsCurrent(t *testing.T) {
	var lines []string
	for _, h := range handCorpus {
		lines = append(lines, h.schema)
	}
	lines = append(lines, genSchemas(t, rand.New(rand.NewPCG(8, 9)), generatedSchemas)...)
	for _, k := range keywordCases {
		lines = append(lines, k.schema)
	}
	want := strings.Join(lines, "\n") + "\n"
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(corpusFile), 0o755))
		require.NoError(t, os.WriteFile(corpusFile, []byte(want), 0o644))
	}
	got, err := os.ReadFile(corpusFile)
	require.NoError(t, err, "run go test ./bridge/inputschema -run TestCorpusFileIsCurrent -update")
	require.Equal(t, want, string(got),
		"%s is stale: run go test ./bridge/inputschema -run TestCorpusFileIsCurrent -update", corpusFile)
}
