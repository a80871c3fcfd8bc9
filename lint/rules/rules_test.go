package rules_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
)

func TestValidate(t *testing.T) {
	if err := lint.Validate(rules.All()); err != nil {
		t.Fatal(err)
	}
}

// TestEveryRuleHasCases checks that each rule has a case that triggers it
// and one that does not, and that every case names a known rule.
func TestEveryRuleHasCases(t *testing.T) {
	bad, good := map[string]bool{}, map[string]bool{}
	all := rules.All()
	for _, c := range allCases() {
		if lint.Find(all, c.rule) == nil {
			t.Errorf("case for unknown rule %q", c.rule)
		}
		_, want := stripMarkers(caseText(c) + c.acct)
		if len(want) > 0 {
			bad[c.rule] = true
		} else {
			good[c.rule] = true
		}
	}
	for _, r := range all {
		if !bad[r.ID] {
			t.Errorf("rule %s has no case that triggers it", r.ID)
		}
		if !good[r.ID] {
			t.Errorf("rule %s has no case on which it stays silent", r.ID)
		}
	}
}

func caseText(c ruleCase) string {
	if c.text != "" {
		return c.text
	}
	return c.spec.YAML()
}

func caseName(c ruleCase, i int) string {
	name := c.rule + "/"
	if c.name != "" {
		name += strings.ReplaceAll(c.name, " ", "_")
	} else {
		name += fmt.Sprint(i)
	}
	if c.version != "" {
		name += "@" + c.version
	}
	return name
}

// TestRules runs each case through the real pipeline (load, schema,
// compiler, every rule) and checks that its rule reports exactly at the
// marked positions, each finding with a path and a hint.
func TestRules(t *testing.T) {
	for i, c := range allCases() {
		t.Run(caseName(c, i), func(t *testing.T) {
			file := c.file
			if file == "" {
				file = "spec.yaml"
			}
			text, want := stripMarkers(caseText(c))
			acct, acctWant := caseAccounting(t, c.acct)
			want = append(want, acctWant...)
			l := lintTextWith(t, file, text, c.version, acct)
			got := positions(l, c.rule)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s reported at %v, want %v\n%s\nall findings:\n%s", c.rule, got, want, numbered(text), show(l, ""))
			}
			for _, d := range l {
				if d.Rule == "internal-error" {
					t.Errorf("internal error: %s", d)
				}
				if d.Pos.File != file && d.Pos.File != acctFile || !d.Pos.IsValid() || d.Path == "" || d.Hint == "" || d.Message == "" {
					t.Errorf("finding lacks a position, path, hint or message: %+v", d)
				}
			}
		})
	}
}

// lintFile lints a spec file with every rule.
func lintFile(t *testing.T, path, version string) diag.List {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := compileAs(t, path, string(data), compiler.Identity{})
	return lint.Run(c, rules.All(), lint.Config{Options: lint.Options{SlurmVersion: version}}).Sort()
}

// TestSeed checks that the docs' example has only its placeholder warnings
// and the note that its A4 partition gives jobs without a memory request
// whole nodes, for the newest series and for Debian bookworm's 22.05.
func TestSeed(t *testing.T) {
	for _, v := range []string{"", "26.05", "22.05", "23.11"} {
		l := lintFile(t, "../../examples/seed.jsonc", v)
		for _, d := range l {
			if d.Rule != "placeholder" && (d.Rule != "memory-default-missing" || d.Severity != diag.Info) {
				t.Errorf("seed @%q: unexpected finding %s (%s)", v, d, d.Hint)
			}
		}
		if n := len(positions(l, "memory-default-missing")); n != 1 {
			t.Errorf("seed @%q: %d memory-default-missing notes, want 1 (the a4 partition)", v, n)
		}
		if n := len(positions(l, "placeholder")); n != 6 {
			t.Errorf("seed @%q: %d placeholder warnings, want 6", v, n)
		}
	}
}

// TestScriptPositions checks the messages of findings inside scripts: in a
// YAML block scalar the position is the script's own line; in a JSON or
// quoted string the message names the script's line and column.
func TestScriptPositions(t *testing.T) {
	for _, c := range cases {
		if c.rule != "script-syntax" || c.name != "json" {
			continue
		}
		text, _ := stripMarkers(c.text)
		l := lintText(t, c.file, text, "")
		var msgs []string
		for _, d := range l {
			if d.Rule == "script-syntax" {
				msgs = append(msgs, d.Message)
			}
		}
		if len(msgs) != 1 || !strings.Contains(msgs[0], "(script line 2, column 1)") || !strings.Contains(msgs[0], "prologBashScripts[0]") {
			t.Errorf("JSON script finding: %q, want one naming prologBashScripts[0] and (script line 2, column 1)", msgs)
		}
	}
	block := spec{Prolog: "- |\n  #!/bin/bash\n  echo start\n  fi"}.YAML()
	for _, d := range lintText(t, "spec.yaml", block, "") {
		if d.Rule == "script-syntax" && strings.Contains(d.Message, "script line") {
			t.Errorf("block scalar finding names the script line although it is mapped: %s", d.Message)
		}
	}
}

