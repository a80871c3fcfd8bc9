package pipelinetest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// Mutation is one schema error put into a copy of a valid document: a
// misspelt key, a field left out, a key the map refuses, a value of the
// wrong type or a string of the wrong form.
type Mutation struct {
	What  string
	Apply func(root *load.Node)
}

// Clone deep-copies a document tree, positions kept.
func Clone(n *load.Node) *load.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Fields = make([]*load.Field, len(n.Fields))
	for i, f := range n.Fields {
		cf := *f
		cf.Value = Clone(f.Value)
		c.Fields[i] = &cf
	}
	c.Items = make([]*load.Node, len(n.Items))
	for i, it := range n.Items {
		c.Items[i] = Clone(it)
	}
	return &c
}

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

// misspell changes the last letter of a name: a typo the schema's
// did-you-mean recognises.
func misspell(s string) string {
	if s == "" {
		return "x"
	}
	r := "q"
	if s[len(s)-1] == 'q' {
		r = "x"
	}
	return s[:len(s)-1] + r
}

// Mutations lists, for every value of a document, the mistakes a person
// makes there: a misspelt key, a field left out, a key the map refuses, a
// value of the wrong type, a malformed string, a number out of range, and,
// in a list of objects, a string copied from the element before (a
// duplicated id). Each applies to a Clone of root.
func Mutations(root *load.Node) []Mutation {
	var out []Mutation
	var walk func(n *load.Node, p load.Path)
	walk = func(n *load.Node, p load.Path) {
		p = append(load.Path(nil), p...)
		switch n.Kind {
		case load.Object:
			for i, f := range n.Fields {
				fp := p.Key(f.Name)
				out = append(out,
					Mutation{"misspell " + fp.String(), func(r *load.Node) {
						fl := at(r, p).Fields[i]
						fl.Written, fl.Name = misspell(fl.Written), misspell(fl.Name)
					}},
					Mutation{"drop " + fp.String(), func(r *load.Node) {
						o := at(r, p)
						o.Fields = append(o.Fields[:i:i], o.Fields[i+1:]...)
					}},
					Mutation{"bad key " + fp.String(), func(r *load.Node) {
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
				if i == 0 || it.Kind != load.Object {
					continue
				}
				// Each string field copied from the element before: a
				// duplicate id, say.
				for _, f := range it.Fields {
					if prev := n.Items[i-1].Get(f.Name); prev != nil && prev.Kind == load.String && f.Value.Kind == load.String {
						fp, text := p.Index(i).Key(f.Name), prev.Text
						out = append(out, Mutation{"copy to " + fp.String(), func(r *load.Node) { at(r, fp).Text = text }})
					}
				}
			}
		}
		if len(p) == 0 {
			return
		}
		out = append(out, Mutation{"wrong type at " + p.String(), func(r *load.Node) {
			*at(r, p) = wrongType(at(r, p))
		}})
		if n.Kind == load.Number {
			for _, v := range []string{"-1", "1000000"} {
				out = append(out, Mutation{"number " + v + " at " + p.String(), func(r *load.Node) { at(r, p).Text = v }})
			}
		}
		if n.Kind == load.String {
			text := n.Text
			out = append(out, Mutation{"bad string at " + p.String(), func(r *load.Node) {
				at(r, p).Text = "TODO choose " + text
			}})
		}
	}
	walk(root, nil)
	return out
}

// NoiseReport is what SchemaNoise found.
type NoiseReport struct {
	// Tried counts the mutations the schema refused.
	Tried int
	// Problems are the mutations after which lint reported something new,
	// or which left a Cluster to render.
	Problems []string
}

// SchemaNoise analyses base (a valid spec's result) once per mutation
// (every one, or with step > 1 every step-th, from the offset-th on) and
// reports lint findings that appear only because of the schema error the
// mutation made, or that name an object "" (an id the schema refused):
// consequences of it, noise beside the schema's own report. Findings may disappear (a rule
// skips what it cannot read); a mutation the schema accepts is not tried.
func SchemaNoise(p *pipeline.Pipeline, sch *schema.Schema, base *pipeline.Result, step, offset int) NoiseReport {
	ruleIDs := map[string]bool{}
	for _, id := range pipeline.Catalog().Select(ids.Entry.Configurable) {
		ruleIDs[id] = true
	}
	want := lintFindings(base, ruleIDs)
	var rep NoiseReport
	for i, m := range Mutations(base.Doc.Root) {
		if step > 1 && (i+offset)%step != 0 {
			continue
		}
		doc := *base.Doc
		doc.Root = Clone(base.Doc.Root)
		m.Apply(doc.Root)
		r, err := p.Analyse(pipeline.Loaded(base.File, &doc, nil), pipeline.AnalyseOptions{Schema: sch, Settings: base.Settings})
		if err != nil {
			rep.Problems = append(rep.Problems, m.What+": "+err.Error())
			continue
		}
		if !schemaError(r.Diags, ruleIDs) {
			continue
		}
		rep.Tried++
		if r.Cluster != nil {
			rep.Problems = append(rep.Problems, m.What+": a spec with schema errors has a Cluster to render")
		}
		var noise []string
		for _, d := range r.Diags {
			if d.Rule == "internal-error" {
				noise = append(noise, d.String())
			}
		}
		for k, d := range lintFindings(r, ruleIDs) {
			if w, ok := want[k]; !ok || strings.Contains(d.Message, `""`) && !strings.Contains(w.Message, `""`) {
				noise = append(noise, fmt.Sprintf("%d:%d: %s [%s] at %s", d.Pos.Line, d.Pos.Col, d.Message, d.Rule, d.Path))
			}
		}
		if len(noise) > 0 {
			sort.Strings(noise)
			var schemaDiags []string
			for _, d := range r.Diags {
				if !ruleIDs[d.Rule] {
					schemaDiags = append(schemaDiags, d.Rule+" at "+d.Path)
				}
			}
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: lint reports consequences of the schema error or fails (%s):\n  %s",
				m.What, strings.Join(schemaDiags, "; "), strings.Join(noise, "\n  ")))
		}
	}
	return rep
}

// lintFindings are a result's lint findings by rule and path. (Their
// messages may change: a count the schema refused is left out.)
func lintFindings(r *pipeline.Result, ruleIDs map[string]bool) map[string]diag.Diagnostic {
	out := map[string]diag.Diagnostic{}
	for _, d := range r.Diags {
		if ruleIDs[d.Rule] {
			out[d.Rule+" "+d.Path] = d
		}
	}
	return out
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
