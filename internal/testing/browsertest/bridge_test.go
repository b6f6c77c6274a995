//go:build !js

package browsertest

// result is a CallToolResult as a page's executeTool gives it, parsed; what the tests of
// crossbrowser_bridge_test.go (TestBridge) and the CSP example check.
type result struct {
	Content           []map[string]any `json:"content"`
	StructuredContent map[string]any   `json:"structuredContent"`
	IsError           bool             `json:"isError"`
	ResultType        string           `json:"resultType"`
}

// noArgs is a call's empty arguments, {}.
var noArgs = map[string]any{}
