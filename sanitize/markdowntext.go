package sanitize

import "strings"

// Page text in the model's Markdown is escaped wherever Markdown would read it as structure, so
// a page cannot forge a heading, a list, a table row, a code span, a link or an image in what
// the model reads: backslashes, backticks, brackets and pipes everywhere, "<" before what could
// open a tag and "&" before what could name a character, and at the start of a line the
// characters that open a block (#, >, -, +, *, =, ~, _ and a number followed by "." or ")").

// appendFoldedEscaped appends page text t to b as appendEscapedText does, each run of HTML
// white space folded into one space and none at the start when space is set (b already ends
// with one): one pass, no copy of t.
func appendFoldedEscaped[T string | []byte](b []byte, t T, space bool) []byte {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if isTagSpace(c) {
			if !space {
				b = append(b, ' ')
				space = true
			}
			continue
		}
		space = false
		b = appendEscapedByte(b, t, i)
	}
	return b
}

// appendEscapedText appends page text t to b with each byte Markdown could read as inline
// structure escaped by a backslash.
func appendEscapedText(b []byte, t string) []byte {
	for i := 0; i < len(t); i++ {
		b = appendEscapedByte(b, t, i)
	}
	return b
}

// appendEscapedByte appends t[i], escaped when Markdown could read it as inline structure.
func appendEscapedByte[T string | []byte](b []byte, t T, i int) []byte {
	c := t[i]
	switch c {
	case '\\', '`', '[', ']', '|':
		b = append(b, '\\')
	case '<':
		if i+1 >= len(t) || isASCIILetter(t[i+1]) || strings.IndexByte("/!?", t[i+1]) >= 0 {
			b = append(b, '\\')
		}
	case '&':
		if i+1 < len(t) && (isASCIILetter(t[i+1]) || t[i+1] == '#') {
			b = append(b, '\\')
		}
	}
	return append(b, c)
}

// lineStartEscape returns where a backslash must go into a line whose start is page text (after
// inline escaping) so that Markdown does not read it as a block marker, or -1.
func lineStartEscape(line []byte) int {
	if len(line) == 0 {
		return -1
	}
	switch line[0] {
	case '#', '>', '-', '+', '*', '=', '~', '_':
		return 0
	}
	i := 0
	for i < len(line) && i < 10 && '0' <= line[i] && line[i] <= '9' {
		i++
	}
	if i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') {
		return i
	}
	return -1
}

// EscapeMarkdown returns page text s as inline Markdown that reads as the same text and
// nothing more — no link, image, code span, tag or table cell boundary — with white space (line
// breaks too) folded into single spaces: how a table result's cells are written. (Inline: a
// cell's start is no line start, so it leaves "#" or "1." there as they are.)
func EscapeMarkdown(s string) string {
	return string(appendEscapedText(make([]byte, 0, len(s)+8), collapseSpace(strings.TrimSpace(s))))
}

// MarkdownTable writes a GitHub-flavoured Markdown table of cells that are Markdown already
// (EscapeMarkdown escapes page text for it): a header row, its delimiter row, then the rows,
// each padded with empty cells to the widest row. It is the one table renderer of the model's
// text: html tables and table results alike.
func MarkdownTable(header []string, rows [][]string) string {
	cols := len(header)
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return ""
	}
	all := append([][]string{header}, rows...)
	var b strings.Builder
	appendTableLines(nil, len(all), cols, true, nil, func(row, col int, buf []byte) []byte {
		if col < len(all[row]) {
			buf = append(buf, all[row][col]...)
		}
		return buf
	}, func(line []byte) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.Write(line)
	})
	return b.String()
}

// appendLinkDestination appends a URL as a Markdown link destination: in angle brackets when
// it holds a space, else with parentheses and backslashes escaped; in a table cell pipes are
// escaped too.
func appendLinkDestination(b []byte, u string, inCell bool) []byte {
	angle := strings.ContainsAny(u, " <>")
	if angle {
		b = append(b, '<')
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '\\', c == '|' && inCell, !angle && (c == '(' || c == ')'), angle && (c == '<' || c == '>'):
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	if angle {
		b = append(b, '>')
	}
	return b
}

// appendCodeSpan appends code (white space already folded) as a Markdown code span: fenced by
// one backtick more than its longest run of backticks, with a space inside the fences when it
// starts or ends with a backtick or a space; in a table cell pipes are escaped.
func appendCodeSpan(b, code []byte, inCell bool) []byte {
	n := longestRun(code, '`') + 1
	pad := code[0] == '`' || code[len(code)-1] == '`' || code[0] == ' ' && code[len(code)-1] == ' '
	for range n {
		b = append(b, '`')
	}
	if pad {
		b = append(b, ' ')
	}
	for i := 0; i < len(code); i++ {
		if code[i] == '|' && inCell {
			b = append(b, '\\')
		}
		b = append(b, code[i])
	}
	if pad {
		b = append(b, ' ')
	}
	for range n {
		b = append(b, '`')
	}
	return b
}

// longestRun is the length of the longest run of c in s.
func longestRun[T string | []byte](s T, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}
