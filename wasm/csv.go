package main

import "strings"

// csvRecords reads text as encoding/csv's Reader does with its defaults and any number of
// fields per record (commas, double quotes, "\r\n" read as "\n", empty lines skipped) and says
// whether it is CSV at all (a bare or unterminated quote is not). The module reads only CSV it
// is handed for the renderer, so it carries these few lines instead of encoding/csv and bufio;
// FuzzCSVRecords holds the two together.
func csvRecords(text string) ([][]string, bool) {
	lines := csvLines{rest: text}
	var records [][]string
	for {
		line, nl, ok := lines.next()
		for ok && line == "" {
			line, nl, ok = lines.next() // empty lines are skipped
		}
		if !ok {
			return records, true
		}
		var record []string
		for {
			if line == "" || line[0] != '"' {
				field, after, more := strings.Cut(line, ",")
				if strings.IndexByte(field, '"') >= 0 {
					return nil, false // a bare quote
				}
				record = append(record, field)
				if !more {
					break
				}
				line = after
				continue
			}
			field, after, end, ok := lines.quoted(line[1:], nl)
			if !ok {
				return nil, false
			}
			record = append(record, field)
			if end {
				break
			}
			line, nl = after, true
		}
		records = append(records, record)
	}
}

// csvLines hands out text a line at a time: without its "\n" (nl says whether it had one) and
// without one "\r" before it or before the end of the text.
type csvLines struct{ rest string }

func (c *csvLines) next() (line string, nl, ok bool) {
	if c.rest == "" {
		return "", false, false
	}
	line, c.rest, nl = strings.Cut(c.rest, "\n")
	return strings.TrimSuffix(line, "\r"), nl, true
}

// quoted reads a quoted field from line (after its opening quote; nl: the line had a "\n"),
// going on over as many lines as the field spans: the field, what follows its comma, and
// whether it ended the record; ok is false when a quote is unterminated or not followed by a
// comma or the end of the line.
func (c *csvLines) quoted(line string, nl bool) (field, after string, end, ok bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(line, '"')
		switch {
		case i >= 0:
			b.WriteString(line[:i])
			line = line[i+1:]
			switch {
			case line == "":
				return b.String(), "", true, true
			case line[0] == '"':
				b.WriteByte('"')
				line = line[1:]
			case line[0] == ',':
				return b.String(), line[1:], false, true
			default:
				return "", "", false, false
			}
		case line != "" || nl:
			b.WriteString(line)
			if nl {
				b.WriteByte('\n')
			}
			line, nl, _ = c.next()
		default:
			return "", "", false, false
		}
	}
}
