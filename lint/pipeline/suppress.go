package pipeline

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/suppress"
	"github.com/slurmspec/slurmspec/schema"
)

// AnalyseWith runs the pipeline on the document read returns, given the
// load options of the pipeline, then applies the spec's inline
// suppression comments (package suppress): the findings they silence
// move from Diags to Suppressed, and the comments' own findings
// (invalid-suppression, unused-suppression) join Diags, subject to
// --disable and the project config like any rule's.
func (p *Pipeline) AnalyseWith(sch *schema.Schema, file string, s *Settings, read func(load.Options) (*load.Document, diag.List)) *Result {
	r := p.analyse(sch, file, s, read)
	kept, silenced, own := suppress.Apply(r.Doc, r.Diags, suppress.Policy{Catalog: p.cat, Disabled: s.Lint.Disabled})
	if silenced == nil && own == nil {
		return r
	}
	for _, d := range own {
		if !s.Lint.Disabled[d.Rule] {
			kept = append(kept, s.Lint.Adjust(diag.List{d})...)
		}
	}
	r.Diags, r.Suppressed = kept.Sort(), silenced
	return r
}
