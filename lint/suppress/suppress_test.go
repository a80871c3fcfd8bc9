package suppress_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/suppress"
)

var testRules = ids.MustNew([]ids.Entry{
	{ID: "r1", Stage: ids.Lint, Severity: diag.Warning, Summary: "s", Doc: "d"},
	{ID: "r2", Stage: ids.Lint, Severity: diag.Warning, Summary: "s", Doc: "d"},
	{ID: "r4", Stage: ids.Lint, Severity: diag.Warning, Summary: "s", Doc: "d"},
	{ID: "r5", Stage: ids.Online, Severity: diag.Warning, Summary: "s", Doc: "d"},
	{ID: "guarded", Stage: ids.Lint, Severity: diag.Error, Guard: "it keeps render safe", Summary: "s", Doc: "d"},
	{ID: "schema-type", Stage: ids.Schema, Severity: diag.Error, Summary: "s", Doc: "d"},
}, suppress.Entries())

// at is a finding of rule at line (and spec path).
func at(rule string, line int, path string) diag.Diagnostic {
	return diag.Diagnostic{Rule: rule, Severity: diag.Warning, Pos: diag.Pos{File: "spec", Line: line, Col: 1}, Path: path, Message: rule}
}

func loadDoc(t *testing.T, name, src string) *load.Document {
	t.Helper()
	doc, l := load.Bytes(name, []byte(src), load.Options{})
	if doc == nil || doc.Root == nil || l.HasErrors() {
		t.Fatalf("load %s: %v", name, l)
	}
	doc.File = "spec"
	return doc
}

// outcome is what Apply did: "kept" and "silenced" as rule@line, and the
// directives' own findings as rule@line.
func outcome(kept diag.List, sup []suppress.Suppressed, own diag.List) (string, string, string) {
	f := func(l diag.List) string {
		var s []string
		for _, d := range l {
			s = append(s, fmt.Sprintf("%s@%d", d.Rule, d.Pos.Line))
		}
		return strings.Join(s, " ")
	}
	var silenced diag.List
	for _, s := range sup {
		silenced = append(silenced, s.Diagnostic)
	}
	return f(kept), f(silenced), f(own)
}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		diags     diag.List
		disabled  string
		kept      string
		silenced  string
		own       string
		paths     map[int]string // the spec paths of own findings, by line
	}{{
		name: "a.yaml",
		src: `nodePools:
  - id: a   # slurmspec:ignore r1 -- this line only
    zone: z
  # slurmspec:ignore r1,r2 -- the whole pool
  - id: b
    zone: z
  - id: c
`,
		diags: diag.List{at("r1", 2, "nodePools[0].id"), at("r2", 2, "nodePools[0].id"), at("r1", 3, "nodePools[0].zone"),
			at("r1", 6, "nodePools[1].zone"), at("r2", 0, "nodePools[1]"), at("r1", 7, "nodePools[2].id")},
		kept:     "r2@2 r1@3 r1@7",
		silenced: "r1@2 r1@6 r2@0",
	}, {
		name: "scalars.yaml",
		src: `a: |
  # slurmspec:ignore r1 -- inside a block scalar
b: "x # slurmspec:ignore r1 -- inside a quoted string"
c: 'y # slurmspec:ignore r1 -- inside a quoted string'
`,
		diags: diag.List{at("r1", 1, "a"), at("r1", 3, "b"), at("r1", 4, "c")},
		kept:  "r1@1 r1@3 r1@4",
	}, {
		name: "a.jsonc",
		src: `{
  "s": "// slurmspec:ignore r1 -- in a string",
  // slurmspec:ignore r1 -- the next value
  "nodePools": [
    {"id": "a"}, /* slurmspec:ignore r2 -- a block comment */
    {"id": "b"}
  ]
}
`,
		diags:    diag.List{at("r1", 2, "s"), at("r1", 5, "nodePools[0].id"), at("r2", 5, "nodePools[0].id"), at("r2", 6, "nodePools[1].id")},
		kept:     "r1@2 r2@6",
		silenced: "r1@5 r2@5",
	}, {
		name: "a.cue",
		src: `s: "// slurmspec:ignore r1 -- in a string"
// slurmspec:ignore r1 -- the next field
nodePools: [
	{id: "a"},
	{id: "b"}, // slurmspec:ignore r2 -- trailing
]
`,
		diags:    diag.List{at("r1", 1, "s"), at("r1", 4, "nodePools[0].id"), at("r2", 5, "nodePools[1].id"), at("r2", 4, "nodePools[0].id")},
		kept:     "r1@1 r2@4",
		silenced: "r1@4 r2@5",
	}, {
		name: "interpolation.cue",
		src: `b: "q"
a: "x\(b)y\((len(b)+1))z" // slurmspec:ignore r1 -- after two interpolations
c: """
	\("(")
	""" // slurmspec:ignore r2 -- after a multi-line string
`,
		diags:    diag.List{at("r1", 2, "a"), at("r2", 5, "c")},
		silenced: "r1@2 r2@5",
	}, {
		name: "prose.jsonc",
		src: `// slurmspec: the training cluster's spec (prose, not a directive)
{
  /* slurmspec:ignore
     r1 -- a block comment over lines */
  "a": 1
}
`,
		diags:    diag.List{at("r1", 5, "a")},
		silenced: "r1@5",
	}, {
		name: "file.yaml",
		src: `# slurmspec:ignore-file r1 -- the whole file
a: 1
b: 2
`,
		diags:    diag.List{at("r1", 2, "a"), at("r1", 3, "b"), at("r2", 3, "b")},
		kept:     "r2@3",
		silenced: "r1@2 r1@3",
	}, {
		name: "bad.yaml",
		src: `# slurmspec:ignore r1
a: 1
# slurmspec:ignore r1 --
b: 1
c: 1 # slurmspec:ignore r3 -- unknown
d: 1 # slurmspec:ignore guarded -- guarded rules cannot be
e: 1 # slurmspec:ignore schema-enum -- schema errors cannot be
f: 1 # slurmspec:ignore unused-suppression -- nor our own
g: 1 # slurmspec:ignroe r1 -- typo
h: 1 # slurmspec:ignore -- no rule
i: 1 # slurmspec:ignore r5 -- not inline
# slurmspec:ignore r1 -- precedes nothing
`,
		diags: diag.List{at("r1", 2, "a"), at("r1", 4, "b"), at("guarded", 6, "d")},
		kept:  "r1@2 r1@4 guarded@6",
		paths: map[int]string{1: "a", 3: "b", 5: "c", 6: "d"},
		own:   "invalid-suppression@1 invalid-suppression@3 invalid-suppression@5 invalid-suppression@6 invalid-suppression@7 invalid-suppression@8 invalid-suppression@9 invalid-suppression@10 invalid-suppression@11 invalid-suppression@12",
	}, {
		name: "unused.yaml",
		src: `a: 1 # slurmspec:ignore r1,r2 -- r2 matches nothing
b: 1 # slurmspec:ignore r4 -- r4 is disabled
`,
		diags:    diag.List{at("r1", 1, "a")},
		disabled: "r4",
		silenced: "r1@1",
		own:      "unused-suppression@1",
		paths:    map[int]string{1: "a"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			doc := loadDoc(t, tc.name, tc.src)
			kept, sup, own := suppress.Apply(doc, tc.diags, suppress.Policy{Catalog: testRules, Disabled: map[string]bool{tc.disabled: true}})
			k, s, o := outcome(kept, sup, own)
			if k != tc.kept || s != tc.silenced || o != tc.own {
				t.Errorf("kept %q, silenced %q, own %q\nwant kept %q, silenced %q, own %q\nown: %v", k, s, o, tc.kept, tc.silenced, tc.own, own)
			}
			for _, d := range own {
				if !d.Pos.IsValid() || d.Pos.File != "spec" || d.Hint == "" {
					t.Errorf("directive finding without a position or hint: %+v", d)
				}
				if want := tc.paths[d.Pos.Line]; want != "" && d.Path != want {
					t.Errorf("finding at line %d names path %q, want %q", d.Pos.Line, d.Path, want)
				}
			}
		})
	}
}

