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
	want, err := notices(repo, wasmModule)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(repo, "THIRD_PARTY_NOTICES"))
	if err != nil {
		t.Fatalf("THIRD_PARTY_NOTICES is missing: run `go run ./internal/build/notices` (%v)", err)
	}
	mods, err := buildList(repo, wasmModule)
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

// TestBinaryNoticesFollowPlatform: a program's notices cover the modules it links for the
// platform asked for: webmcp-mcp links golang.org/x/sys/windows/registry only on Windows.
func TestBinaryNoticesFollowPlatform(t *testing.T) {
	repo := checkout.Path()
	for _, tgt := range []target{{"./cmd/webmcp-mcp", "linux", "amd64"}, {"./cmd/webmcp-mcp", "windows", "arm64"}} {
		text, err := notices(repo, tgt)
		if err != nil {
			t.Fatal(err)
		}
		mods, err := buildList(repo, tgt)
		if err != nil {
			t.Fatal(err)
		}
		if len(mods) == 0 {
			t.Fatalf("%v: webmcp-mcp links no module: the build list is wrong", tgt)
		}
		for _, m := range mods {
			if !bytes.Contains(text, []byte("\n"+m.Path+" "+m.Version+"\n")) {
				t.Errorf("%v links %s %s, which its notices lack", tgt, m.Path, m.Version)
			}
		}
		if !bytes.Contains(text, []byte(tgt.goos+"/"+tgt.goarch)) {
			t.Errorf("%v: the notices do not say which platform they are for", tgt)
		}
	}
}
