package sanitize

import (
	"regexp"
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

// Rules returns the URL rules the attribute follows under r (normalized as the policy does) and
// the data: image types it admits.
func (a urlAttr) Rules(r HTMLRules) (URLRules, []string) {
	n := r.normalized()
	return a.urlRules(n), a.inlineTypes(n)
}

// HTMLPolicyKey is the key the policy for r is cached under.
func HTMLPolicyKey(r HTMLRules) string { return r.normalized().key() }

// CachedHTMLPolicies is how many policies for rules other than the default ones are cached.
func CachedHTMLPolicies() int { return htmlPolicies.len() }

// MaxCachedHTMLPolicies is the cache's bound.
const MaxCachedHTMLPolicies = maxCachedPolicies

// ResetHTMLPolicy makes the next HTML call build the default policy again, as the first call in a
// fresh process does, empties the cache of the other policies, and returns a func that says how
// many policies have been built since, by cache key. Not safe while other goroutines use the
// policies.
func ResetHTMLPolicy() (builds func() map[string]int) {
	var mu sync.Mutex
	n := map[string]int{}
	buildHTMLPolicy = func(r HTMLRules) *bluemonday.Policy {
		mu.Lock()
		n[r.key()]++
		mu.Unlock()
		return newHTMLPolicy(r)
	}
	htmlPolicy = sync.OnceValue(func() *bluemonday.Policy { return buildHTMLPolicy(DefaultHTMLRules().normalized()) })
	htmlPolicies = &policyCache{entries: map[string]*cachedPolicy{}}
	return func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range n {
			out[k] = v
		}
		return out
	}
}

// ImageSize and CheckImageStructure are the header read and the structure walk of CheckImage.
var (
	ImageSize           = imageSize
	CheckImageStructure = checkImageStructure
)

// Regexp is the pattern's regexp, for the oracle tests.
func (p *pattern) Regexp() *regexp.Regexp { return p.regexp() }

// StyleHides is styleHides, for the external fuzz tests.
var StyleHides = styleHides