// TestJustification: a silenced finding carries the reason and the
// directive's position (SARIF's suppression).
func TestJustification(t *testing.T) {
	doc := loadDoc(t, "a.yaml", "a: 1\nb: 2  #   slurmspec:ignore r1 --  kept for the migration  \n")
	_, sup, _ := suppress.Apply(doc, diag.List{at("r1", 2, "b")}, suppress.Policy{Catalog: testRules})
	if len(sup) != 1 || sup[0].Justification != "kept for the migration" || sup[0].Directive != (diag.Pos{File: "spec", Line: 2, Col: 7}) {
		t.Fatalf("got %+v", sup)
	}
}

// TestUnusedAfterStageErrors: with schema or compile errors rules skip
// values, so no directive is reported unused.
func TestUnusedAfterStageErrors(t *testing.T) {
	doc := loadDoc(t, "a.yaml", "a: 1 # slurmspec:ignore r1 -- r1 did not run\n")
	stage := diag.Diagnostic{Rule: "schema-type", Severity: diag.Error, Pos: diag.Pos{File: "spec", Line: 1}}
	_, _, own := suppress.Apply(doc, diag.List{stage}, suppress.Policy{Catalog: testRules})
	if len(own) != 0 {
		t.Errorf("unused reported after a schema error: %v", own)
	}
	_, _, own = suppress.Apply(doc, nil, suppress.Policy{Catalog: testRules})
	if len(own) != 1 || own[0].Rule != suppress.RuleUnused {
		t.Errorf("want one unused-suppression, got %v", own)
	}
}

