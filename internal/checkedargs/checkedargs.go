//go:build !js

// Package checkedargs is how webmcp-mcp's sources of pages tell a page's bridge that a call's
// arguments were checked natively against the tool's input schema, so that the page need not
// start its module to check them again: a [Claim] travels with the call through webmcp-mcp's
// private door into the page (the extension's hand-off, or the isolated world under -open), and
// the bridge skips its own check only when the claim's schema is the tool's schema now and its
// arguments are exactly the text the tool gets (web/src/flow.ts, expectChecked).
//
// A claim is made only for arguments checked here, with the same validator the page's module
// runs (bridge/inputschema) and the default policy's limits, whatever webmcp-mcp's server
// checked before: a source never vouches for a check it did not make.
package checkedargs

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// A Claim says that Args, a JSON object as compact text, passes Schema (JSON text) by
// bridge/inputschema within the default policy's argument limits.
type Claim struct {
	Schema string `json:"schema"`
	Args   string `json:"args"`
}

// keep bounds the compiled schemas a [Checker] holds: a page's tools rarely have more.
const keep = 64

// A Checker makes claims, compiling each schema once. Its zero value is ready; it is safe for
// concurrent use.
type Checker struct {
	mu       sync.Mutex
	compiled map[string]*inputschema.Schema // by schema text
}

// Claim checks args against schema (a tool's inputSchema as the source listed it) and returns
// the claim, or nil when the tool has no schema, the schema cannot be compiled, or the
// arguments do not pass: the page then checks them itself, as it would without a claim.
func (c *Checker) Claim(schema map[string]any, args json.RawMessage) *Claim {
	if schema == nil {
		return nil
	}
	text, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	s := c.compile(string(text))
	if s == nil {
		return nil
	}
	var compact bytes.Buffer
	if json.Compact(&compact, args) != nil || compact.Len() == 0 || compact.Bytes()[0] != '{' {
		return nil
	}
	limits := bridge.DefaultPolicy()
	if s.ValidateJSONWithin(compact.Bytes(), limits.MaxArgumentBytes, limits.MaxArgumentValues) != nil {
		return nil
	}
	return &Claim{Schema: string(text), Args: compact.String()}
}

func (c *Checker) compile(text string) *inputschema.Schema {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.compiled[text]; ok {
		return s
	}
	s, err := inputschema.CompileJSON([]byte(text))
	if err != nil {
		s = nil
	}
	if c.compiled == nil || len(c.compiled) >= keep {
		c.compiled = map[string]*inputschema.Schema{}
	}
	c.compiled[text] = s
	return s
}
