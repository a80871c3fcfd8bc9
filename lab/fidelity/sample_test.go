package fidelity

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Sample is the fixed sample CI runs on every release (make fidelity runs
// the full oracle).
const (
	sampleSeed = 1
	sampleN    = 12
)

// requirePrereqs runs the test only when the real-Slurm tests are asked
// for and this host can run the oracle's cluster of release rel
// (slurmtest.Require).
func requirePrereqs(t *testing.T, rel string) {
	t.Helper()
	slurmtest.Require(t, func() error {
		return localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true})
	})
}

// TestSampleOnRealSlurm runs the oracle's fixed sample on every release
// (a real-Slurm test: see slurmtest). It fails on a false negative that testdata/known-false-negatives.txt
// does not list for the release: a lint-clean spec that slurmctld refuses
// or logs an error for. Known ones are logged, to be fixed in the rules or
// the catalog and then removed from the list; false-positive candidates
// are logged for review.
func TestSampleOnRealSlurm(t *testing.T) {
	t.Parallel() // beside the package's other real-Slurm tests: their clusters share nothing
	known := readKnown(t)
	for _, rel := range localslurm.Releases() {
		t.Run(rel, func(t *testing.T) {
			t.Parallel() // the releases side by side: their clusters share nothing
			requirePrereqs(t, rel)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			rep, err := Run(ctx, Options{Release: rel, Seed: sampleSeed, N: sampleN})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("\n%s", Table([]*Report{rep}))
			if rep.Count(BothAccept) == 0 || rep.Count(BothRefuse) == 0 {
				t.Errorf("the sample has %d cases both accept and %d both refuse; want some of each, or the oracle judges nothing", rep.Count(BothAccept), rep.Count(BothRefuse))
			}
			for _, x := range rep.Results {
				switch x.Verdict {
				case FalseNegative:
					if k := knownFor(known, rel, x.Case); k != "" {
						t.Logf("known false negative (%s): %s\n  slurmctld: %s", k, x.Case, strings.Join(x.Slurm, "\n  slurmctld: "))
						continue
					}
					t.Errorf("false negative: %s lints clean for Slurm %s, but slurmctld %s:\n  %s",
						x.Case, rel, map[bool]string{true: "logs errors", false: "refuses it"}[x.Up], strings.Join(x.Slurm, "\n  "))
				case WarnedLogged:
					t.Logf("warned, slurmctld logs an error (accepted, docs/fidelity.md): %s\n  slurmctld: %s", x.Case, strings.Join(x.Slurm, "\n  slurmctld: "))
				case WarnedBuild:
					t.Logf("warned, this build lacks the plugin (%s): %s\n  slurmctld: %s", strings.Join(x.Absent, ", "), x.Case, strings.Join(x.Slurm, "\n  slurmctld: "))
				case FalsePositive:
					t.Logf("false-positive candidate: %s: lint says %s; slurmctld starts it without an error line", x.Case, strings.Join(x.Lint, "; "))
				}
			}
		})
	}
}

// readKnown reads testdata/known-false-negatives.txt: lines
// "<release> <scope>/<Key> <why>", # comments.
func readKnown(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/known-false-negatives.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 3)
		if len(fields) < 3 {
			t.Fatalf("known-false-negatives.txt: %q: want <release> <scope>/<Key> <why>", line)
		}
		out[fields[0]+" "+strings.ToLower(fields[1])] = fields[2]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// knownFor returns why a case's false negative is known, or "".
func knownFor(known map[string]string, rel string, c Case) string {
	for _, s := range c.Settings {
		if why, ok := known[rel+" "+strings.ToLower(s.Scope.String()+"/"+s.Key)]; ok {
			return s.Scope.String() + "/" + s.Key + ": " + why
		}
	}
	return ""
}

