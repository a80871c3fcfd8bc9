package fidelity

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestGenerateRelatedIsReproducible: the same seed and release give the
// same cases; another seed or release gives others; every case sets 1 to
// 4 keys of its family (1 only for a family of one key).
func TestGenerateRelatedIsReproducible(t *testing.T) {
	cat := catalog.Default()
	a := GenerateRelated(cat, catalog.V2411, 7, 150)
	b := GenerateRelated(cat, catalog.V2411, 7, 150)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different cases")
	}
	if reflect.DeepEqual(a, GenerateRelated(cat, catalog.V2411, 8, 150)) {
		t.Error("seeds 7 and 8 gave the same cases")
	}
	if reflect.DeepEqual(a, GenerateRelated(cat, catalog.V2205, 7, 150)) {
		t.Error("releases 24.11 and 22.05 gave the same cases")
	}
	fams := map[string]Family{}
	for _, f := range Families(cat) {
		fams[f.Name] = f
	}
	plausible, implausible := 0, 0
	for i, c := range a {
		if c.Index != i {
			t.Errorf("case %d has index %d", i, c.Index)
		}
		f, ok := fams[c.Family]
		if !ok {
			t.Fatalf("%s: no family %q", c, c.Family)
		}
		if n := len(c.Settings); n > 4 || n < min(2, len(f.Params)) {
			t.Errorf("%s: %d settings from a family of %d", c, n, len(f.Params))
		}
		for _, s := range c.Settings {
			if !slices.ContainsFunc(f.Params, func(p *catalog.Param) bool { return p.Scope == s.Scope && p.Name == s.Key }) {
				t.Errorf("%s: %s is not of family %s", c, s, f)
			}
			if s.Plausible {
				plausible++
			} else {
				implausible++
			}
		}
		if string(c.Spec()) != string(b[i].Spec()) {
			t.Fatalf("case %d: the spec bytes differ between runs", i)
		}
	}
	if plausible < implausible || implausible == 0 {
		t.Errorf("%d plausible and %d implausible values", plausible, implausible)
	}
}

// TestFamiliesCoverConstraintRows: every row of constraints.md that names
// a key a spec can set makes a family with every such key it names, and
// the rows that make none are the ones about line keys, the service's
// reserved keys or the file's grammar.
func TestFamiliesCoverConstraintRows(t *testing.T) {
	cat := catalog.Default()
	fams := map[string]Family{}
	for _, f := range Families(cat) {
		fams[f.Name] = f
	}
	has := func(f Family, scope catalog.Scope, name string) bool {
		return slices.ContainsFunc(f.Params, func(p *catalog.Param) bool { return p.Scope == scope && p.Name == name })
	}
	var none []string
	for _, row := range catalog.ConstraintRows() {
		if _, ok := fams[row.ID]; !ok {
			none = append(none, row.ID)
		}
	}
	// Rows about keys a spec cannot set: AccountingStorageType,
	// ClusterName, SlurmctldHost, SlurmUser, PluginDir and CredType are
	// the service's (compiler/managed); N2, N7, N8, W1 and G1, G3-G5 are
	// about lines and the file's grammar.
	want := []string{"A3", "A7", "C6", "L1", "L2", "L3", "L4", "N2", "N7", "N8", "W1", "G1", "G3", "G4", "G5"}
	if !slices.Equal(none, want) {
		t.Errorf("rows without a family: %v, want %v", none, want)
	}
	for _, c := range []struct {
		row   string
		scope catalog.Scope
		key   string
	}{
		{"P3", catalog.ScopeGlobal, "PreemptType"},
		{"P3", catalog.ScopeGlobal, "PreemptMode"},
		{"P3", catalog.ScopePartition, "PreemptMode"},
		{"R1", catalog.ScopeGlobal, "PriorityWeightTRES"},
		{"R1", catalog.ScopeGlobal, "PriorityType"},
		{"S3", catalog.ScopePartition, "MaxMemPerNode"},
		{"S3", catalog.ScopeGlobal, "SelectTypeParameters"},
		{"T7", catalog.ScopeGlobal, "ProctrackType"},
		{"T13", catalog.ScopeGlobal, "JobAcctGatherType"},
		{"N5", catalog.ScopeNode, "RealMemory"},
		{"Q6", catalog.ScopeGlobal, "OverTimeLimit"},
		{"Q6", catalog.ScopePartition, "OverTimeLimit"},
		{"scope SuspendTime", catalog.ScopeNode, "SuspendTime"},
		{"prefix Suspend", catalog.ScopeGlobal, "ResumeTimeout"},
		{"prefix JobAcct", catalog.ScopeGlobal, "JobAcctGatherParams"},
	} {
		if !has(fams[c.row], c.scope, c.key) {
			t.Errorf("family %s lacks %s/%s: %s", c.row, c.scope, c.key, fams[c.row])
		}
	}
	prefers := func(row, key, token string) bool {
		return slices.ContainsFunc(fams[row].Prefer[key], func(e catalog.EnumValue) bool { return e.Name == token })
	}
	for _, c := range [][3]string{
		{"T7", "global/prologflags", "X11"},
		{"T14", "global/slurmdparameters", "l3cache_as_socket"},
		{"T14", "global/slurmdparameters", "numa_node_as_socket"},
		{"T15", "global/taskplugin", "task/cray_aries"},
		{"P6", "global/preempttype", "preempt/partition_prio"},
		{"P11", "global/schedulerparameters", "preempt_youngest_first"},
	} {
		if !prefers(c[0], c[1], c[2]) {
			t.Errorf("family %s does not prefer %s for %s: %v", c[0], c[2], c[1], fams[c[0]].Prefer)
		}
	}
}