// TestHostile: directives are bounded in number, length and rules, and
// the work stays linear.
func TestHostile(t *testing.T) {
	var b strings.Builder
	n := suppress.MaxDirectives + 500
	for i := range n {
		fmt.Fprintf(&b, "k%d: 1 # slurmspec:ignore r1 -- r\n", i)
	}
	doc := loadDoc(t, "many.yaml", b.String())
	var l diag.List
	for i := range n {
		l = append(l, at("r1", i+1, fmt.Sprintf("k%d", i)))
	}
	kept, sup, own := suppress.Apply(doc, l, suppress.Policy{Catalog: testRules})
	if len(sup) != suppress.MaxDirectives || len(kept) != n-suppress.MaxDirectives {
		t.Errorf("silenced %d, kept %d; want %d and %d", len(sup), len(kept), suppress.MaxDirectives, n-suppress.MaxDirectives)
	}
	if len(own) != 1 || own[0].Rule != suppress.RuleInvalid || own[0].Pos.Line != suppress.MaxDirectives+1 {
		t.Errorf("want one invalid-suppression at the first directive too many, got %v", own)
	}

	// Stacked directives all apply to the next line with code; finding it
	// once per directive used to walk every line after it (quadratic).
	stacked := strings.Repeat("// slurmspec:ignore r1 -- stacked\n", 200_000) + "{\"a\": 1}\n"
	kept, sup, own = suppress.Apply(loadDoc(t, "stacked.jsonc", stacked), diag.List{at("r1", 200_001, "a")}, suppress.Policy{Catalog: testRules})
	if len(kept) != 0 || len(sup) != 1 || len(own) != suppress.MaxDirectives || own[0].Pos.Line != suppress.MaxDirectives+1 {
		t.Errorf("stacked: kept %d, silenced %d, own %d (first at %v)", len(kept), len(sup), len(own), own[0].Pos)
	}

	huge := "a: 1 # slurmspec:ignore r1 -- " + strings.Repeat("x", 1<<20) + "\n"
	_, _, own = suppress.Apply(loadDoc(t, "huge.yaml", huge), nil, suppress.Policy{Catalog: testRules})
	if len(own) != 1 || !strings.Contains(own[0].Message, "longer than") {
		t.Errorf("huge directive: %v", own)
	}

	manyRules := "a: 1 # slurmspec:ignore " + strings.Repeat("r1,", suppress.MaxRules+1) + " -- r\n"
	_, _, own = suppress.Apply(loadDoc(t, "rules.yaml", manyRules), nil, suppress.Policy{Catalog: testRules})
	if len(own) != 1 || !strings.Contains(own[0].Message, "more than") {
		t.Errorf("many rules: %v", own)
	}
}

// TestNoDocument: a spec that did not parse keeps its findings.
func TestNoDocument(t *testing.T) {
	l := diag.List{at("load-syntax", 1, "")}
	kept, sup, own := suppress.Apply(nil, l, suppress.Policy{Catalog: testRules})
	if len(kept) != 1 || sup != nil || own != nil {
		t.Errorf("got %v %v %v", kept, sup, own)
	}
}

// FuzzApply: any spec that loads, with any comments, is scanned without a
// panic, and a directive's findings carry positions inside the file.
func FuzzApply(f *testing.F) {
	for _, seed := range []string{
		"a: 1 # slurmspec:ignore r1 -- x\n",
		"# slurmspec:ignore-file r1,r2 -- x\nb: |\n  # slurmspec:ignore r1 -- y\n",
		"{\"a\": \"//\", /* slurmspec:ignore r1 -- x */ \"b\": 1} // slurmspec:bogus\n",
		"a: \"\\(b)\" // slurmspec:ignore r2 -- x\nb: \"q\"\n",
		"c: \"\"\"\n\t// slurmspec:ignore r1 -- in a string\n\t\"\"\"\n",
	} {
		for _, ext := range []string{".yaml", ".jsonc", ".cue"} {
			f.Add(ext, seed)
		}
	}
	f.Fuzz(func(t *testing.T, ext, src string) {
		if ext != ".yaml" && ext != ".jsonc" && ext != ".cue" {
			return
		}
		doc, _ := load.Bytes("spec"+ext, []byte(src), load.Options{})
		if doc == nil || doc.Root == nil {
			return
		}
		lines := strings.Count(src, "\n") + 1
		l := diag.List{at("r1", 1, ""), at("r2", 2, "a")}
		kept, sup, own := suppress.Apply(doc, l, suppress.Policy{Catalog: testRules})
		if len(kept)+len(sup) != len(l) {
			t.Fatalf("%d kept + %d silenced of %d findings", len(kept), len(sup), len(l))
		}
		for _, d := range own {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 {
				t.Fatalf("directive finding outside the file: %v", d)
			}
		}
	})
}

// BenchmarkApply: a 1000-pool YAML spec with a directive before every pool
// and a finding in every pool.
func BenchmarkApply(b *testing.B) {
	var src strings.Builder
	src.WriteString("nodePools:\n")
	var l diag.List
	for i := range 1000 {
		fmt.Fprintf(&src, "  # slurmspec:ignore r1 -- pool %d\n  - id: p%d\n    zone: z\n", i, i)
		l = append(l, at("r1", 3*i+4, fmt.Sprintf("nodePools[%d].zone", i)))
	}
	doc, _ := load.Bytes("spec.yaml", []byte(src.String()), load.Options{})
	b.ResetTimer()
	for b.Loop() {
		kept, _, _ := suppress.Apply(doc, l, suppress.Policy{Catalog: testRules})
		if len(kept) != 0 {
			b.Fatal(kept)
		}
	}
}
