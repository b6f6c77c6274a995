//go:build !js

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxInitAllocs bounds the allocations of each of the bridge's packages as the module starts:
// what a package builds at initialisation every page pays before its first call, needed or not.
// Compiling sanitize's attribute regexps took 3,405.
const maxInitAllocs = 200

// TestModuleInitIsSmall builds the module's package for this machine and fails for each of the
// bridge's own packages whose initialisation allocates more than maxInitAllocs times.
func TestModuleInitIsSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	bin := filepath.Join(t.TempDir(), "module-native")
	if msg, err := exec.Command(goCommand(), "build", "-trimpath", "-o", bin, "../../wasm").CombinedOutput(); err != nil {
		t.Fatalf("go build ./wasm: %v\n%s", err, msg)
	}
	inits := traceInit(bin)
	own := 0
	for p, it := range inits {
		if !strings.HasPrefix(p, ownModule) {
			continue
		}
		own++
		if it.allocs > maxInitAllocs {
			t.Errorf("%s allocates %d times at initialisation, over %d: build what it needs on first use",
				p, it.allocs, maxInitAllocs)
		}
	}
	if own == 0 {
		t.Fatalf("no package of %s in the init trace (%d packages): is GODEBUG=inittrace=1 read?", ownModule, len(inits))
	}
}
