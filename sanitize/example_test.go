package sanitize_test

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// HTML keeps the structure of markup and removes what can run or load anything; a removed tag
// leaves a space, so that words do not join.
func ExampleHTML() {
	fmt.Println(sanitize.HTML(`<p onclick="steal()">Hi <a href="javascript:x()">there</a></p><script>x()</script>`,
		sanitize.DefaultHTMLRules()))
	// Output: <p>Hi  there </p>
}

// HTMLAndText is what a tool result's html block needs: markup for the person, plain text for
// the model, and what the sanitizer removed.
func ExampleHTMLAndText() {
	r := sanitize.HTMLAndText(`<h1>Report</h1><iframe src="https://e.test"></iframe><ul><li>one</li><li>two</li></ul>`,
		sanitize.DefaultHTMLRules())
	fmt.Printf("%s\n---\n%s\n---\nremoved %s\n", r.HTML, r.Text, r.Removed)
	// Output:
	// <h1>Report</h1>  <ul><li>one</li><li>two</li></ul>
	// ---
	// # Report
	//
	// - one
	// - two
	// ---
	// removed <iframe>, src= (2 in all)
}
