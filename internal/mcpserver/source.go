//go:build !js

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// A Source is where webmcp-mcp's pages come from: a browser it drives over DevTools
// (internal/devtools), or the person's own browser reached through the extension over native
// messaging (internal/extension). The [Server] (tool names, provenance in descriptions and
// _meta, limits, progress, cancellation, argument validation, normalization with
// bridge.ParseToolOutput) sees pages only through this interface and knows no detail of how they
// are reached.
//
// A source reads without trust: what a page says (tool names, descriptions, schemas,
// annotations, outputs, error messages) is page text; where a page is (URL, origin, title) is
// what the browser says, never the page. The MCP side bounds, validates and quotes all of it
// again, so a source passes page data on as it got it, cut only where a message must stay small.
//
// Every method is safe for concurrent use.
type Source interface {
	// Pages lists the open pages, each with the tools it had when the source last read it, in
	// the order they were opened, then the last few pages that closed (Closed set, no tools). A
	// page's ID stays the same while it is open and is never given to another page.
	Pages(ctx context.Context) []Page

	// Open opens rawURL (an http(s) URL) in a new page and returns once it loaded and its tools
	// were read, or failed. A page that did not load is returned with LoadError set (and the
	// error); opening the same URL again retries it. A source that cannot open pages returns
	// errors.ErrUnsupported.
	Open(ctx context.Context, rawURL string) (Page, error)

	// Close closes the page id; ErrPageClosed when there is no such page.
	Close(ctx context.Context, id string) error

	// Call runs one tool of one page with the given arguments (a JSON object, already checked
	// against the tool's inputSchema) and returns the page's answer. The call runs only while the
	// page is still at call.Origin. When ctx ends (the client cancelled, or a timeout), the source
	// aborts the page's execute (its AbortSignal) and returns ctx's error without waiting for the
	// page. It returns ErrNavigated, ErrPageClosed (wrapped with the reason when the browser gave
	// one) or ErrNoSuchTool when the page or tool went away under the call.
	Call(ctx context.Context, call ToolCall) (ToolAnswer, error)

	// Changes receives a value (coalesced: one value may stand for many changes) whenever a
	// page opened, closed or navigated, its tools or its title changed, or it recorded an error:
	// the MCP side then reads Pages again.
	Changes() <-chan struct{}
}

// Page is one page of a source, as the source last read it.
type Page struct {
	ID     string // "p1", "p2", …: no "_", so a prefixed tool name's prefix is always its page
	URL    string // from the browser
	Origin string // from the browser (the security origin of the main frame)
	Title  string // from the browser
	// Browser says which browser the page is in, when a source has several (the extension's
	// word: the browser's name, numbered when two have the same); "" otherwise.
	Browser string

	Tools []PageTool // as the page describes them
	More  int        // tools the source left out (over its own bound)

	Loading   bool     // still loading: its tools may not be registered yet
	LoadError string   // why it did not load, when it did not
	Dialogs   []string // dialogs it opened, dismissed or accepted, newest last (a few)
	Errors    []string // its last uncaught errors and failed loads, as page text, newest last (a few)
	Closed    string   // why it closed, when it is closed ("closed", "its renderer crashed …")
}

// PageTool is a tool as a page describes it (WebMCP getTools), read without trust. The *Cut,
// SchemaTooLarge and SchemaUnreadable fields say what the source cut or could not read before
// the description left the browser.
type PageTool struct {
	Name             string         `json:"name"`
	Title            string         `json:"title"`
	Description      string         `json:"description"`
	DescriptionCut   int            `json:"descriptionCut"` // the description's length when it was cut
	InputSchema      map[string]any `json:"inputSchema"`
	SchemaTooLarge   int            `json:"schemaTooLarge"` // the schema's JSON length when it was left out
	SchemaUnreadable bool           `json:"schemaUnreadable"`
	Annotations      map[string]any `json:"annotations"` // the page's claims (readOnlyHint, …)
}

// ToolCall is one call of a page tool.
type ToolCall struct {
	Page   string          // the page's ID
	Origin string          // the origin the tool was listed at: the call runs only there
	Tool   string          // the tool's WebMCP name (not its MCP name)
	Args   json.RawMessage // a JSON object

	// Notify, when set, passes a message to the client as progress while the call waits (for
	// instance for the person to confirm it in the browser).
	Notify func(message string)
}

// Optional interfaces a source may implement.
type (
	// EmptyMessager says what webmcp_list_pages shows when no page is listed (instead of
	// "open one with webmcp_open_page").
	EmptyMessager interface{ EmptyMessage() string }
	// Confirmer gives a call more time than -timeout, for the person to confirm it.
	Confirmer interface{ ConfirmTime(ToolCall) time.Duration }
	// Returner says whether a page that is not listed now may come back under its id (a tab
	// reloading): a call of one of its names waits a moment for it.
	Returner interface{ MayReturn(pageID string) bool }
)

// ToolAnswer is what the page answered: exactly one of Output, TooLarge > 0 or Error; or, for
// a call the person did not let run, Decision.
type ToolAnswer struct {
	Output    *string  // the tool's output: its string, or its value as JSON (executeTool's answer)
	TooLarge  int      // the output's length in characters, when it was over the source's bound
	Error     *string  // the message the tool threw or rejected with (page text)
	ErrorCut  int      // the message's length when it was cut
	ErrorName string   // the thrown error's name ("TypeError", …), page text
	Decision  Decision // why the person's browser did not run the call; the page was not asked
}

// A Decision is why a call the person was asked to confirm did not run. The [Server] says so in
// its own words, marked as its notice: never as page text, which a page could imitate.
type Decision string

// The decisions a source reports.
const (
	Declined    Decision = "declined"  // the person said no
	Unconfirmed Decision = "timeout"   // no answer within the source's confirmation time ([Confirmer])
	Withdrawn   Decision = "cancelled" // the call was cancelled while the question waited
)

// Why a call found no page or tool to answer it.
var (
	// ErrNavigated: the page left the origin the tool was listed at, before or during the call.
	ErrNavigated = errors.New("the page navigated")
	// ErrPageClosed: the page is closed (by the person, a crash, or Close).
	ErrPageClosed = errors.New("the page is closed")
	// ErrNoSuchTool: the page no longer has a tool of that name.
	ErrNoSuchTool = errors.New("the page has no such tool")
)
