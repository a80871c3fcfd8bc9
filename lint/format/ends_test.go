package format

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// An end the formats cannot stand behind (unknown, without a column, not
// after the start, or after a start without a column) is left out of JSON
// (no endLine or endColumn key, not 0) and of the SARIF region (whose
// endLine may not precede startLine); a known end is written by both.
func TestUnknownEndLeftOut(t *testing.T) {
	cases := []struct {
		pos     diag.Pos
		written bool
	}{
		{diag.Pos{File: "a.yaml", Line: 3, Col: 4}, false},                        // a bash-script finding: no end
		{diag.Pos{File: "a.yaml", Line: 3, Col: 4, EndLine: 3}, false},            // end without a column
		{diag.Pos{File: "a.yaml", Line: 5, Col: 4, EndLine: 3, EndCol: 9}, false}, // end before the start
		{diag.Pos{File: "a.yaml", Line: 3, Col: 4, EndLine: 3, EndCol: 4}, false}, // empty range
		{diag.Pos{File: "a.yaml", Line: 3, EndLine: 4, EndCol: 2}, false},         // start without a column
		{diag.Pos{File: "a.yaml", Line: 3, Col: 4, EndLine: 4, EndCol: 1}, true},  // next line
		{diag.Pos{File: "a.yaml", Line: 3, Col: 4, EndLine: 3, EndCol: 5}, true},  // one character
	}
	sch := sarifSchema(t)
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d:%d-%d:%d", c.pos.Line, c.pos.Col, c.pos.EndLine, c.pos.EndCol), func(t *testing.T) {
			d := diag.Diagnostic{Rule: "bash-syntax", Severity: diag.Error, Pos: c.pos, Message: "m",
				Related: []diag.Related{{Pos: c.pos, Message: "r"}}}
			r := Run{Files: []File{{Name: "a.yaml", Diags: diag.List{d}}}}

			var doc struct {
				Files []struct {
					Diagnostics []map[string]any
				}
			}
			if err := json.Unmarshal(format(t, "json", Options{}, r), &doc); err != nil {
				t.Fatal(err)
			}
			jd := doc.Files[0].Diagnostics[0]
			related := jd["related"].([]any)[0].(map[string]any)
			for what, obj := range map[string]map[string]any{"diagnostic": jd, "related": related} {
				el, hasLine := obj["endLine"]
				ec, hasCol := obj["endColumn"]
				switch {
				case hasLine != c.written || hasCol != c.written:
					t.Errorf("JSON %s: endLine %v endColumn %v, want them written: %v", what, el, ec, c.written)
				case c.written && (el != float64(c.pos.EndLine) || ec != float64(c.pos.EndCol)):
					t.Errorf("JSON %s: end %v:%v, want %d:%d", what, el, ec, c.pos.EndLine, c.pos.EndCol)
				}
			}

			out := format(t, "sarif", Options{}, r)
			if err := validateBytes(t, sch, out); err != nil {
				t.Errorf("SARIF output does not match the 2.1.0 schema: %v", err)
			}
			var log struct {
				Runs []struct {
					Results []struct {
						Locations, RelatedLocations []struct {
							PhysicalLocation struct {
								Region map[string]int
							}
						}
					}
				}
			}
			if err := json.Unmarshal(out, &log); err != nil {
				t.Fatal(err)
			}
			res := log.Runs[0].Results[0]
			for what, locs := range map[string][]struct {
				PhysicalLocation struct{ Region map[string]int }
			}{"location": res.Locations, "related location": res.RelatedLocations} {
				reg := locs[0].PhysicalLocation.Region
				el, hasLine := reg["endLine"]
				_, hasCol := reg["endColumn"]
				if hasLine != c.written || hasCol != c.written {
					t.Errorf("SARIF %s: region %v, want the end written: %v", what, reg, c.written)
				}
				if hasLine && el < reg["startLine"] {
					t.Errorf("SARIF %s: endLine %d before startLine %d", what, el, reg["startLine"])
				}
			}
		})
	}
}
