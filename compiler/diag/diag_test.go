package diag

import (
	"reflect"
	"testing"
)

func TestSeverity(t *testing.T) {
	for _, s := range []Severity{Info, Warning, Error} {
		back, err := ParseSeverity(s.String())
		if err != nil || back != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s, back, err)
		}
	}
	for in, want := range map[string]Severity{"WARN": Warning, "Error": Error, "info": Info} {
		if got, err := ParseSeverity(in); err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity accepted fatal")
	}
	if got := Severity(7).String(); got != "severity(7)" {
		t.Errorf("unknown severity prints %q", got)
	}
	if !(Info < Warning && Warning < Error) {
		t.Error("severities are not ordered")
	}
}

func TestPos(t *testing.T) {
	for _, tc := range []struct {
		p    Pos
		want string
	}{
		{Pos{}, "-"},
		{Pos{File: "a.yaml"}, "a.yaml"},
		{Pos{File: "a.yaml", Line: 3}, "a.yaml:3"},
		{Pos{File: "a.yaml", Line: 3, Col: 7}, "a.yaml:3:7"},
		{Pos{Line: 3, Col: 7}, ":3:7"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.p, got, tc.want)
		}
	}
	if (Pos{File: "a", Line: 2}).Compare(Pos{File: "a", Line: 10}) >= 0 || (Pos{File: "b"}).Compare(Pos{File: "a", Line: 9}) <= 0 ||
		(Pos{File: "a", Line: 2, Col: 3}).Compare(Pos{File: "a", Line: 2, Col: 3}) != 0 {
		t.Error("Pos.Compare does not order by file, line, column")
	}
}

// TestSortDeterministic: Sort orders by position, rule, path and message,
// removes exact duplicates only, and leaves its argument alone.
func TestSortDeterministic(t *testing.T) {
	a := Diagnostic{Rule: "b-rule", Severity: Error, Pos: Pos{File: "f", Line: 2, Col: 1}, Message: "m"}
	b := Diagnostic{Rule: "a-rule", Severity: Warning, Pos: Pos{File: "f", Line: 2, Col: 1}, Message: "m"}
	c := Diagnostic{Rule: "a-rule", Severity: Warning, Pos: Pos{File: "f", Line: 1, Col: 9}, Message: "m"}
	sameButHint := b
	sameButHint.Hint = "other"
	in := List{a, b, c, b, sameButHint}
	got := in.Sort()
	want := List{c, b, sameButHint, a}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sort:\n got %v\nwant %v", got, want)
	}
	if !reflect.DeepEqual(in, List{a, b, c, b, sameButHint}) {
		t.Error("Sort modified its argument")
	}
}

func TestCountAndSummary(t *testing.T) {
	var l List
	l.Errorf("r", Pos{}, "", "", "e%d", 1)
	l.Warnf("r", Pos{}, "", "", "w")
	l.Warnf("r", Pos{}, "", "", "w2")
	l.Add(Diagnostic{Rule: "r", Severity: Info})
	if l.Count(Error) != 1 || l.Count(Warning) != 3 || l.Count(Info) != 4 || !l.HasErrors() {
		t.Errorf("counts: %d %d %d", l.Count(Error), l.Count(Warning), l.Count(Info))
	}
	if l[0].Message != "e1" || l[0].Severity != Error || l[1].Severity != Warning {
		t.Errorf("Errorf/Warnf: %v", l)
	}
	if got := l.Summary(); got != "1 error, 2 warnings, 1 note" {
		t.Errorf("Summary = %q", got)
	}
	if got := (List{}).Summary(); got != "0 errors, 0 warnings" {
		t.Errorf("empty Summary = %q", got)
	}
	notes := List{{Rule: "r", Severity: Info}, {Rule: "r", Severity: Info}}
	if got := notes.Summary(); got != "0 errors, 0 warnings, 2 notes" {
		t.Errorf("notes-only Summary = %q", got)
	}
	if got := Plural(1, "resource") + "/" + Plural(0, "resource") + "/" + Plural(3, "node"); got != "1 resource/0 resources/3 nodes" {
		t.Errorf("Plural: %q", got)
	}
	d := Diagnostic{Rule: "x", Severity: Warning, Pos: Pos{File: "f", Line: 1, Col: 2}, Message: "msg"}
	if d.String() != "f:1:2: warning: msg [x]" {
		t.Errorf("Diagnostic.String = %q", d.String())
	}
}

func TestSuggest(t *testing.T) {
	ids := []string{"placeholder", "unused-pool", "reserved-key"}
	for name, want := range map[string]string{
		"placeholders":  "placeholder",
		"unused_pool":   "unused-pool",
		"UnusedPool":    "unused-pool",
		"reserved-keys": "reserved-key",
		"zzz":           "",
		"":              "",
	} {
		if got := Suggest(name, ids); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", name, got, want)
		}
	}
	if got := DidYouMean("placeholders", ids, "fallback"); got != `did you mean "placeholder"?` {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("placeholder", ids, "fallback"); got != "fallback" {
		t.Errorf("DidYouMean of an exact name = %q", got)
	}
	if got := DidYouMean("zzz", nil, "fallback"); got != "fallback" {
		t.Errorf("DidYouMean with no candidates = %q", got)
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance = %d", d)
	}
	if d := editDistance("é", "e"); d != 1 {
		t.Errorf("editDistance counts bytes, not runes: %d", d)
	}
}

// TestRange: a range prints and sorts as its start; Through keeps only an
// end that is after the start in the same file.
func TestRange(t *testing.T) {
	start := Pos{File: "a.yaml", Line: 3, Col: 7}
	r := start.Through(Pos{File: "a.yaml", Line: 5, Col: 2})
	if !r.HasEnd() || r.EndLine != 5 || r.EndCol != 2 || r.Start() != start {
		t.Errorf("Through: %#v", r)
	}
	if r.String() != "a.yaml:3:7" || r.Compare(start) != 0 {
		t.Errorf("a range prints as %q, compares %d to its start", r, r.Compare(start))
	}
	if got := r.End(); got != (Pos{File: "a.yaml", Line: 5, Col: 2}) {
		t.Errorf("End = %#v", got)
	}
	if got := start.End(); got.IsValid() || start.HasEnd() {
		t.Errorf("a position without end has End %#v", got)
	}
	for _, end := range []Pos{
		{File: "a.yaml", Line: 3, Col: 7}, // empty
		{File: "a.yaml", Line: 2, Col: 9}, // before
		{File: "b.yaml", Line: 9, Col: 1}, // other file
		{File: "a.yaml"},                  // unknown
	} {
		if got := r.Through(end); got.HasEnd() || got != start {
			t.Errorf("Through(%#v) = %#v, want no end", end, got)
		}
	}
	if got := (Pos{File: "a"}).Through(Pos{File: "a", Line: 1, Col: 2}); got.HasEnd() {
		t.Errorf("an unknown start got an end: %#v", got)
	}
}
