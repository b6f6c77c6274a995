package bridge

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// table renders {type:"table", headers, rows} as a GitHub-flavoured Markdown table for the model
// and a text/csv resource for display. Rows over MaxTableRows are cut and cells over
// MaxTableCellChars are shortened, each with a notice; more than MaxTableColumns columns
// removes the table.
func (n *normalizer) table(m map[string]any, ann *Annotations, meta map[string]any) {
	headerVals, _ := m["headers"].([]any)
	rowVals, _ := m["rows"].([]any)
	cols := len(headerVals)
	for _, r := range rowVals {
		cols = max(cols, len(r.([]any)))
	}
	if n.p.MaxTableColumns > 0 && cols > n.p.MaxTableColumns {
		n.remove("table", &sanitize.LimitError{Limit: "maxTableColumns",
			Reason: fmt.Sprintf("%d columns exceed the %d-column limit", cols, n.p.MaxTableColumns)})
		return
	}
	totalRows := len(rowVals)
	if n.p.MaxTableRows > 0 && totalRows > n.p.MaxTableRows {
		rowVals = rowVals[:n.p.MaxTableRows]
	}
	cut := 0
	cell := func(v any) string {
		s, truncated, _ := sanitize.Text(jsonvalue.Scalar(v), n.p.MaxTableCellChars)
		if truncated {
			cut++
			s += "…"
		}
		return s
	}
	headers := make([]string, cols)
	for i := range headers {
		if i < len(headerVals) {
			headers[i] = cell(headerVals[i])
		}
		if headers[i] == "" && len(headerVals) == 0 {
			headers[i] = fmt.Sprintf("Column %d", i+1)
		}
	}
	rows := make([][]string, len(rowVals))
	for i, r := range rowVals {
		vals := r.([]any)
		rows[i] = make([]string, cols)
		for j := range vals {
			rows[i][j] = cell(vals[j])
		}
	}

	var csvBuf strings.Builder
	writeCSVRecord(&csvBuf, csvSafe(headers))
	for _, r := range rows {
		writeCSVRecord(&csvBuf, csvSafe(r))
	}
	uri := fmt.Sprintf("webmcp://content/%d.csv", len(n.out)+1) // after the Markdown text
	n.emit(
		&TextContent{Text: markdownTable(headers, rows), Annotations: withAudience(ann, RoleAssistant), Meta: meta},
		&EmbeddedResource{Resource: ResourceContents{URI: uri, MIMEType: "text/csv", Text: csvBuf.String()},
			Annotations: withAudience(ann, RoleUser)})
	if len(rowVals) < totalRows {
		n.violate("table", "truncated", "maxTableRows", fmt.Sprintf(
			"%s rows exceed the %s-row limit; the first %s were kept",
			sanitize.FormatCount(int64(totalRows)), sanitize.FormatCount(int64(n.p.MaxTableRows)),
			sanitize.FormatCount(int64(n.p.MaxTableRows))))
	}
	if cut > 0 {
		n.violate("table", "truncated", "maxTableCellChars", fmt.Sprintf("%d cells were cut to the %s-character limit",
			cut, sanitize.FormatCount(int64(n.p.MaxTableCellChars))))
	}
}

// csvSafe neutralizes cells a spreadsheet would run as a formula — those that begin with =, +,
// -, @, a tab or a carriage return — by putting a single quote in front, as OWASP advises for
// CSV injection. A cell that is only a number (-3, +1.5e2) is no formula and stays a number.
// Only the text/csv copy is changed; the model's Markdown keeps the cells as they were.
func csvSafe(cells []string) []string {
	var safe []string // a copy, made at the first cell that needs it
	for i, c := range cells {
		if c == "" || !strings.ContainsRune("=+-@\t\r", rune(c[0])) || isPlainNumber(c) {
			continue
		}
		if safe == nil {
			safe = slices.Clone(cells)
		}
		safe[i] = "'" + c
	}
	if safe == nil {
		return cells
	}
	return safe
}

func isPlainNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "xXpP_iInN") // no hex, underscores, Inf or NaN
}

// markdownTable writes the table as the model reads it: each cell page text, escaped
// (sanitize.EscapeMarkdown: a pipe cannot end its cell, a line break cannot start a row, and
// nothing reads as a link or code), in the one table layout the model's Markdown has
// (sanitize.MarkdownTable, which html tables use too).
func markdownTable(headers []string, rows [][]string) string {
	esc := func(cells []string) []string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = sanitize.EscapeMarkdown(c)
		}
		return out
	}
	md := make([][]string, len(rows))
	for i, r := range rows {
		md[i] = esc(r)
	}
	return sanitize.MarkdownTable(esc(headers), md)
}

// writeCSVRecord writes one record as encoding/csv's Writer does by default: fields quoted when
// they hold a comma, a quote, a line break, are \. or begin with a space (quotes doubled
// inside), and "\n" after the record. (Written here so that the module does not carry
// encoding/csv and bufio for it.)
func writeCSVRecord(b *strings.Builder, record []string) {
	for i, field := range record {
		if i > 0 {
			b.WriteByte(',')
		}
		first, _ := utf8.DecodeRuneInString(field)
		if field == "" || field != `\.` && !strings.ContainsAny(field, ",\"\r\n") && !unicode.IsSpace(first) {
			b.WriteString(field)
			continue
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(field, `"`, `""`))
		b.WriteByte('"')
	}
	b.WriteByte('\n')
}
