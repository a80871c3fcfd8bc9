package fidelity

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Family is a set of keys whose settings interact: the keys of one row of
// the catalog's data/constraints.md, or a key that both the global config
// and a partition (or node set) config can set.
type Family struct {
	// Name says where the family comes from: a constraints.md row id
	// ("P3") or "scope Key".
	Name string
	// Params are the family's keys, each in one scope.
	Params []*catalog.Param
	// Prefer holds, per key (scope/lower-case name), the tokens the row
	// names ("preempt/partition_prio", "X11"): a plausible value uses
	// them about half the time, so that the tokens the rule ties meet.
	Prefer map[string][]catalog.EnumValue
}

// String lists the family's keys.
func (f Family) String() string {
	names := make([]string, len(f.Params))
	for i, p := range f.Params {
		names[i] = p.Scope.String() + "/" + p.Name
	}
	return f.Name + ": " + strings.Join(names, ", ")
}

// rowWord is a word of a constraints.md keys column: a key name, a token
// (with '/' for plugins), either with a trailing '*' as a wildcard.
var rowWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_/]*\*?`)

// Families returns the families of related keys: one per row of
// data/constraints.md whose keys column (or, when that names fewer than
// two settable keys, its rule column as well) names a key a spec can set,
// then one per key that the global config and another scope both set.
// A word matches a key name exactly (a trailing '*' matches a prefix:
// PriorityWeight*), in every scope that has the key; a word that is no
// key but a token of a matched key ("X11", "task/cgroup", "preempt_*")
// becomes a preferred token of that key.
func Families(cat *catalog.Catalog) []Family {
	settable := keys(cat)
	var out []Family
	for _, row := range catalog.ConstraintRows() {
		f := family(settable, row.ID, row.Keys)
		if len(f.Params) < 2 {
			g := family(settable, row.ID, row.Keys+" "+row.Rule)
			if len(g.Params) > len(f.Params) && len(g.Params) <= 6 {
				f = g
			}
		}
		if len(f.Params) > 0 {
			out = append(out, f)
		}
	}
	byName := map[string][]*catalog.Param{}
	var names []string
	for _, p := range settable {
		if len(byName[p.Name]) == 0 {
			names = append(names, p.Name)
		}
		byName[p.Name] = append(byName[p.Name], p)
	}
	for _, n := range names {
		if ps := byName[n]; len(ps) > 1 {
			out = append(out, Family{Name: "scope " + n, Params: ps})
		}
	}
	return append(out, prefixFamilies(settable)...)
}

// camelWord is a CamelCase word of a key name ("Suspend", "GPU").
var camelWord = regexp.MustCompile(`[A-Z][a-z0-9]+|[A-Z]+(?:[a-z0-9]*)`)

// joinedPrefixes are name prefixes whose keys form one family although
// they start differently: power saving suspends and resumes nodes
// (slurm.conf(5), "Power saving"); constraints.md has no row for it.
var joinedPrefixes = [][]string{{"Suspend", "Resume"}}

// prefixFamilies groups keys by the first word of their name (every scope
// together: SuspendTime of the global config, a partition and a node set),
// or by the first two words when the first makes a group of more than 8
// (JobAcctGather*, JobComp*, PriorityWeight*); a group of one key is
// dropped. The prefixes of a joinedPrefixes entry make one family, of
// any size.
func prefixFamilies(settable []*catalog.Param) []Family {
	group := func(words int) ([]string, map[string][]*catalog.Param) {
		var order []string
		by := map[string][]*catalog.Param{}
		for _, p := range settable {
			ws := camelWord.FindAllString(p.Name, words)
			if len(ws) < words {
				continue
			}
			k := strings.Join(ws, "")
			if len(by[k]) == 0 {
				order = append(order, k)
			}
			by[k] = append(by[k], p)
		}
		return order, by
	}
	one, byOne := group(1)
	_, byTwo := group(2)
	joined := map[string]bool{}
	for _, j := range joinedPrefixes {
		joined[j[0]] = true
		for _, w := range j[1:] {
			byOne[j[0]] = append(byOne[j[0]], byOne[w]...)
			delete(byOne, w)
		}
	}
	var out []Family
	seen := map[string]bool{}
	for _, w := range one {
		ps := byOne[w]
		if len(ps) <= 8 || joined[w] {
			if len(ps) > 1 {
				out = append(out, Family{Name: "prefix " + w, Params: ps})
			}
			continue
		}
		for _, p := range ps {
			ws := camelWord.FindAllString(p.Name, 2)
			k := strings.Join(ws, "")
			if len(ws) < 2 || seen[k] || len(byTwo[k]) < 2 {
				continue
			}
			seen[k] = true
			out = append(out, Family{Name: "prefix " + k, Params: byTwo[k]})
		}
	}
	return out
}

// family resolves the words of text against the settable keys.
func family(settable []*catalog.Param, name, text string) Family {
	f := Family{Name: name, Prefer: map[string][]catalog.EnumValue{}}
	words := rowWord.FindAllString(text, -1)
	var rest []string
	for _, w := range words {
		var cands []string
		cands = append(cands, w)
		if strings.Contains(w, "/") {
			cands = append(cands, strings.Split(w, "/")...)
		}
		matched := false
		for _, c := range cands {
			for _, p := range settable {
				if keyMatches(p.Name, c) && !slices.Contains(f.Params, p) {
					f.Params = append(f.Params, p)
				}
				if keyMatches(p.Name, c) {
					matched = true
				}
			}
		}
		if !matched {
			rest = append(rest, w)
		}
	}
	for _, w := range rest {
		if len(strings.TrimSuffix(w, "*")) < 3 {
			continue
		}
		for _, p := range f.Params {
			id := p.Scope.String() + "/" + strings.ToLower(p.Name)
			for _, ev := range p.Values {
				if ev.NotStandalone || !tokenMatches(ev.Name, w) {
					continue
				}
				if !slices.ContainsFunc(f.Prefer[id], func(e catalog.EnumValue) bool { return e.Name == ev.Name }) {
					f.Prefer[id] = append(f.Prefer[id], ev)
				}
			}
		}
	}
	return f
}

// keyMatches: a word names a key exactly (case-sensitive: the keys
// column writes keys as Slurm spells them, English words are lower case),
// or by prefix with a trailing '*'.
func keyMatches(key, word string) bool {
	if p, ok := strings.CutSuffix(word, "*"); ok {
		return len(p) >= 3 && strings.HasPrefix(key, p)
	}
	return key == word
}

// tokenMatches: a word names a token, case-insensitively, or a prefix of
// tokens with a trailing '*'; a template token (def_<rsrc>) matches by the
// part before '<'.
func tokenMatches(token, word string) bool {
	t := strings.ToLower(token)
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	w := strings.ToLower(word)
	if p, ok := strings.CutSuffix(w, "*"); ok {
		return strings.HasPrefix(t, p)
	}
	return t == w
}

// GenerateRelated returns n cases for a release whose settings come from
// one family of related keys each (Families): a family drawn at random,
// then 2 to 4 of its keys (all of them when it has fewer), each with a
// value as Generate makes them (plausible about two times in three), a
// plausible one using the tokens the family's row names about half the
// time. The same seed, release and catalog give the same cases; a catalog
// without families gives none.
func GenerateRelated(cat *catalog.Catalog, v catalog.Version, seed uint64, n int) []Case {
	r := rand.New(rand.NewPCG(seed, uint64(v)^0x72656c61746564)) // "related"
	fams := Families(cat)
	if len(fams) == 0 {
		return nil
	}
	cases := make([]Case, n)
	for i := range cases {
		cases[i] = relatedCase(r, v, fams[r.IntN(len(fams))])
		cases[i].Index = i
	}
	return cases
}

// relatedCase draws 2 to 4 keys of one family (every key when it has
// fewer) and a value for each.
func relatedCase(r *rand.Rand, v catalog.Version, f Family) Case {
	k := min(len(f.Params), 2+r.IntN(3))
	var c Case
	for _, i := range r.Perm(len(f.Params))[:k] {
		p := f.Params[i]
		g := valueGen{r: r, p: p, v: v, prefer: f.Prefer[p.Scope.String()+"/"+strings.ToLower(p.Name)]}
		val, how, ok := g.value()
		c.Settings = append(c.Settings, Setting{Scope: p.Scope, Key: p.Name, Value: val, How: how, Plausible: ok})
	}
	c.Family = f.Name
	return c
}

// preferred returns a plausible value made of the preferred tokens the
// release has: one of them for an enum or plugin key, one to three of
// them for a list (with one other token of the key now and then).
func (g valueGen) preferred() (string, string, bool) {
	var pref []catalog.EnumValue
	for _, ev := range g.prefer {
		if ev.PresentIn.Has(g.v) {
			pref = append(pref, ev)
		}
	}
	if len(pref) == 0 || g.r.IntN(2) == 0 {
		return "", "", false
	}
	switch g.p.Kind {
	case catalog.KindList:
		k := 1 + g.r.IntN(min(3, len(pref)))
		var toks []string
		for _, i := range g.r.Perm(len(pref))[:k] {
			toks = append(toks, g.token(pref[i]))
		}
		if vals := g.values(); len(vals) > 0 && g.r.IntN(3) == 0 {
			toks = append(toks, g.token(vals[g.r.IntN(len(vals))]))
		}
		return strings.Join(toks, ","), fmt.Sprintf("list of %d tokens the rule names", len(toks)), true
	default:
		return g.token(pref[g.r.IntN(len(pref))]), "a token the rule names", true
	}
}
