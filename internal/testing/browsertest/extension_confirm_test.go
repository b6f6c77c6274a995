//go:build !js

package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionQuestionCannotBeMisread (issue 35, points 1 and 2): an allowed page's title
// claims another origin, carries U+202E and is 2,400 characters long. The panel's question
// starts with the origin from the browser, on a line of its own; the title comes after it,
// quoted, at most 80 characters, with no format character; Run it stays near the question's top.
// Two questions: when the agent cancels the first, a click at once where its Run it was lands on
// the second's Run it and is not taken; the second is answered later, and nothing was paid.
func TestExtensionQuestionCannotBeMisread(t *testing.T) {
	skipWithoutBuild(t)
	s := startNative(t)
	page := s.tab(t, s.base+"/test/confirm-title.html")
	s.hostPID(t)
	cs, _, progress := s.client(t, "-allow", s.base)
	pay := nameFor(t, pageTools(t, cs, 1), s.base, "pay")
	panel := openPanel(t, s.ctx, s.base+"/test/confirm-title.html")

	type answer struct {
		text  string
		isErr bool
	}
	ask := func(ctx context.Context, args map[string]any) chan answer {
		done := make(chan answer, 1)
		go func() {
			p := &mcp.CallToolParams{Name: pay, Arguments: args}
			p.SetProgressToken(fmt.Sprint("tok-", args["to"]))
			r, err := cs.CallTool(ctx, p)
			if err != nil {
				done <- answer{err.Error(), true}
				return
			}
			var texts []string
			for _, c := range r.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					texts = append(texts, tc.Text)
				}
			}
			done <- answer{strings.Join(texts, "\n"), r.IsError}
		}()
		assert.Equal(t, "waiting for you to confirm in the browser", <-progress)
		return done
	}
	firstDone := ask(context.Background(), map[string]any{"to": "alice", "amount": 1})
	var q struct {
		FirstClass, FirstText, Text string
		TitleChars                  int
		FormatChars                 bool
		RunItBelow                  float64
	}
	runJSInline(t, panel, "panel.js", "questionLayout", &q, 1)
	assert.Equal(t, "confirm-origin", q.FirstClass, "the origin comes first")
	assert.Equal(t, s.base, q.FirstText, "on a line of its own, as the browser has it")
	assert.False(t, q.FormatChars, "no control or format character: %.300q", q.Text)
	assert.LessOrEqual(t, q.TitleChars, len("on the page titled “”")+81, "the title is cut")
	assert.Contains(t, q.Text, "“Bank of Example (https://bank.example)", "quoted as the page's")
	assert.Less(t, q.RunItBelow, 300.0, "Run it is not pushed down")
	var declined map[string]string
	runJSInline(t, panel, "panel.js", "answerConfirm", &declined, false)
	assert.Contains(t, (<-firstDone).text, "you declined")

	// Two questions of a page with a short title; the agent cancels the first.
	eval(t, page, `document.title = "Bank of Example"; return true`, new(bool))
	second, cancelSecond := context.WithCancel(context.Background())
	defer cancelSecond()
	secondDone := ask(second, map[string]any{"to": "alice", "amount": 1})
	thirdDone := ask(context.Background(), map[string]any{"to": "mallory", "amount": 9999})
	runJSInline(t, panel, "panel.js", "questionLayout", &q, 2)
	var secondKey string
	runJSInline(t, panel, "panel.js", "clickWhereRunItWas", &secondKey)
	cancelSecond()
	<-secondDone
	var hit struct {
		Hit, Question string
		Left          int
	}
	runJSInline(t, panel, "panel.js", "clickedAfter", &hit)
	require.NotEqual(t, secondKey, hit.Question)
	assert.Contains(t, hit.Hit, "confirm-yes", "the third question's Run it moved under the pointer")
	assert.Equal(t, 1, hit.Left, "the click was not taken: the third question still waits")
	runJSInline(t, panel, "panel.js", "answerConfirm", &declined, false)
	third := <-thirdDone
	assert.True(t, third.isErr)
	assert.Contains(t, third.text, "you declined")
	var paid int
	eval(t, page, `return window.paid.length`, &paid)
	assert.Zero(t, paid, "nothing was paid")
}
