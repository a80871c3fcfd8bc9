package pipeline_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// oneRoundSpecs are the valid specs the one-round tests break: the bundled
// examples and the docs' excerpt, in each input format we ship.
var oneRoundSpecs = []string{
	"../../examples/a4-training.yaml",
	"../../examples/seed.jsonc",
}

// mutation is one schema error put into a copy of a valid document.
type mutation struct {
	what  string
	apply func(root *load.Node)
}

// cloneNode deep-copies a document tree (positions kept).
func cloneNode(n *load.Node) *load.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Fields = make([]*load.Field, len(n.Fields))
	for i, f := range n.Fields {
		cf := *f
		cf.Value = cloneNode(f.Value)
		c.Fields[i] = &cf
	}
	c.Items = make([]*load.Node, len(n.Items))
	for i, it := range n.Items {
		c.Items[i] = cloneNode(it)
	}
	return &c
}

// at returns the node at p in root (a clone's root).
func at(root *load.Node, p load.Path) *load.Node {
	n, matched := root.Lookup(p)
	if matched != len(p) {
		panic(fmt.Sprintf("no node at %s", p))
	}
	return n
}

// wrongType is a value of another kind than n's.
func wrongType(n *load.Node) load.Node {
	if n.Kind == load.String {
		return load.Node{Kind: load.Number, Text: "7", Pos: n.Pos}
	}
	return load.Node{Kind: load.String, Text: "seven", Pos: n.Pos}
}

// mutations lists, for every value of a valid document, the schema errors
// a person makes there: a misspelt key, a value of the wrong type, a string
// of the wrong form, a field left out, a config key the map refuses.
func mutations(root *load.Node) []mutation {
	var out []mutation
	var walk func(n *load.Node, p load.Path)
	walk = func(n *load.Node, p load.Path) {
		switch n.Kind {
		case load.Object:
			for i, f := range n.Fields {
				fp := p.Key(f.Name)
				i, p := i, append(load.Path(nil), p...)
				out = append(out,
					mutation{"misspell " + fp.String(), func(r *load.Node) {
						fl := at(r, p).Fields[i]
						fl.Written = misspell(fl.Written)
						fl.Name = misspell(fl.Name)
					}},
					mutation{"drop " + fp.String(), func(r *load.Node) {
						o := at(r, p)
						o.Fields = append(o.Fields[:i:i], o.Fields[i+1:]...)
					}},
					mutation{"bad key " + fp.String(), func(r *load.Node) {
						fl := at(r, p).Fields[i]
						fl.Written += "-"
						fl.Name += "-"
					}},
				)
				walk(f.Value, fp)
			}
		case load.Array:
			for i, it := range n.Items {
				walk(it, p.Index(i))
			}
		}
		if len(p) == 0 {
			return
		}
		p = append(load.Path(nil), p...)
		out = append(out, mutation{"wrong type at " + p.String(), func(r *load.Node) {
			*at(r, p) = wrongType(at(r, p))
		}})
		if n.Kind == load.String {
			out = append(out, mutation{"bad string at " + p.String(), func(r *load.Node) {
				at(r, p).Text = "TODO choose " + n.Text
			}})
		}
	}
	walk(root, nil)
	return out
}

// misspell changes the last letter of a name: a typo the schema's
// did-you-mean recognises.
func misspell(s string) string {
	if s == "" {
		return "x"
	}
	last := s[len(s)-1]
	r := byte('q')
	if last == 'q' {
		r = 'x'
	}
	return s[:len(s)-1] + string(r)
}

// lintFindings are the findings of a result's lint rules, keyed by rule,
// path and message.
func lintFindings(r *pipeline.Result, ruleIDs map[string]bool) map[string]diag.Diagnostic {
	out := map[string]diag.Diagnostic{}
	for _, d := range r.Diags {
		if ruleIDs[d.Rule] {
			out[d.Rule+" "+d.Path+" "+d.Message] = d
		}
	}
	return out
}

// TestSchemaErrorsAddNoLintNoise breaks every value of the valid specs in
// every way the schema refuses, one at a time, and checks that the lint
// rules report nothing new: a finding that appears only because of a
// schema error is a consequence of it, noise beside the schema's own
// report. (Findings may disappear: a rule skips what it cannot read.)
func TestSchemaErrorsAddNoLintNoise(t *testing.T) {
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	ruleIDs := map[string]bool{}
	for _, r := range pipeline.Rules() {
		ruleIDs[r.ID] = true
	}
	for _, file := range oneRoundSpecs {
		t.Run(filepath.Base(file), func(t *testing.T) {
			s, err := p.SettingsFor(file)
			if err != nil {
				t.Fatal(err)
			}
			base := p.AnalyseFileWith(sch, file, nil, s)
			if base.Doc == nil || base.Diags.HasErrors() {
				t.Fatalf("%s is not a valid spec:\n%v", file, base.Diags)
			}
			want := lintFindings(base, ruleIDs)
			ms := mutations(base.Doc.Root)
			tried := 0
			for _, m := range ms {
				doc := *base.Doc
				doc.Root = cloneNode(base.Doc.Root)
				m.apply(doc.Root)
				r := p.AnalyseWith(sch, file, s, func(load.Options) (*load.Document, diag.List) { return &doc, nil })
				if !schemaError(r.Diags, ruleIDs) {
					continue // the schema accepts the change
				}
				tried++
				if r.Cluster != nil {
					t.Errorf("%s: a spec with errors has a Cluster to render", m.what)
				}
				var noise []string
				for k, d := range lintFindings(r, ruleIDs) {
					if _, ok := want[k]; !ok {
						noise = append(noise, fmt.Sprintf("%s: %s [%s] at %s", d.Pos, d.Message, d.Rule, d.Path))
					}
				}
				if len(noise) > 0 {
					sort.Strings(noise)
					t.Errorf("%s: lint reports consequences of the schema error:\n  %s\nschema: %s", m.what, strings.Join(noise, "\n  "), schemaErrors(r.Diags, ruleIDs))
				}
			}
			if tried < len(ms)/3 {
				t.Errorf("only %d of %d mutations were schema errors", tried, len(ms))
			}
			t.Logf("%d schema errors tried", tried)
		})
	}
}

// schemaError reports whether l has an error that is not a lint rule's.
func schemaError(l diag.List, lintIDs map[string]bool) bool {
	for _, d := range l {
		if d.Severity == diag.Error && !lintIDs[d.Rule] {
			return true
		}
	}
	return false
}

func schemaErrors(l diag.List, lintIDs map[string]bool) string {
	var out []string
	for _, d := range l {
		if !lintIDs[d.Rule] {
			out = append(out, d.Rule+" at "+d.Path)
		}
	}
	return strings.Join(out, "; ")
}
