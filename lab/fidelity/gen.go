package fidelity

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Setting is one generated slurm.conf setting.
type Setting struct {
	// Scope is where it goes: the global config, the partition's config or
	// the node set's config (a NodeName key).
	Scope catalog.Scope
	// Key is the catalog's spelling of the key.
	Key string
	// Value is the generated value.
	Value string
	// How says how the value was made, such as "enum value" or "past the
	// uint16 maximum"; Plausible says whether it was meant to be valid.
	How       string
	Plausible bool
}

// String returns "global Key=Value" or "partition Key=Value".
func (s Setting) String() string {
	return s.Scope.String() + " " + s.Key + "=" + s.Value
}

// Case is one generated spec: the base spec with 1 to 3 settings.
type Case struct {
	// Index numbers the case from 0 within its run.
	Index    int
	Settings []Setting
	// Family, for a GenerateRelated case, names the family its keys come
	// from.
	Family string
}

// String lists the settings.
func (c Case) String() string {
	parts := make([]string, len(c.Settings))
	for i, s := range c.Settings {
		parts[i] = s.String()
	}
	if c.Family != "" {
		return fmt.Sprintf("case %d (%s): %s", c.Index, c.Family, strings.Join(parts, "; "))
	}
	return fmt.Sprintf("case %d: %s", c.Index, strings.Join(parts, "; "))
}

// Scopes are the scopes a spec can set: slurmSpec.config,
// partitions[].config and node_sets[].config.
var scopes = []catalog.Scope{catalog.ScopeGlobal, catalog.ScopePartition, catalog.ScopeNode}

// keys returns every catalog key a spec can try to set, in catalog order:
// every key of every scope the spec has, of every release (keys another
// release lacks included), but line keys and the service's reserved keys,
// which the stand-in renderer could not start and which the renderer never
// writes.
func keys(cat *catalog.Catalog) []*catalog.Param {
	var out []*catalog.Param
	for _, sc := range scopes {
		for _, p := range cat.Params(sc) {
			if p.Kind == catalog.KindLine {
				continue
			}
			if _, reserved := managed.Lookup(p.Name); reserved {
				continue
			}
			if sc != catalog.ScopeGlobal && slices.Contains([]string{"Nodes", "NodeHostname", "NodeAddr"}, p.Name) {
				continue // the nodes themselves: what the harness runs
			}
			out = append(out, p)
		}
	}
	return out
}

// Generate returns n cases for a release, the same for the same seed,
// version and catalog. The keys are visited in a seeded random order, so
// that n cases of 1 to 3 settings cover every key once n is about a third
// of the catalog or more. Half of a partition or node set key's values and
// a third of a global key's are edges of the key's value type (valueGen.wide:
// valid and invalid, whatever the catalog lists); the others are plausible
// (valid for the release, as the catalog says) about two times in three,
// else implausible (past an edge, malformed, another release's value,
// almost right).
func Generate(cat *catalog.Catalog, v catalog.Version, seed uint64, n int) []Case {
	r := rand.New(rand.NewPCG(seed, uint64(v)))
	all := keys(cat)
	order := r.Perm(len(all))
	next := 0
	cases := make([]Case, n)
	for i := range cases {
		cases[i].Index = i
		k := 1 + r.IntN(3)
		used := map[string]bool{}
		for range k {
			p := all[order[next%len(order)]]
			next++
			id := p.Scope.String() + "/" + strings.ToLower(p.Name)
			if used[id] {
				continue
			}
			used[id] = true
			g := valueGen{r: r, p: p, v: v}
			val, how, ok := g.value()
			cases[i].Settings = append(cases[i].Settings, Setting{Scope: p.Scope, Key: p.Name, Value: val, How: how, Plausible: ok})
		}
	}
	return cases
}

// valueGen makes one value for a key.
type valueGen struct {
	r *rand.Rand
	p *catalog.Param
	v catalog.Version
	// prefer are tokens to use about half the time in a plausible value
	// (GenerateRelated).
	prefer []catalog.EnumValue
}

