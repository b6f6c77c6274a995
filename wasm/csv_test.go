package main

import (
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
)

// byEncodingCSV is what encoding/csv reads from text with the settings csvTables used.
func byEncodingCSV(text string) ([][]string, bool) {
	rd := csv.NewReader(strings.NewReader(text))
	rd.FieldsPerRecord = -1
	records, err := rd.ReadAll()
	return records, err == nil
}

var csvSeeds = []string{
	"", "\n", "\r\n", "\r", "a", "a,b\nc", "a,b\r\nc,d\r\n", "a,,\n,\n", "\n\na\n\n", `"a,b",c`,
	`"a""b"`, "\"a\nb\",c\r\nd", "\"a\r\nb\"", `"a"b`, `a"b`, `"a`, "\"a\n", `"a" `, `"a"` + "\r", "a\rb,c",
	"a\r\r\n", `"",""` + "\n", ` "a"`, "\"a\"\r\nb", "é,\"ü\"\n", "a,\"b\nc\"\n\nd", "\"\"\"\"", "\"a\n\n\"",
}

// TestCSVRecordsAgreesWithEncodingCSV reads every seed both ways.
func TestCSVRecordsAgreesWithEncodingCSV(t *testing.T) {
	for _, text := range csvSeeds {
		got, ok := csvRecords(text)
		want, wantOK := byEncodingCSV(text)
		if ok != wantOK || ok && !reflect.DeepEqual(got, want) {
			t.Errorf("csvRecords(%q) = %q, %v; encoding/csv: %q, %v", text, got, ok, want, wantOK)
		}
	}
}

// FuzzCSVRecords looks for text that the module's reader and encoding/csv read apart.
func FuzzCSVRecords(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, ok := csvRecords(text)
		want, wantOK := byEncodingCSV(text)
		if ok != wantOK || ok && !reflect.DeepEqual(got, want) {
			t.Errorf("csvRecords(%q) = %q, %v; encoding/csv: %q, %v", text, got, ok, want, wantOK)
		}
	})
}
