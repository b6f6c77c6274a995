package main

import (
	"bytes"
	"debug/macho"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// TestJoinDarwinBinaries: the universal binary of a darwin/amd64 and a darwin/arm64 build is
// what macOS's loader reads: a fat file whose slices are the two builds, byte for byte, each
// at an aligned offset.
func TestJoinDarwinBinaries(t *testing.T) {
	thins := [][]byte{darwinBuild(t, "amd64"), darwinBuild(t, "arm64")}
	fat, err := join(thins)
	if err != nil {
		t.Fatal(err)
	}
	f, err := macho.NewFatFile(bytes.NewReader(fat))
	if err != nil {
		t.Fatalf("not a universal binary: %v", err)
	}
	want := []macho.Cpu{macho.CpuAmd64, macho.CpuArm64}
	if len(f.Arches) != len(want) {
		t.Fatalf("%d slices, want %d", len(f.Arches), len(want))
	}
	for i, a := range f.Arches {
		if a.Cpu != want[i] || a.Offset%(1<<sliceAlign) != 0 {
			t.Errorf("slice %d: %v at %d, want %v aligned to %d", i, a.Cpu, a.Offset, want[i], 1<<sliceAlign)
		}
		if !bytes.Equal(fat[a.Offset:a.Offset+a.Size], thins[i]) {
			t.Errorf("slice %d is not the %v build unchanged", i, a.Cpu)
		}
	}
}

// TestJoinRefusesWhatIsNotOneSlicePerCPU: a file that is not Mach-O, or two slices for one
// CPU, is an error, never a universal binary that macOS would refuse.
func TestJoinRefusesWhatIsNotOneSlicePerCPU(t *testing.T) {
	if _, err := join([][]byte{[]byte("#!/bin/sh\n")}); err == nil {
		t.Error("a shell script joined")
	}
	amd64 := darwinBuild(t, "amd64")
	if _, err := join([][]byte{amd64, amd64}); err == nil {
		t.Error("two slices for one CPU joined")
	}
}

// darwinBuild is this command built for darwin/arch: a small real Mach-O executable.
func darwinBuild(t *testing.T, arch string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), arch)
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, "./internal/build/universal")
	cmd.Dir = checkout.Path()
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build darwin/%s: %v\n%s", arch, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
