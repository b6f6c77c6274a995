package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// TestNoticesCoverBuildList: THIRD_PARTY_NOTICES is what the generator writes from the
// module's build list now, so a dependency added (or updated) without its notice fails here:
// run `go run ./internal/build/notices` to regenerate it.
func TestNoticesCoverBuildList(t *testing.T) {
	repo := checkout.Path()
	want, err := notices(repo)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(repo, "THIRD_PARTY_NOTICES"))
	if err != nil {
		t.Fatalf("THIRD_PARTY_NOTICES is missing: run `go run ./internal/build/notices` (%v)", err)
	}
	mods, err := buildList(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		if !bytes.Contains(got, []byte("\n"+m.Path+" "+m.Version+"\n")) {
			t.Errorf("the module links %s %s, which THIRD_PARTY_NOTICES lacks", m.Path, m.Version)
		}
	}
	if !bytes.Equal(got, want) {
		t.Error("THIRD_PARTY_NOTICES is not what the build list gives: run `go run ./internal/build/notices`")
	}
}

// TestNoticeNeedsLicenceFile: a module without a licence file is an error, not an empty notice.
func TestNoticeNeedsLicenceFile(t *testing.T) {
	var b bytes.Buffer
	err := section(&b, "example.com/nolicence v1.0.0", "https://example.com", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "no licence file") {
		t.Fatalf("want an error naming the missing licence file, got %v", err)
	}
}
