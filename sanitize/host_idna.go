//go:build !(js && wasm)

package sanitize

import "golang.org/x/net/idna"

// hostProfile is the URL Standard's domain-to-ASCII (see host.go).
var hostProfile = idna.New(idna.MapForLookup(), idna.StrictDomainName(false), idna.Transitional(false),
	idna.CheckHyphens(false), idna.BidiRule(), idna.CheckJoiners(true))

// defaultHostMapper maps hosts natively; in WebAssembly the module sets the browser's.
var defaultHostMapper HostMapper = hostProfile.ToASCII
