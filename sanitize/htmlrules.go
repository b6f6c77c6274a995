package sanitize

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// HTMLRules are what the URLs in sanitized markup must meet: the same rules a page's link and
// image blocks are held to. The attributes that carry URLs, and which rules each follows, are in
// the allowlist tables (policy.go): an a's href follows Links, an img's src Images when it is a
// URL and InlineImages when it is a data: URL.
type HTMLRules struct {
	// Links are the schemes and the maximum length of a link's target (a href), as for URL.
	Links URLRules
	// Images are the schemes and the maximum length of an image URL (img src).
	Images URLRules
	// InlineImages are the limits of an image written into the markup as a base64 data: URL
	// (img src="data:image/png;base64,…"): CheckImage must accept its bytes — type allowed,
	// dimensions, pixels, bytes and structure — and they must be the type the data: URL
	// declares. Such an image is not re-typed: markup that mislabels its own image loses it. An
	// empty Types refuses every inline image.
	InlineImages ImageLimits
}

// DefaultHTMLRules are the rules a page's html blocks follow by default: links to https, http and mailto,
// images over https or inline PNG, JPEG, GIF or WebP (at most 5 MiB, 8000 px a side and
// 40,000,000 pixels), URLs of at most 2048 bytes.
func DefaultHTMLRules() HTMLRules {
	return HTMLRules{
		Links:  URLRules{Schemes: []string{"https", "http", "mailto"}, MaxLength: 2048},
		Images: URLRules{Schemes: []string{"https"}, MaxLength: 2048},
		InlineImages: ImageLimits{MaxBytes: 5 << 20, MaxWidth: 8000, MaxHeight: 8000, MaxPixels: 40_000_000,
			Types: slices.Clone(inlineImageTypes)},
	}
}

// normalized returns r in the canonical form a policy is built from and cached by: schemes in
// lower case, without those markup may never hold (NeverAllowedScheme, or not a scheme at all),
// sorted and without duplicates; inline image types canonical (CanonicalMIME), only those of
// inlineImageTypes, sorted; negative limits as 0 (no limit). Rules with the same normalized form
// sanitize alike.
func (r HTMLRules) normalized() HTMLRules {
	r.Links = r.Links.htmlSafe()
	r.Images = r.Images.htmlSafe()
	lim := r.InlineImages
	var types []string
	for _, t := range lim.Types {
		if t = canonicalMIME(t); slices.Contains(inlineImageTypes, t) {
			types = append(types, t)
		}
	}
	// package sort's one sort, which the module links anyway: slices.Sort would add a copy of its
	// code for strings (in sanitize and inputschema alike).
	sort.Sort(sort.StringSlice(types))
	lim.Types = slices.Compact(types)
	lim.MaxBytes, lim.MaxPixels = max(lim.MaxBytes, 0), max(lim.MaxPixels, 0)
	lim.MaxWidth, lim.MaxHeight = max(lim.MaxWidth, 0), max(lim.MaxHeight, 0)
	r.InlineImages = lim
	return r
}

// htmlSafe returns u with its schemes cut to those markup may hold, in canonical form.
func (u URLRules) htmlSafe() URLRules {
	var schemes []string
	for _, s := range u.Schemes {
		s = strings.ToLower(strings.TrimSpace(s))
		if sch, ok := urlScheme(s + ":"); ok && sch == s && !NeverAllowedScheme(s) {
			schemes = append(schemes, s)
		}
	}
	sort.Sort(sort.StringSlice(schemes))
	return URLRules{Schemes: slices.Compact(schemes), MaxLength: max(u.MaxLength, 0)}
}

// key is the cache key of normalized rules: equal keys, equal policies.
func (r HTMLRules) key() string {
	// Written by hand, not with fmt: it runs on every call with HTML. Each list's strings are
	// quoted, so no two rules write the same key.
	b := make([]byte, 0, 128)
	list := func(tag byte, strs []string, n int64) {
		b = append(b, tag)
		for _, s := range strs {
			b = strconv.AppendQuote(b, s)
		}
		b = strconv.AppendInt(b, n, 10)
	}
	l := r.InlineImages
	list('a', r.Links.Schemes, int64(r.Links.MaxLength))
	list('i', r.Images.Schemes, int64(r.Images.MaxLength))
	list('d', l.Types, l.MaxBytes)
	for _, n := range [...]int64{int64(l.MaxWidth), int64(l.MaxHeight), l.MaxPixels} {
		b = append(b, ',')
		b = strconv.AppendInt(b, n, 10)
	}
	return string(b)
}

// defaultRulesKey is the key of DefaultHTMLRules, whose policy is htmlPolicy.
var defaultRulesKey = sync.OnceValue(func() string { return DefaultHTMLRules().normalized().key() })

// policyFor returns the policy for r: the shared default one when r normalizes to
// DefaultHTMLRules, else one from htmlPolicies, built on first use.
func policyFor(r HTMLRules) *bluemonday.Policy {
	n := r.normalized()
	key := n.key()
	if key == defaultRulesKey() {
		return htmlPolicy()
	}
	return htmlPolicies.policy(key, func() *bluemonday.Policy { return buildHTMLPolicy(n) })
}

// maxCachedPolicies bounds htmlPolicies: a page normally has one policy, a server a few.
const maxCachedPolicies = 16

// htmlPolicies holds the policies built for rules other than the default ones.
var htmlPolicies = &policyCache{entries: map[string]*cachedPolicy{}}

// policyCache is a small least-recently-used cache of built policies, safe for concurrent use.
// A policy is built outside the cache's lock, once however many goroutines ask for it at once.
type policyCache struct {
	mu      sync.Mutex
	entries map[string]*cachedPolicy
	order   []string // keys, least recently used first
}

type cachedPolicy struct {
	get func() *bluemonday.Policy // a sync.OnceValue around the build
}

// policy returns the cached policy for key, building it with build when it is not cached and
// evicting the least recently used one when the cache is full.
func (c *policyCache) policy(key string, build func() *bluemonday.Policy) *bluemonday.Policy {
	c.mu.Lock()
	e, ok := c.entries[key]
	if ok {
		i := slices.Index(c.order, key)
		c.order = append(slices.Delete(c.order, i, i+1), key)
	} else {
		e = &cachedPolicy{get: sync.OnceValue(build)}
		c.entries[key] = e
		c.order = append(c.order, key)
		if len(c.order) > maxCachedPolicies {
			delete(c.entries, c.order[0])
			c.order = slices.Delete(c.order, 0, 1)
		}
	}
	c.mu.Unlock()
	return e.get()
}

// len is how many policies the cache holds.
func (c *policyCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
