package fidelity

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Sweep returns one case per value the catalog lists for a key the release
// has — every enum, list and plugin value of every scope a spec can set —
// each alone on the base spec and written as Slurm expects it: with its
// first accepted argument, a number in its range (ArgRange.Example), or 1,
// when it needs one. Templates ("def_<rsrc>")
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
			case ev.ArgRangeIn(v) != nil:
				tok += string(rune(ev.ArgSep)) + strconv.FormatInt(ev.ArgRangeIn(v).Example(), 10)
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

// SweepArgRanges returns, for every list option of the release with a
// numeric argument range (catalog.EnumValue.ArgRangeIn), one case per edge of
// the range alone on the base spec: min-1, min, max and max+1, and each
// other number Slurm accepts (Also). only, when not empty, limits the sweep
// to those keys (case-insensitive). Edges past what the parser reads (below
// INT_MIN for atoi) are left out.
func SweepArgRanges(cat *catalog.Catalog, v catalog.Version, only ...string) []Case {
	var cases []Case
	for _, p := range keys(cat) {
		if !p.PresentIn.Has(v) || p.Kind != catalog.KindList || (len(only) > 0 && !slices.ContainsFunc(only, func(k string) bool { return strings.EqualFold(k, p.Name) })) {
			continue
		}
		for _, ev := range p.Values {
			r := ev.ArgRangeIn(v)
			if r == nil || !ev.PresentIn.Has(v) {
				continue
			}
			edges := []struct {
				n    int64
				how  string
				good bool
			}{{r.Min - 1, "below the argument range", false}, {r.Min, "argument range minimum", true},
				{r.Max, "argument range maximum", true}, {r.Max + 1, "past the argument range", false}}
			for _, a := range r.Also {
				edges = append(edges, struct {
					n    int64
					how  string
					good bool
				}{a, "argument Slurm also accepts", true})
			}
			for _, e := range edges {
				if e.n < math.MinInt32 && r.Parse == catalog.ParseAtoi {
					continue
				}
				cases = append(cases, Case{Index: len(cases), Settings: []Setting{{
					Scope: p.Scope, Key: p.Name, Value: ev.Name + string(rune(ev.ArgSep)) + strconv.FormatInt(e.n, 10),
					How: e.how, Plausible: e.good,
				}}})
			}
		}
	}
	return cases
}

// SweepDoubled returns, for every value of a list key the release has (the
// values of Sweep whose key is a comma-separated list), one case with that
// token written twice ("CR_Core,CR_Core"), alone on the base spec. Slurm's
// list parsers differ on a repeated token: those that set a bit ignore it,
// those that count tokens of a kind count it twice (SelectTypeParameters,
// TaskPluginParam, CpuBind, PreemptMode), so every list is put to
// slurmctld once with each of its tokens doubled.
func SweepDoubled(cat *catalog.Catalog, v catalog.Version) []Case {
	list := map[string]bool{}
	for _, p := range keys(cat) {
		if p.Kind == catalog.KindList {
			list[p.Scope.String()+" "+p.Name] = true
		}
	}
	var cases []Case
	for _, c := range Sweep(cat, v, false) {
		s := c.Settings[0]
		if !list[s.Scope.String()+" "+s.Key] {
			continue
		}
		s.Value += "," + s.Value
		s.How = "a catalog value twice"
		cases = append(cases, Case{Index: len(cases), Settings: []Setting{s}})
	}
	return cases
}
