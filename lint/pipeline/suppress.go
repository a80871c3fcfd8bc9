package pipeline

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/online"
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
	kept, silenced, own := suppress.Apply(r.Doc, r.Diags, suppress.Policy{Rules: p.rules, Disabled: s.Lint.Disabled, NotInline: notInline()})
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

// notInline names the rules a suppression comment may not name: the online
// rules report from slurmspec-online, after the comments are applied.
func notInline() map[string]string {
	m := map[string]string{}
	for _, r := range online.Rules() {
		m[r.ID] = "online rules report after inline suppressions are applied"
	}
	return m
}