// TestVerdicts proves the oracle can tell each verdict on a real slurmctld
// (22.05, the host's): a setting both accept, one both refuse, a false
// negative (global PreemptMode=SUSPEND without GANG, which slurmctld
// refuses, with the rule that catches it disabled), a false-positive
// candidate (partition Default=YES: a service rule's error, which
// slurmctld accepts), and a setting only slurmd refuses (an unknown task
// plugin: slurmctld never loads it; without the oracle's slurmd it would
// be a false-positive candidate).
func TestVerdicts(t *testing.T) {
	const rel = "22.05"
	requirePrereqs(t, rel)
	g := func(sc catalog.Scope, k, v string) Setting { return Setting{Scope: sc, Key: k, Value: v} }
	cases := []Case{
		{Index: 0, Settings: []Setting{g(catalog.ScopeGlobal, "MaxJobCount", "12345")}},
		{Index: 1, Settings: []Setting{g(catalog.ScopeGlobal, "MinJobAge", "-1")}},
		{Index: 2, Settings: []Setting{g(catalog.ScopeGlobal, "PreemptType", "preempt/partition_prio"), g(catalog.ScopeGlobal, "PreemptMode", "SUSPEND")}},
		{Index: 3, Settings: []Setting{g(catalog.ScopePartition, "Default", "YES")}},
		{Index: 4, Settings: []Setting{g(catalog.ScopeGlobal, "TaskPlugin", "task/affinity,task/nosuch")}},
	}
	want := []Verdict{BothAccept, BothRefuse, FalseNegative, FalsePositive, BothRefuse}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep, err := Run(ctx, Options{Release: rel, Cases: cases, Disabled: map[string]bool{"preempt-suspend-needs-gang": true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(cases) {
		t.Fatalf("%d results for %d cases", len(rep.Results), len(cases))
	}
	for i, x := range rep.Results {
		if x.Verdict != want[i] {
			t.Errorf("%s: %s, want %s\n  lint: %v\n  up %v, slurmctld: %v", x.Case, x.Verdict, want[i], x.Lint, x.Up, x.Slurm)
		}
	}
	if fn := rep.Results[2]; !strings.Contains(strings.Join(fn.Slurm, "\n"), "PreemptMode=SUSPEND requires GANG too") {
		t.Errorf("the false negative's slurmctld lines lack its fatal line: %v", fn.Slurm)
	}
	if sd := rep.Results[4]; !strings.Contains(strings.Join(sd.Slurm, "\n"), "slurmd: error: cannot find task plugin for task/nosuch") {
		t.Errorf("the slurmd-only case lacks slurmd's error line: up %v, %v", sd.Up, sd.Slurm)
	}
}

// TestBuildVerdictOnRealSlurm: on 24.11 and 26.05, whose Debian packages
// build no tls/s2n, TLSType=tls/s2n lints clean with the not-shipped
// warning and slurmctld refuses to start ("cannot create tls context for
// tls/s2n", "Failed to initialize tls plugin"); the oracle finds
// tls_s2n.so absent from the release's plugin directory and gives the
// build verdict, not a false negative. TLSType=tls/none, which the
// packages ship, both accept. With PreemptMode=SUSPEND without GANG as
// well (its rule disabled), slurmctld stops on that line first: a false
// negative, the absent plugin notwithstanding.
func TestBuildVerdictOnRealSlurm(t *testing.T) {
	t.Parallel() // beside the package's other real-Slurm tests: their clusters share nothing
	for _, rel := range []string{"24.11", "26.05"} {
		t.Run(rel, func(t *testing.T) {
			t.Parallel() // the releases side by side: their clusters share nothing
			requirePrereqs(t, rel)
			cases := []Case{
				{Index: 0, Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "TLSType", Value: "tls/s2n"}}},
				{Index: 1, Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "TLSType", Value: "tls/none"}}},
				// The same warning, but slurmctld stops on another setting
				// first (the rule that catches it disabled): a false
				// negative, not the plugin's.
				{Index: 2, Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "TLSType", Value: "tls/s2n"},
					{Scope: catalog.ScopeGlobal, Key: "PreemptType", Value: "preempt/partition_prio"}, {Scope: catalog.ScopeGlobal, Key: "PreemptMode", Value: "SUSPEND"}}},
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			rep, err := Run(ctx, Options{Release: rel, Cases: cases, Disabled: map[string]bool{"preempt-suspend-needs-gang": true}})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != len(cases) {
				t.Fatalf("%d results for %d cases", len(rep.Results), len(cases))
			}
			s2n, none, other := rep.Results[0], rep.Results[1], rep.Results[2]
			t.Logf("%s: %s, absent %v\n  slurm: %s", s2n.Case, s2n.Verdict, s2n.Absent, strings.Join(s2n.Slurm, "\n  slurm: "))
			if s2n.Verdict != WarnedBuild || s2n.Up || !slices.Equal(s2n.Absent, []string{"tls_s2n.so"}) {
				t.Errorf("%s: %s (up %v, absent %v), want %s, refused, tls_s2n.so absent\n  lint: %v\n  warnings: %v\n  slurm: %v",
					s2n.Case, s2n.Verdict, s2n.Up, s2n.Absent, WarnedBuild, s2n.Lint, s2n.Warned, s2n.Slurm)
			}
			if !slices.ContainsFunc(s2n.Slurm, func(l string) bool { return strings.Contains(l, "Failed to initialize tls plugin") }) {
				t.Errorf("slurmctld's lines lack its fatal line: %v", s2n.Slurm)
			}
			if none.Verdict != BothAccept || len(none.Absent) != 0 {
				t.Errorf("%s: %s (absent %v), want %s\n  warnings: %v\n  slurm: %v", none.Case, none.Verdict, none.Absent, BothAccept, none.Warned, none.Slurm)
			}
			t.Logf("%s: %s, absent %v\n  slurm: %s", other.Case, other.Verdict, other.Absent, strings.Join(other.Slurm, "\n  slurm: "))
			if other.Verdict != FalseNegative || !slices.Equal(other.Absent, []string{"tls_s2n.so"}) ||
				!strings.Contains(strings.Join(other.Slurm, "\n"), "PreemptMode=SUSPEND requires GANG too") {
				t.Errorf("%s: %s (absent %v), want %s with the PreemptMode line\n  slurm: %v", other.Case, other.Verdict, other.Absent, FalseNegative, other.Slurm)
			}
			if tab := Table([]*Report{rep}); !strings.Contains(tab, "| 3 | 3 | 1 | 0 | 1 | 1 |") {
				t.Errorf("table:\n%s", tab)
			}
		})
	}
}
