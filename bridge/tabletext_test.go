package bridge

import (
	"encoding/csv"
	"strings"
	"testing"
)

// tableCells are cells at every edge the CSV and Markdown writers treat apart.
var tableCells = []string{"", "a", `\.`, `\..`, "a,b", `say "hi"`, "a\r\nb", "a\rb", "a\nb", " lead", "\tlead",
	"\u00a0lead", "\u3000lead", "trail ", `back\slash`, "pi|pe", "\r\n\r\n", "\xff\xfe", "é", `"`, "=1+1", "'quoted'"}

// TestWriteCSVRecordAsEncodingCSV holds writeCSVRecord to encoding/csv's Writer, whose output it
// replaces byte for byte.
func TestWriteCSVRecordAsEncodingCSV(t *testing.T) {
	records := [][]string{{}, {""}, {"", ""}, tableCells}
	for _, c := range tableCells {
		records = append(records, []string{c}, []string{c, c})
	}
	for _, rec := range records {
		var want strings.Builder
		w := csv.NewWriter(&want)
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		var got strings.Builder
		writeCSVRecord(&got, rec)
		if got.String() != want.String() {
			t.Errorf("writeCSVRecord(%q) = %q, encoding/csv writes %q", rec, got.String(), want.String())
		}
	}
}
