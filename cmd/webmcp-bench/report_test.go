//go:build !js

package main

import (
	"strings"
	"testing"
	"time"
)

// TestReportWritesEveryRow: the report (docs/benchmarks.md) has a line for every row every step
// measures — the figures, target and verdict of a measured row, the row's title where a run
// left it out — and says when, where and under what load it was measured.
func TestReportWritesEveryRow(t *testing.T) {
	b := &bench{rowLoad: map[string]string{}, command: "make bench", chromium: "Chromium 156.0", load: "0.50 → 0.70"}
	var skipped []rowSpec
	for i, s := range steps {
		if i%3 == 2 {
			skipped = append(skipped, s.rows...) // as if -only left this step out
			continue
		}
		b.stepRows = stepRows(s.name)
		for _, id := range b.stepRows {
			b.add(row{id, "what " + id, "measured " + id, "ratio " + id, "target " + id, "met " + id})
		}
	}
	report := b.report(time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC))
	for _, r := range b.rows {
		line := "| what " + r.id + " | measured " + r.id + " | ratio " + r.id + " | target " + r.id + " | met " + r.id + " | "
		if !strings.Contains(report, line) {
			t.Errorf("the report has no line %q", line)
		}
	}
	for _, r := range skipped {
		if !strings.Contains(report, "| "+r.title+" | not measured in this run") {
			t.Errorf("the report does not say that %q was not measured", r.title)
		}
	}
	for _, want := range []string{
		"2026-11-25 22:00 UTC", "cores", "load average (1 minute): 0.50 → 0.70", "headless Chromium 156.0",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	if len(skipped) == 0 || len(b.rows) == 0 {
		t.Fatal("the test measures no row or skips none")
	}
}

// TestStepsDeclareEachRowOnce: a row id names one row of one step.
func TestStepsDeclareEachRowOnce(t *testing.T) {
	seen := map[string]string{}
	for _, s := range steps {
		if len(s.rows) == 0 {
			t.Errorf("step %s declares no row", s.name)
		}
		for _, r := range s.rows {
			if prev, ok := seen[r.id]; ok {
				t.Errorf("row %q is declared by %s and %s", r.id, prev, s.name)
			}
			seen[r.id] = s.name
		}
	}
}