// TestRelatedCaseDrawsTheWholeFamily: for every family of at most 4 keys,
// some draw sets all of them together (the rule's keys meet), and for a
// family whose row names tokens, some plausible value holds every token
// it names that the release has (l3cache_as_socket with
// numa_node_as_socket).
func TestRelatedCaseDrawsTheWholeFamily(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, v := range []catalog.Version{catalog.V2205, catalog.V2411, catalog.V2605} {
		for _, f := range Families(catalog.Default()) {
			whole := len(f.Params) > 4
			tokens := map[string]bool{}
			for key, evs := range f.Prefer {
				if p := f.param(key); p == nil || p.Kind != catalog.KindList {
					continue
				}
				n := 0
				for _, ev := range evs {
					if ev.PresentIn.Has(v) {
						n++
					}
				}
				tokens[key] = n < 2 || n > 3
			}
			for range 400 {
				c := relatedCase(r, v, f)
				if len(c.Settings) == len(f.Params) {
					whole = true
				}
				for _, s := range c.Settings {
					key := s.Scope.String() + "/" + strings.ToLower(s.Key)
					if done, ok := tokens[key]; ok && !done && allPreferred(f.Prefer[key], v, s.Value) {
						tokens[key] = true
					}
				}
			}
			if !whole {
				t.Errorf("%s: %s: 400 draws never set every key", v, f)
			}
			for key, done := range tokens {
				if !done {
					t.Errorf("%s: %s: 400 draws never set %s with every token the row names", v, f, key)
				}
			}
		}
	}
}

// param returns the family's key by scope/lower-case name.
func (f Family) param(key string) *catalog.Param {
	for _, p := range f.Params {
		if p.Scope.String()+"/"+strings.ToLower(p.Name) == key {
			return p
		}
	}
	return nil
}

// allPreferred reports whether a list value holds every preferred token
// the release has.
func allPreferred(evs []catalog.EnumValue, v catalog.Version, value string) bool {
	toks := strings.Split(value, ",")
	for _, ev := range evs {
		if ev.PresentIn.Has(v) && !slices.ContainsFunc(toks, func(t string) bool { return strings.EqualFold(strings.SplitN(t, "=", 2)[0], ev.Name) }) {
			return false
		}
	}
	return true
}