// TestLargeSpec bounds the time of every rule on a spec with 1000 pools
// and 1000 partitions.
// largeSpec is a spec of 1000 pools, partitions and node sets.
func largeSpec() string {
	var pools, parts, sets strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&pools, "- {id: p%d, machineSpec: {machineType: n2-standard-8}, scalingSpec: {minNodeCount: 0, maxNodeCount: 4}, zone: us-central1-a}\n", i)
		fmt.Fprintf(&parts, "- {id: q%d, nodePoolIds: [p%d, p%d], config: {PriorityTier: \"%d\", PreemptMode: REQUEUE}}\n", i, i, (i+1)%1000, 1+i%3)
		fmt.Fprintf(&sets, "- {nodePoolId: p%d, config: {Features: fast, CoreSpecCount: \"1\", MemSpecLimit: \"1024\"}}\n", i)
	}
	s := spec{Pools: pools.String(), Partitions: parts.String(), Default: "q0",
		Config: prioRequeu + "SlurmctldParameters: cloud_dns", NodeSets: sets.String()}
	return s.YAML()
}

func TestLargeSpec(t *testing.T) {
	c := compile(t, "big.yaml", largeSpec())
	// How long it takes is BenchmarkLargeSpec's to say, not a timed test's.
	l := lint.Run(c, rules.All(), lint.Config{})
	for _, d := range l {
		if d.Severity == diag.Error {
			t.Errorf("unexpected error on the large spec: %s", d)
		}
	}
}

// BenchmarkLargeSpec: every rule on 1000 pools, partitions and node sets
// (make bench; it was a 2 s bound in TestLargeSpec).
func BenchmarkLargeSpec(b *testing.B) {
	c := compile(b, "big.yaml", largeSpec())
	b.ResetTimer()
	for b.Loop() {
		lint.Run(c, rules.All(), lint.Config{})
	}
}

// docs/rules.md is generated from every rule a run can report, the
// online rules included: lint/pipeline's TestRulesDocIsCurrent keeps it
// current.

// TestUnknownVersionFallsBack checks that an unknown series is treated as
// the newest rather than crashing the rules.
func TestUnknownVersionFallsBack(t *testing.T) {
	text := spec{Config: "PrologTimeout: \"300\""}.YAML()
	l := lintText(t, "spec.yaml", text, "not-a-version")
	if n := len(positions(l, "config-key-version")); n != 0 {
		t.Errorf("PrologTimeout flagged with an unknown version (treated as %s?)", "older")
	}
}

// TestMemoryDefaultHint checks the DefMemPerGPU the hint suggests: the
// memory per GPU of the partition's node, from a node set's RealMemory
// when the spec sets one.
func TestMemoryDefaultHint(t *testing.T) {
	for _, tc := range []struct {
		nodeSets, want string
	}{
		{"", `DefMemPerGPU: "492974"`},
		{"- {nodePoolId: a4, config: {RealMemory: \"800000\"}}", `DefMemPerGPU: "100000"`},
	} {
		s := spec{Pools: cpuAndA4, Partitions: "- {id: gpu, nodePoolIds: [a4]}\n- {id: debug, nodePoolIds: [cpu]}", NodeSets: tc.nodeSets}
		c := compileAs(t, "spec.yaml", s.YAML(), compiler.Identity{})
		l := lint.Run(c, []*lint.Rule{rules.MemoryDefaultMissing}, lint.Config{})
		if len(l) != 1 || !strings.Contains(l[0].Hint, tc.want) {
			t.Errorf("node sets %q: findings %v, want one whose hint has %s", tc.nodeSets, l, tc.want)
		}
	}
}

// TestGuardedRules pins which rules guard what render writes; each is
// listed, with its reason, in docs/security.md.
func TestGuardedRules(t *testing.T) {
	var got []string
	for _, r := range lint.Guarded(rules.All()) {
		got = append(got, r.ID)
	}
	if want := "reserved-key unsafe-config-value"; strings.Join(got, " ") != want {
		t.Errorf("guarded rules: %v, want %s", got, want)
	}
	sec, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range got {
		if !strings.Contains(string(sec), "`"+id+"`") {
			t.Errorf("docs/security.md does not list the guarded rule %s", id)
		}
	}
}
