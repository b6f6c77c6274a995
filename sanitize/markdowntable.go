package sanitize

// Bounds on what a table's Markdown adds to the cells the page wrote, so that a few bytes of
// markup cannot make gigabytes of text (a colspan of 1000 over a thousand rows): the empty cells
// its spans cover (past maxSpanCells a span covers no more), and the padding of short rows to
// the widest (past maxTableCells in rows × columns, the rows after the header keep their own
// width).
const (
	maxSpanCells  = 1 << 16
	maxTableCells = 1 << 18
)

// mdTable is an open table: its cells' Markdown, one after another, and where each cell and
// row ends. Its buffers are reused from table to table.
type mdTable struct {
	cells   []byte // the finished cells' Markdown
	ends    []int  // where each cell ends in cells
	rows    []int  // where each row starts in ends
	header  bool   // the first row is a header row (in a thead, or all th)
	allTH   bool   // every cell of the open row is a th
	rowOpen bool
	cell    []byte // the open cell's Markdown
	inCell  bool
	inHead  bool
	span    int   // the open cell's colspan
	rowspan int   // the open cell's rowspan
	col     int   // the open row's next column
	down    []int // by column: the rows after the open one that a rowspan above covers
	padded  int   // the empty cells spans covered so far (at most maxSpanCells)
	nested  int   // depth of tables inside the open cell
}

// startTable opens a table, reusing the buffers of the last.
func (r *mdRenderer) startTable() {
	t := &r.tbl
	*t = mdTable{cells: t.cells[:0], ends: t.ends[:0], rows: t.rows[:0], cell: t.cell[:0], down: t.down[:0]}
	r.table = t
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
			}
			return true // a table start among a table's rows is not a table of its own
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
		r.endRow()
		if !end {
			r.startRow()
		}
		return true
	case "td", "th":
		r.endCell()
		if end {
			return true
		}
		if !t.rowOpen {
			r.startRow()
		}
		if tag == "td" {
			t.allTH = false
		}
		t.inCell, t.cell, t.span = true, t.cell[:0], max(1, min(a.colspan, 1000))
		t.rowspan = max(1, min(a.rowspan, 1000))
		return true
	case "caption":
		r.endCell()
		r.flush()
		return true
	}
	return false
}

func (r *mdRenderer) startRow() {
	t := r.table
	t.rows = append(t.rows, len(t.ends))
	t.rowOpen, t.allTH, t.col = true, true, 0
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
	r.coveredCells(len(t.down))
	t.cells = append(t.cells, trimSpaceBytes(t.cell)...)
	for i := range t.span {
		if i > 0 { // the cells a colspan covers are empty
			if t.padded >= maxSpanCells {
				break
			}
			t.padded++
		}
		t.ends = append(t.ends, len(t.cells))
		if t.col == len(t.down) {
			t.down = append(t.down, 0)
		}
		t.down[t.col] = t.rowspan - 1
		t.col++
	}
}

// coveredCells adds to the open row, from its next column up to column end, the empty cells
// that a rowspan of a row above covers, so that the row's own cells stay in their columns.
func (r *mdRenderer) coveredCells(end int) {
	t := r.table
	for t.col < end && t.down[t.col] > 0 && t.padded < maxSpanCells {
		t.down[t.col]--
		t.padded++
		t.ends = append(t.ends, len(t.cells))
		t.col++
	}
}

// endRow ends the open row: the first is a header row when it is in a thead or all th.
func (r *mdRenderer) endRow() {
	t := r.table
	if !t.rowOpen {
		return
	}
	for t.col < len(t.down) { // the columns after the row's last cell that rowspans cover
		r.coveredCells(len(t.down))
		if t.col < len(t.down) {
			t.down[t.col] = 0 // not covered, or past maxSpanCells
			t.col++
		}
	}
	t.rowOpen = false
	if len(t.rows) == 1 && len(t.ends) > 0 && (t.inHead || t.allTH) {
		t.header = true
	}
}

// endTable writes the table: its header row, or an empty one when it has none; rows without
// cells are left out.
func (r *mdRenderer) endTable() {
	t := r.table
	r.endCell()
	r.endRow()
	r.table = nil
	var rows [][2]int // each row's cells, [first, end) in t.ends
	cols := 0
	for i, start := range t.rows {
		end := len(t.ends)
		if i+1 < len(t.rows) {
			end = t.rows[i+1]
		}
		if end > start {
			rows = append(rows, [2]int{start, end})
			cols = max(cols, end-start)
		}
	}
	if len(rows) == 0 {
		return
	}
	r.flush()
	r.blank = true
	cell := func(row, col int, b []byte) []byte {
		i := rows[row][0] + col
		if i >= rows[row][1] {
			return b
		}
		start := 0
		if i > 0 {
			start = t.ends[i-1]
		}
		return append(b, t.cells[start:t.ends[i]]...)
	}
	var width func(row int) int // each row padded to cols
	if len(rows)*cols > maxTableCells {
		width = func(row int) int { return rows[row][1] - rows[row][0] }
	}
	r.lbuf = appendTableLines(r.lbuf[:0], len(rows), cols, t.header, width, cell, func(line []byte) {
		r.writeLine("", line, -1)
	})
	r.blank = true
}

// appendTableLines writes a GitHub-flavoured Markdown table of rows × cols cells, each line
// built in buf and handed to emit: the first row as its header row when header is set, else
// a header row of empty cells (a GFM table must have one); then the delimiter row and the rest,
// each of cols cells, or, when width is not nil, the rows after the header of width(row) cells.
// It returns buf, to be reused.
func appendTableLines(buf []byte, rows, cols int, header bool, width func(row int) int,
	cell func(row, col int, b []byte) []byte, emit func(line []byte)) []byte {
	row := func(r int) {
		buf = append(buf[:0], '|')
		n := cols
		if width != nil && (r > 0 || r == 0 && !header) {
			n = width(r)
		}
		for c := range n {
			buf = append(buf, ' ')
			if r >= 0 {
				buf = cell(r, c, buf)
			}
			buf = append(buf, " |"...)
		}
		emit(buf)
	}
	first := 0
	if header {
		row(0)
		first = 1
	} else {
		row(-1)
	}
	buf = append(buf[:0], '|')
	for range cols {
		buf = append(buf, " --- |"...)
	}
	emit(buf)
	for r := first; r < rows; r++ {
		row(r)
	}
	return buf
}
