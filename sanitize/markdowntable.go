package sanitize

import "strings"

// mdTable is an open table: its rows of cells in Markdown.
type mdTable struct {
	rows   [][]string
	header int // rows that are header rows (in a thead, or all th)
	allTH  bool
	cell   []byte
	inCell bool
	inHead bool
	span   int // the open cell's colspan
	nested int // depth of tables inside the open cell
}

// tableTag handles the tags of an open table and reports whether it did.
func (r *mdRenderer) tableTag(tag string, end bool, a *mdAttrs) bool {
	t := r.table
	if t.nested > 0 {
		switch tag {
		case "table":
			if end {
				t.nested--
			} else {
				t.nested++
			}
			return true
		case "tr", "td", "th", "caption", "thead", "tbody", "tfoot":
			r.block()
			return true
		}
		return false
	}
	switch tag {
	case "table":
		if !end {
			if t.inCell {
				t.nested++
				r.block()
				return true
			}
			return true // a table start inside a table's rows is not a table of its own
		}
		r.endTable()
		return true
	case "thead":
		t.inHead = !end
		return true
	case "tbody", "tfoot":
		t.inHead = false
		return true
	case "tr":
		r.endCell()
		if !end {
			t.rows = append(t.rows, nil)
			t.allTH = true
		} else {
			r.endRow()
		}
		return true
	case "td", "th":
		r.endCell()
		if end {
			return true
		}
		if len(t.rows) == 0 {
			t.rows = append(t.rows, nil)
			t.allTH = true
		}
		if tag == "td" {
			t.allTH = false
		}
		t.inCell, t.cell, t.span = true, t.cell[:0], max(1, min(a.colspan, 1000))
		return true
	case "caption":
		r.endCell()
		r.flush()
		return true
	}
	return false
}

// endCell closes the open cell, adding it (and the empty cells its colspan covers) to the row.
func (r *mdRenderer) endCell() {
	t := r.table
	if !t.inCell {
		return
	}
	for len(r.links) > 0 {
		r.link(true, nil)
	}
	if r.code > 0 {
		r.code = 1
		r.codeTag("code", true)
	}
	t.inCell = false
	row := &t.rows[len(t.rows)-1]
	*row = append(*row, string(trimSpaceBytes(t.cell)))
	for i := 1; i < t.span; i++ {
		*row = append(*row, "")
	}
}

// endRow ends a row: it is a header row when it is the first and in a thead or all th.
func (r *mdRenderer) endRow() {
	t := r.table
	if len(t.rows) == 1 && t.header == 0 && len(t.rows[0]) > 0 && (t.inHead || t.allTH) {
		t.header = 1
	}
}

// endTable writes the table: its header row, or an empty one when it has none.
func (r *mdRenderer) endTable() {
	t := r.table
	r.endCell()
	if len(t.rows) > 0 {
		r.endRow()
	}
	r.table = nil
	var rows [][]string
	for _, row := range t.rows {
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return
	}
	var header []string
	if t.header > 0 && len(t.rows[0]) > 0 {
		header, rows = rows[0], rows[1:]
	}
	r.flush()
	r.blank = true
	var b strings.Builder
	writeMarkdownTable(&b, "", header, rows)
	for l := range strings.SplitSeq(strings.TrimSuffix(b.String(), "\n"), "\n") {
		r.writeLine([]byte(l))
	}
	r.blank = true
}
