//go:build !js

package headless

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// A Sandbox is whether Chromium can keep its sandbox here, and why not where it cannot.
type Sandbox struct {
	Keep bool   // start Chromium with its sandbox (no --no-sandbox)
	Why  string // where it cannot: what stops it, for the person reading stderr
}

// DecideSandbox says whether Chromium can run sandboxed for a process of user uid, where a
// process of that user can (userns) or cannot make a user namespace. Chromium's Linux sandbox
// needs user namespaces (or a setuid helper that Debian's package does not ship), and Chromium
// refuses to start as root with its sandbox on, so root (the usual user in a container) runs
// without it.
func DecideSandbox(uid int, userns bool) Sandbox {
	switch {
	case uid == 0:
		return Sandbox{Why: "running as root (uid 0), where Chromium refuses its sandbox; " +
			"run as a user who is not root to keep it"}
	case !userns:
		return Sandbox{Why: fmt.Sprintf("user %d cannot make user namespaces here (a container, or "+
			"user.max_user_namespaces / kernel.unprivileged_userns_clone / "+
			"kernel.apparmor_restrict_unprivileged_userns), which Chromium's sandbox needs", uid)}
	}
	return Sandbox{Keep: true}
}

// sandboxHere is DecideSandbox for this process, probed once.
var sandboxHere = sync.OnceValue(func() Sandbox { return DecideSandbox(os.Geteuid(), userNamespaces()) })

// warnOnce says once per process, on stderr, that Chromium runs without its sandbox and why.
var warnOnce sync.Once

// sandboxFlags is the flag Chromium needs for s ("no-sandbox", or none), saying why on w once
// when the sandbox is off.
func sandboxFlags(s Sandbox, w io.Writer) []string {
	if s.Keep {
		return nil
	}
	warnOnce.Do(func() {
		fmt.Fprintf(w, "webmcp-bridge: Chromium runs without its sandbox (--no-sandbox): %s\n", s.Why)
	})
	return []string{"no-sandbox"}
}
