package fidelity

import (
	"testing"

	"github.com/slurmspec/slurmspec/deploy/localslurm"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestClassify: the verdict table, including when a warning stands in for
// slurmctld's error line and when it does not.
func TestClassify(t *testing.T) {
	keep := Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "KeepAliveTime", Value: "60"}, {Scope: catalog.ScopeGlobal, Key: "MinJobAge", Value: "0"}}}
	dep := []Warning{{Rule: "deprecated-config-key", Key: "KeepAliveTime"}}
	warned := WarnedRules()
	moved := "slurmctld: error: KeepAliveTime parameter has moved to CommunicationParameters."
	for _, tc := range []struct {
		name string
		res  Result
		want Verdict
	}{
		{"both accept", Result{Up: true}, BothAccept},
		{"both refuse", Result{Lint: []string{"x: y"}, Up: false, Slurm: []string{"fatal"}}, BothRefuse},
		{"false positive", Result{Lint: []string{"x: y"}, Up: true}, FalsePositive},
		{"false negative", Result{Up: true, Slurm: []string{"error: MinJobAge must be at least 2"}}, FalseNegative},
		{"warned and logged", Result{Case: keep, Warned: dep, Up: true, Slurm: []string{moved}}, WarnedLogged},
		// A line about the key's value is not what the warning predicts.
		{"warned, the value refused too", Result{Case: keep, Warned: dep, Up: true, Slurm: []string{moved, "error: KeepAliveTime 4294967295 invalid, ignoring it"}}, FalseNegative},
		// A line that names another key is not explained by the warning.
		{"warned, another error too", Result{Case: keep, Warned: dep, Up: true, Slurm: []string{moved, "error: MinJobAge must be at least 2"}}, FalseNegative},
		// A refused start is a false negative, warning or not.
		{"warned but refused", Result{Case: keep, Warned: dep, Up: false, Slurm: []string{moved}}, FalseNegative},
		// A rule not accepted in docs/fidelity.md does not count.
		{"another rule's warning", Result{Case: keep, Warned: []Warning{{Rule: "rendered-key-override", Key: "KeepAliveTime"}}, Up: true, Slurm: []string{moved}}, FalseNegative},
		// A rule whose line names the group, not the key.
		{"group warning", Result{Case: Case{Settings: []Setting{{Scope: catalog.ScopePartition, Key: "AllowGroups", Value: "lab"}}}, Warned: []Warning{{Rule: "partition-groups", Key: "AllowGroups"}}, Up: true, Slurm: []string{"slurmctld: error: _get_group_members: Could not find configured group lab"}}, WarnedLogged},
		// A warning about another key of the case does not count.
		{"warning about another key", Result{Case: keep, Warned: []Warning{{Rule: "deprecated-config-key", Key: "MinJobAge"}}, Up: true, Slurm: []string{moved}}, FalseNegative},
	} {
		if got := classify(&tc.res, warned); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestWarningKeys: lint's warnings on a generated spec are tied to the
// setting they are about, through the spec path the linter reports, for
// each scope.
func TestWarningKeys(t *testing.T) {
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	k := Case{Settings: []Setting{
		{Scope: catalog.ScopeGlobal, Key: "KeepAliveTime", Value: "60"},
		{Scope: catalog.ScopeNode, Key: "RealMemory", Value: "1000"},
	}}
	_, errs, warns := lintSpec(sch, "k.yaml", k.Spec(), "24.11", nil)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	got := map[string]string{}
	for _, w := range warns {
		got[w.Rule] = k.keyOf(w.Path)
		t.Logf("%s %s -> %q", w.Rule, w.Path, k.keyOf(w.Path))
	}
	if got["deprecated-config-key"] != "KeepAliveTime" || got["rendered-key-override"] != "RealMemory" {
		t.Errorf("warnings tied to keys: %v, want deprecated-config-key: KeepAliveTime, rendered-key-override: RealMemory", got)
	}
	for _, p := range []string{"orchestratorSpec.slurmSpec.config.KeepAliveTimeX", "orchestratorSpec.slurmSpec.partitions[0].config.KeepAliveTime", "orchestratorSpec.slurmSpec.config.RealMemory"} {
		if key := k.keyOf(p); key != "" {
			t.Errorf("keyOf(%s) = %q, want none", p, key)
		}
	}
}

// TestSplitHarness: lines the stand-in's cgroup overrides cause are left
// out only when the override was made.
func TestSplitHarness(t *testing.T) {
	contain := "slurmctld: error: If using PrologFlags=Contain for pam_slurm_adopt, proctrack/cgroup is required. If not using pam_slurm_adopt, please ignore error."
	memspec := "slurmd: error: Resource spec: Limited MemSpecLimit support. Slurmd daemon not memory constrained. Reserved 432 MB"
	other := "slurmctld: error: MinJobAge must be at least 2"
	ovs := []localslurm.Override{{Key: "ProctrackType"}, {Key: "TaskPlugin"}}
	kept, harness := splitHarness([]string{contain, memspec, other}, ovs)
	if len(kept) != 1 || kept[0] != other || len(harness) != 2 {
		t.Errorf("with the overrides: kept %q, harness %q", kept, harness)
	}
	kept, harness = splitHarness([]string{contain, memspec, other}, nil)
	if len(kept) != 3 || len(harness) != 0 {
		t.Errorf("without overrides: kept %q, harness %q", kept, harness)
	}
}
