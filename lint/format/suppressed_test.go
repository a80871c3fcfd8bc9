package format

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/suppress"
)

// withSuppressed is the fixture with one finding an inline comment
// silenced in its first file.
func withSuppressed() Run {
	r := fixture()
	f := &r.Files[0]
	f.Suppressed = []suppress.Suppressed{{
		Diagnostic: diag.Diagnostic{Rule: "unused-pool", Severity: diag.Warning, Pos: diag.Pos{File: f.Name, Line: 3, Col: 5},
			Path: "nodePools[0]", Message: `node pool "spare" is in no partition`, Hint: "add it to a partition"},
		Justification: "held back for the spring reservation",
		Directive:     diag.Pos{File: f.Name, Line: 2, Col: 3},
	}}
	return r
}

// TestSuppressedFindings: SARIF keeps a silenced finding as a result with
// an inSource suppression (schema-valid), JSON lists it apart from the
// counted findings, and the text summary counts it.
func TestSuppressedFindings(t *testing.T) {
	r := withSuppressed()
	out := format(t, "sarif", Options{}, r)
	if err := validateBytes(t, sarifSchema(t), out); err != nil {
		t.Errorf("SARIF with suppressions does not match the 2.1.0 schema: %v", err)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []struct {
					Kind, Justification string
					Location            struct {
						PhysicalLocation struct {
							Region struct{ StartLine int }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	suppressed := 0
	for _, res := range doc.Runs[0].Results {
		if len(res.Suppressions) == 0 {
			continue
		}
		suppressed++
		s := res.Suppressions[0]
		if res.RuleID != "unused-pool" || s.Kind != "inSource" || s.Justification != "held back for the spring reservation" || s.Location.PhysicalLocation.Region.StartLine != 2 {
			t.Errorf("suppressed result: %+v", res)
		}
	}
	if suppressed != 1 || len(doc.Runs[0].Results) != countAll(fixture())+1 {
		t.Errorf("%d suppressed of %d results; want 1 of %d", suppressed, len(doc.Runs[0].Results), countAll(fixture())+1)
	}

	rep, plainRep := JSON{}.Report(r), JSON{}.Report(fixture())
	want := plainRep.Summary
	want.Suppressed = 1
	if rep.Summary != want || len(rep.Files[0].Suppressed) != 1 || rep.Files[0].Suppressed[0].Justification != "held back for the spring reservation" ||
		rep.Files[0].Suppressed[0].DirectiveLine != 2 || rep.Files[0].Suppressed[0].Rule != "unused-pool" {
		t.Errorf("json: summary %+v (want %+v), suppressed %+v", rep.Summary, want, rep.Files[0].Suppressed)
	}
	if plain := format(t, "json", Options{}, fixture()); strings.Contains(string(plain), "suppressed") {
		t.Error("json without suppressions mentions them (the keys are omitted when empty)")
	}

	text := string(format(t, "text", Options{FileSummary: true}, r))
	if !strings.Contains(text, ", 1 suppressed\n") || strings.Contains(text, "spring") {
		t.Errorf("text: the summary counts the suppressed finding and does not print it:\n%s", text)
	}
}

func countAll(r Run) int {
	n := 0
	for _, f := range r.Files {
		n += len(f.Diags.Sort())
	}
	return n
}
