package pipeline

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/suppress"
)

// suppressed applies the inline suppression comments (package suppress)
// of the spec r analysed: the findings they silence move from Diags to
// Suppressed, and the comments' own findings (invalid-suppression,
// unused-suppression) join Diags, subject to --disable and the project
// config like any rule's.
func (p *Pipeline) suppressed(r *Result, s *Settings) *Result {
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
