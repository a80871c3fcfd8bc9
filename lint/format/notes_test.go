package format

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// A finding of severity info is a note in every count: the text summary,
// JSON's summary, the github format's closing line and SARIF's level.
func TestNotesNamedAlike(t *testing.T) {
	l := diag.List{{Rule: "reserved-key", Severity: diag.Error, Pos: diag.Pos{File: "a.yaml", Line: 1, Col: 1}, Message: "e"}}
	for i := range 11 {
		l = append(l, diag.Diagnostic{Rule: "placeholder", Severity: diag.Info, Pos: diag.Pos{File: "a.yaml", Line: 2 + i, Col: 1}, Message: "i"})
	}
	r := Run{Files: []File{{Name: "a.yaml", Diags: l}}}

	if got := string(format(t, "text", Options{FileSummary: true}, r)); !strings.HasSuffix(got, "\na.yaml: 1 error, 0 warnings, 11 notes\n") {
		t.Errorf("text summary:\n%s", got)
	}

	var doc struct{ Summary map[string]int }
	if err := json.Unmarshal(format(t, "json", Options{}, r), &doc); err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"errors": 1, "warnings": 0, "notes": 11}; !maps.Equal(doc.Summary, want) {
		t.Errorf("JSON summary %v, want %v", doc.Summary, want)
	}

	var tally GitHubTally
	tally.Add(l)
	if got := tally.Note(); !strings.Contains(got, "slurmspec found 1 error, 0 warnings and 11 notes;") {
		t.Errorf("github closing line: %s", got)
	}

	var log struct {
		Runs []struct{ Results []struct{ Level string } }
	}
	if err := json.Unmarshal(format(t, "sarif", Options{}, r), &log); err != nil {
		t.Fatal(err)
	}
	levels := map[string]int{}
	for _, res := range log.Runs[0].Results {
		levels[res.Level]++
	}
	if want := map[string]int{"error": 1, "note": 11}; !maps.Equal(levels, want) {
		t.Errorf("SARIF levels %v, want %v", levels, want)
	}
}
