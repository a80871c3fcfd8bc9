package fidelity

import (
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Sweep returns one case per value the catalog lists for a key the release
// has — every enum, list and plugin value of every scope a spec can set —
// each alone on the base spec and written as Slurm expects it: with its
// first accepted argument, or 1, when it needs one. Templates ("def_<rsrc>")
// are left out. Unlike Generate it is exhaustive rather than sampled: every
// value the catalog claims for the release is put to slurmctld once. With
// pluginsOnly, only the values of plugin-valued keys.
func Sweep(cat *catalog.Catalog, v catalog.Version, pluginsOnly bool) []Case {
	var cases []Case
	for _, p := range keys(cat) {
		if !p.PresentIn.Has(v) {
			continue
		}
		switch {
		case p.Kind == catalog.KindPlugin:
		case pluginsOnly:
			continue
		case p.Kind != catalog.KindEnum && p.Kind != catalog.KindList:
			continue
		}
		for _, ev := range p.Values {
			if ev.Match == catalog.MatchTemplate || !ev.PresentIn.Has(v) {
				continue
			}
			tok := ev.Name
			switch {
			case len(ev.ArgValues) > 0:
				tok += string(rune(ev.ArgSep)) + ev.ArgValues[0]
			case ev.TakesArg && !ev.ArgOptional:
				tok += string(rune(ev.ArgSep)) + "1"
			}
			cases = append(cases, Case{Index: len(cases), Settings: []Setting{{
				Scope: p.Scope, Key: p.Name, Value: tok, How: "every catalog value", Plausible: true,
			}}})
		}
	}
	return cases
}
