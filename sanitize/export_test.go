package sanitize

import (
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// The allowlist tables, for the external tests' structural oracle (see policy.go).
type (
	HTMLAttr = htmlAttr
	URLAttr  = urlAttr
)

var (
	HTMLElements     = htmlElements
	HTMLAttrs        = htmlAttrs
	LinkAttrs        = linkAttrs
	InlineImageTypes = inlineImageTypes
)

// ResetHTMLPolicy makes the next HTML call build the shared policy again, as the first call in a
// fresh process does, and returns a func that says how many times it has been built since.
// Not safe while other goroutines use the policy.
func ResetHTMLPolicy() (builds func() int) {
	var mu sync.Mutex
	n := 0
	htmlPolicy = sync.OnceValue(func() *bluemonday.Policy {
		mu.Lock()
		n++
		mu.Unlock()
		return newHTMLPolicy()
	})
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}
