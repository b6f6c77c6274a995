//go:build !js

package headless

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDecideSandbox: Chromium keeps its sandbox for a user who is not root where user
// namespaces can be made, and only there; where it cannot, the reason names the cause.
func TestDecideSandbox(t *testing.T) {
	for _, tc := range []struct {
		name   string
		uid    int
		userns bool
		keep   bool
		why    string
	}{
		{"a user with user namespaces", 1000, true, true, ""},
		{"a user without user namespaces", 1000, false, false, "cannot make user namespaces"},
		{"root with user namespaces (a container)", 0, true, false, "root"},
		{"root without user namespaces", 0, false, false, "root"},
		{"a system user with user namespaces", 101, true, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DecideSandbox(tc.uid, tc.userns)
			assert.Equal(t, tc.keep, s.Keep)
			if tc.keep {
				assert.Empty(t, s.Why)
			} else {
				assert.Contains(t, s.Why, tc.why)
			}
		})
	}
}

// TestSandboxFlags: --no-sandbox only where the sandbox cannot run, said once on stderr with
// the reason however many browsers start.
func TestSandboxFlags(t *testing.T) {
	var stderr bytes.Buffer
	assert.Empty(t, sandboxFlags(DecideSandbox(1000, true), &stderr))
	assert.Empty(t, stderr.String())
	off := DecideSandbox(0, true)
	for range 3 {
		assert.Equal(t, []string{"no-sandbox"}, sandboxFlags(off, &stderr))
	}
	assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
	assert.Contains(t, stderr.String(), "without its sandbox (--no-sandbox): running as root")
}
