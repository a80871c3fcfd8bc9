package fidelity

import (
	"reflect"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestGenerateIsReproducible: the same seed and release give the same
// cases; another seed or release gives others.
func TestGenerateIsReproducible(t *testing.T) {
	cat := catalog.Default()
	a := Generate(cat, catalog.V2205, 7, 50)
	b := Generate(cat, catalog.V2205, 7, 50)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different cases")
	}
	if reflect.DeepEqual(a, Generate(cat, catalog.V2205, 8, 50)) {
		t.Error("seeds 7 and 8 gave the same cases")
	}
	if reflect.DeepEqual(a, Generate(cat, catalog.V2605, 7, 50)) {
		t.Error("releases 22.05 and 26.05 gave the same cases")
	}
	for i, c := range a {
		if string(c.Spec()) != string(b[i].Spec()) {
			t.Fatalf("case %d: the spec bytes differ between runs", i)
		}
	}
}

// TestGenerateCoversTheCatalog: 300 cases (the full run) set every key of
// every scope a spec has at least once, both plausible and implausible
// values occur, and each case has 1 to 3 settings.
func TestGenerateCoversTheCatalog(t *testing.T) {
	cat := catalog.Default()
	for _, v := range []catalog.Version{catalog.V2205, catalog.V2411, catalog.V2605} {
		cases := Generate(cat, v, 1, 300)
		seen := map[string]bool{}
		plausible, implausible := 0, 0
		for _, c := range cases {
			if len(c.Settings) < 1 || len(c.Settings) > 3 {
				t.Errorf("%s %s: %d settings", v, c, len(c.Settings))
			}
			for _, s := range c.Settings {
				seen[s.Scope.String()+"/"+s.Key] = true
				if s.Plausible {
					plausible++
				} else {
					implausible++
				}
			}
		}
		var missed []string
		for _, p := range keys(cat) {
			if !seen[p.Scope.String()+"/"+p.Name] {
				missed = append(missed, p.Scope.String()+"/"+p.Name)
			}
		}
		if len(missed) > 0 {
			t.Errorf("%s: 300 cases never set %d keys: %s", v, len(missed), strings.Join(missed, ", "))
		}
		if plausible == 0 || implausible == 0 {
			t.Errorf("%s: %d plausible and %d implausible values", v, plausible, implausible)
		}
		t.Logf("%s: %d keys, %d plausible and %d implausible values", v, len(seen), plausible, implausible)
	}
}

// TestKeysLeaveOutWhatTheSpecCannotSet: no line key, no reserved key.
func TestKeysLeaveOutWhatTheSpecCannotSet(t *testing.T) {
	for _, p := range keys(catalog.Default()) {
		switch p.Name {
		case "NodeName", "PartitionName", "ClusterName", "SlurmctldPort", "AuthType", "Prolog", "Include":
			t.Errorf("keys() has %s/%s", p.Scope, p.Name)
		}
	}
}

// TestStandIn writes settings as the user wrote them: a global key
// replaces its line or is added; a partition key goes on the PartitionName
// line, a node key on every NodeName line, replacing the same key; lines
// it does not touch stay as rendered; values are quoted and escaped as
// Slurm reads them.
func TestStandIn(t *testing.T) {
	base := "# rendered\nClusterName=fid\nSelectTypeParameters=CR_Core_Memory\nNodeName=a CPUs=2\nNodeName=b CPUs=2 State=CLOUD\nPartitionName=p Nodes=a,b Default=YES\n"
	got, err := standIn(base, []Setting{
		{Scope: catalog.ScopeGlobal, Key: "selecttypeparameters", Value: "CR_CPU"},
		{Scope: catalog.ScopeGlobal, Key: "MaxJobCount", Value: "65536"},
		{Scope: catalog.ScopeGlobal, Key: "SrunProlog", Value: "a b#c"},
		{Scope: catalog.ScopePartition, Key: "Default", Value: "NO"},
		{Scope: catalog.ScopePartition, Key: "MaxTime", Value: "1-00:00:00"},
		{Scope: catalog.ScopeNode, Key: "Weight", Value: "10"},
		{Scope: catalog.ScopeNode, Key: "Features", Value: ""},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "# rendered\nClusterName=fid\nselecttypeparameters=CR_CPU\nNodeName=a CPUs=2 Weight=10 Features=\"\"\nNodeName=b CPUs=2 State=CLOUD Weight=10 Features=\"\"\nPartitionName=p Nodes=a,b Default=NO MaxTime=1-00:00:00\nMaxJobCount=65536\nSrunProlog=\"a b\\#c\"\n"
	if got != want {
		t.Errorf("standIn:\n%s\nwant:\n%s", got, want)
	}
	if _, err := standIn(base, []Setting{{Scope: catalog.ScopeGlobal, Key: "SrunProlog", Value: `a"b`}}); err == nil {
		t.Error("a value with a double quote: no error")
	}
}

// TestStandInCarriesEveryGeneratedValue: every value the generator makes,
// on every release, is written by the stand-in so that Slurm's reader
// (render/slurmconf.Parse) reads back exactly that value.
func TestStandInCarriesEveryGeneratedValue(t *testing.T) {
	base := "ClusterName=fid\nNodeName=a CPUs=2\nPartitionName=p Nodes=a\n"
	for _, rel := range []string{"22.05", "24.11", "26.05"} {
		v, err := catalog.ParseVersion(rel)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range Generate(catalog.Default(), v, 3, 300) {
			conf, err := standIn(base, c.Settings)
			if err != nil {
				t.Errorf("%s %s: %v", rel, c, err)
				continue
			}
			f, err := slurmconf.Parse([]byte(conf))
			if err != nil {
				t.Errorf("%s %s: the stand-in does not parse: %v\n%s", rel, c, err, conf)
				continue
			}
			for _, s := range c.Settings {
				var got string
				switch s.Scope {
				case catalog.ScopeGlobal:
					got, _ = f.GetGlobal(s.Key)
				case catalog.ScopePartition:
					got, _ = f.Partitions[0].Get(s.Key)
				case catalog.ScopeNode:
					got, _ = f.Nodes[0].Get(s.Key)
				}
				if got != s.Value && !strings.EqualFold(s.Key, "PartitionName") && !strings.EqualFold(s.Key, "NodeName") {
					t.Errorf("%s %s: %s read back as %q", rel, c, s.Key, got)
				}
			}
		}
	}
}

// TestFindingsAreStable: slurmctld's timestamps and the harness's work
// directory are left out of the findings, so a rerun prints the same text.
func TestFindingsAreStable(t *testing.T) {
	rep := func(line string) []*Report {
		return []*Report{{Release: "26.05", Results: []Result{{
			Case:    Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "NodeFeaturesPlugins", Value: "node_features/helpers", How: "enum value"}}},
			Slurm:   []string{line},
			Verdict: FalseNegative,
		}}}}
	}
	a := Findings(rep("[2026-12-01T14:11:42.213] error: s_p_parse_file: cannot stat file /tmp/localslurm-3136011817/etc/helpers.conf"))
	b := Findings(rep("[2026-12-01T14:12:49.275] error: s_p_parse_file: cannot stat file /tmp/localslurm-2067778095/etc/helpers.conf"))
	if a != b {
		t.Errorf("findings differ between runs:\n%s\n%s", a, b)
	}
	if !strings.Contains(a, "`error: s_p_parse_file: cannot stat file $WORK/etc/helpers.conf`") {
		t.Errorf("findings:\n%s", a)
	}
}
