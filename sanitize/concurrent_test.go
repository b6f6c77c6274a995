package sanitize_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// concurrentResult is everything one input gives through the shared entry points.
type concurrentResult struct {
	Sanitized sanitize.HTMLResult
	Strict    sanitize.HTMLResult // under strictRules
	HTML      string
	Text      string
	URL       string
	URLErr    string
	Image     sanitize.ImageInfo
	ImageErr  string
}

// strictRules are rules other than the default ones, whose policy comes from the cache.
var strictRules = sanitize.HTMLRules{Links: sanitize.URLRules{Schemes: []string{"https"}, MaxLength: 64},
	InlineImages: sanitize.ImageLimits{Types: []string{"image/png"}, MaxPixels: 100}}

func concurrentRun(markup, rawURL string, img []byte) concurrentResult {
	r := concurrentResult{Sanitized: sanitize.HTMLAndText(markup, defaultRules), HTML: sanitize.HTML(markup, defaultRules),
		Strict: sanitize.HTMLAndText(markup, strictRules)}
	r.Text = sanitize.HTMLText(r.HTML)
	u, err := sanitize.URL(rawURL, linkRules)
	r.URL, r.URLErr = u, errString(err)
	info, err := sanitize.CheckImage(img, "", imageLimits)
	r.Image, r.ImageErr = info, errString(err)
	return r
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestConcurrentUse runs the entry points that share the lazily built HTML policies — the
// default one and a cached one for other rules — from many goroutines at once, starting from
// policies not yet built (as in a fresh process), and requires every result to equal the
// single-threaded one and each policy to be built once. Run it with -race.
func TestConcurrentUse(t *testing.T) {
	markups := []string{
		fixtures.Article(8 << 10),
		`<p onclick="x">a<script>1</script><a href="https://e.test/?a=1&amp;b=2" target=_self>x</a></p>`,
		`<img src="data:image/png;base64,iVBORw0KGgo=" alt=" a  b "><table><tr><td colspan=2>1</td></tr></table>` +
			`<img src="` + dataURL("image/png", fixtures.PNG(3, 2, false)) + `"><a href="http://e.test/">h</a>`,
		`<a href="jav&#x09;ascript:1">x</a><noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
	}
	urls := []string{"https://example.com/a?b=c", "javascript:alert(1)", "mailto:a@example.com", "https://u:p@e.test"}
	images := [][]byte{fixtures.PNG(3, 2, true), fixtures.WebP1x1, fixtures.PNGBomb(100000, 1), []byte("<svg>")}
	const n = 4 // inputs of each kind
	want := make([]concurrentResult, n)
	for i := range n {
		want[i] = concurrentRun(markups[i], urls[i], images[i])
	}

	builds := sanitize.ResetHTMLPolicy()
	const goroutines, rounds = 32, 3
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			<-start
			for r := range rounds * n {
				i := (g + r) % n
				assert.Equal(t, want[i], concurrentRun(markups[i], urls[i], images[i]), "goroutine %d, input %d", g, i)
			}
		})
	}
	close(start) // every goroutine's first call races for the first use of the policy
	wg.Wait()
	require.Equal(t,
		map[string]int{sanitize.HTMLPolicyKey(sanitize.DefaultHTMLRules()): 1, sanitize.HTMLPolicyKey(strictRules): 1},
		builds(), "each policy is built once")
}