func (g valueGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// value returns a value, how it was made, and whether it was meant to be
// valid: an edge of the key's value type (wide) half the time for a
// partition or node set key and a third of the time for a global one,
// else a listed value or a plausible or implausible one by the catalog.
func (g valueGen) value() (string, string, bool) {
	if g.p.Scope != catalog.ScopeGlobal && g.r.IntN(2) == 0 || g.r.IntN(3) == 0 {
		return g.wide()
	}
	if g.r.IntN(3) == 0 {
		v, how := g.implausible()
		return v, how, false
	}
	v, how := g.plausible()
	return v, how, true
}

func (g valueGen) plausible() (string, string) {
	p := g.p
	if v, how, ok := g.preferred(); ok {
		return v, how
	}
	switch p.Kind {
	case catalog.KindBool:
		return g.pick("YES", "NO", "yes", "no", "TRUE", "FALSE", "1", "0"), "boolean"
	case catalog.KindUint16:
		return g.number(65535), "uint16"
	case catalog.KindUint32:
		return g.number(4294967295), "uint32"
	case catalog.KindUint64, catalog.KindLong:
		return g.number(1 << 40), "integer"
	case catalog.KindFloat:
		return g.pick("0", "0.5", "1", "2.5", "100"), "float"
	case catalog.KindTime:
		return g.pick("0", "1", "60", "00:10:00", "1-00:00:00", "2-12", "30:00", "UNLIMITED", "INFINITE"), "time"
	case catalog.KindEnum, catalog.KindPlugin:
		if vals := g.values(); len(vals) > 0 {
			return g.token(vals[g.r.IntN(len(vals))]), "enum value"
		}
	case catalog.KindList:
		if vals := g.values(); len(vals) > 0 {
			k := 1 + g.r.IntN(min(3, len(vals)))
			var toks []string
			for _, i := range g.r.Perm(len(vals))[:k] {
				toks = append(toks, g.token(vals[i]))
			}
			return strings.Join(toks, ","), fmt.Sprintf("list of %d values", k)
		}
	}
	if vals := g.values(); len(vals) > 0 {
		return g.token(vals[g.r.IntN(len(vals))]), "documented value"
	}
	if p.IntTokens {
		hi := p.IntMax
		if hi < 0 {
			hi = p.IntMin + 1000
		}
		return strconv.FormatInt(p.IntMin+g.r.Int64N(hi-p.IntMin+1), 10), "integer token"
	}
	name := strings.ToLower(p.Name)
	switch {
	case strings.HasSuffix(name, "program") || strings.HasSuffix(name, "prog"):
		return "/bin/true", "program path"
	case strings.HasSuffix(name, "dir") || strings.HasSuffix(name, "location"):
		return "/tmp", "directory"
	case strings.HasSuffix(name, "parameters") || strings.HasSuffix(name, "params"):
		return "", "empty parameters"
	}
	return g.pick("fidelity", "/etc/slurm/fidelity", "1"), "free string"
}

func (g valueGen) number(maxVal uint64) string {
	switch g.r.IntN(6) {
	case 0:
		return "0"
	case 1:
		return "1"
	case 2:
		return strconv.FormatUint(maxVal-1, 10)
	case 3:
		return "UNLIMITED"
	default:
		return strconv.Itoa(2 + g.r.IntN(1000))
	}
}

// values returns the tokens the release accepts, without those that only
// make sense inside another token.
func (g valueGen) values() []catalog.EnumValue {
	var out []catalog.EnumValue
	for _, ev := range g.p.ValuesIn(g.v) {
		if !ev.NotStandalone {
			out = append(out, ev)
		}
	}
	return out
}

// token writes an enum value, with a plausible argument if it takes one.
func (g valueGen) token(ev catalog.EnumValue) string {
	name := ev.Name
	if ev.Match == catalog.MatchTemplate {
		if i := strings.IndexByte(name, '<'); i >= 0 {
			name = name[:i] + g.pick("cpu", "mem", "gpu")
		}
	}
	if !ev.TakesArg || (ev.ArgOptional && g.r.IntN(2) == 0) {
		return name
	}
	sep := string(rune(ev.ArgSep))
	if ev.ArgSep == 0 {
		sep = "="
	}
	return name + sep + g.pick("1", "2", "4", "10", "60", "100")
}

func (g valueGen) implausible() (string, string) {
	p := g.p
	switch p.Kind {
	case catalog.KindBool:
		return g.pick("maybe", "2", "YESS", "", "on"), "not a boolean"
	case catalog.KindUint16:
		return g.pick("65536", "-1", "1.5", "abc", "10x"), "past the uint16 range or malformed"
	case catalog.KindUint32:
		return g.pick("4294967296", "-1", "1.5", "abc", "5000000k"), "past the uint32 range or malformed"
	case catalog.KindUint64, catalog.KindLong:
		return g.pick("18446744073709551616", "-2", "1e3", "abc"), "past the integer range or malformed"
	case catalog.KindFloat:
		return g.pick("-1", "abc", "1,5", "NaN"), "not a float"
	case catalog.KindTime:
		return g.pick("-5", "25:61:00", "1-", "abc", "00:00:00:00", "1-2-3"), "malformed time"
	}
	// Enum, plugin, list and free values: another release's value, an
	// almost-right spelling, a missing argument, or nonsense.
	vals := g.values()
	var other []catalog.EnumValue
	for _, ev := range p.Values {
		if !ev.PresentIn.Has(g.v) && !ev.NotStandalone {
			other = append(other, ev)
		}
	}
	switch g.r.IntN(4) {
	case 0:
		if len(other) > 0 {
			return g.token(other[g.r.IntN(len(other))]), "a value of another release"
		}
	case 1:
		if len(vals) > 0 {
			return almost(g.r, vals[g.r.IntN(len(vals))].Name), "almost right"
		}
	case 2:
		for _, ev := range vals {
			if ev.TakesArg && !ev.ArgOptional {
				return ev.Name, "argument missing"
			}
		}
	}
	if p.IntTokens {
		if p.IntMax >= 0 && g.r.IntN(2) == 0 {
			return strconv.FormatInt(p.IntMax+1, 10), "past the integer tokens"
		}
		return strconv.FormatInt(p.IntMin-1, 10), "below the integer tokens"
	}
	return g.pick("bogus", "none/none", "yes,,no"), "nonsense"
}

// almost returns a spelling of s that is almost right: a letter dropped,
// doubled or swapped with the next, or a stray suffix.
func almost(r *rand.Rand, s string) string {
	if len(s) < 3 {
		return s + "x"
	}
	i := 1 + r.IntN(len(s)-2)
	switch r.IntN(4) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		return s[:i] + s[i:i+1] + s[i:]
	case 2:
		return s[:i] + s[i+1:i+2] + s[i:i+1] + s[i+2:]
	}
	return s + "s"
}
