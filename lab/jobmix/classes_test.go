package jobmix

import (
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// classSpec is a cluster of one partition over two static n2-standard-16
// nodes (16 vCPUs, 63216 MiB) with the given partition config.
func classSpec(config string) string {
	return specgen.Small{
		Project: "jobmix", Name: "cls",
		Pools:      []specgen.Pool{{ID: "cpu", MachineType: "n2-standard-16", Min: 2, Max: 2}},
		Partitions: []string{`{id: cpu, nodePoolIds: [cpu], config: ` + config + `}`},
	}.YAML()
}

// classSpecWith is classSpec with more: a second pool cpu8 of two
// n2-standard-8 nodes (8 vCPUs, 31408 MiB) in the partition when two is
// set, a nodeSets list and a global config ("" for none).
func classSpecWith(config string, two bool, nodeSets, global string) string {
	s := classSpec(config)
	if two {
		s = strings.Replace(s, "- id: login\n", `- id: cpu8
  machineSpec: {machineType: n2-standard-8}
  scalingSpec: {minNodeCount: 2, maxNodeCount: 2}
  zone: us-central1-b
- id: login
`, 1)
		s = strings.Replace(s, "nodePoolIds: [cpu]", "nodePoolIds: [cpu, cpu8]", 1)
	}
	if nodeSets != "" {
		s += "    nodeSets:\n    - " + nodeSets + "\n"
	}
	if global != "" {
		s += "    config: " + global + "\n"
	}
	return s
}

// TestFalseNegativeClasses runs, on every release, the minimal spec of
// each false-negative class the workload oracle found (docs/fidelity.md,
// "The workload oracle"), and checks both sides: the finding lint now
// gives (rule and severity; none for MinNodes, whose one-node shapes
// Derive no longer makes), and Slurm's verdicts: the shapes listed fail,
// the others run, and Compare finds every shape agreed (each failure
// predicted by the finding, nothing else predicted).
func TestFalseNegativeClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, config string
		// spec, when set, is the whole spec (config is then unused).
		spec string
		// rule and sev are the finding lint gives; "" for none.
		rule string
		sev  diag.Severity
		// fail lists the shape ids (partition/pool/kind[+sized]) that must
		// fail; every other shape must run.
		fail []string
	}{
		{"MaxMemPerNode below the node's memory, no memory default", `{MaxMemPerNode: "30000"}`, "", "shape-mem-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"MaxMemPerCPU below the node's memory per CPU, no memory default", `{MaxMemPerCPU: "1000"}`, "", "shape-mem-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		// A job without --time runs; one with --time waits
		// (PartitionConfig on 22.05, PartitionTimeLimit later).
		{"MaxTime 0", `{MaxTime: "0"}`, "", "shape-time-limit", diag.Error,
			[]string{"cpu/cpu/one-task+sized", "cpu/cpu/whole-node+sized", "cpu/cpu/two-nodes+sized", "cpu/cpu/max-time"}},
		// Only the two-node shapes are made, and they run.
		{"MinNodes 2", `{MinNodes: "2"}`, "", "", 0, nil},
		// 16 × 3952 MiB is above the node's 63216, but MaxMemPerCPU=3951
		// makes Slurm give the job two CPUs per task at 1976 MiB each:
		// every shape runs, and memory-default-unfit says nothing.
		{"DefMemPerCPU above MaxMemPerCPU", `{DefMemPerCPU: "3952", MaxMemPerCPU: "3951"}`, "", "", 0, nil},
		// Seed 20261213 case 40 (22.05): the raised CPUs per task,
		// ceil(20000 / 1000) = 20, are more than a node's 16: every job
		// without --mem is refused at submit.
		{"DefMemPerCPU above MaxMemPerCPU, more CPUs per task than a node has", `{DefMemPerCPU: "20000", MaxMemPerCPU: "1000"}`, "", "memory-default-unfit", diag.Error,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		// Seed 20261211 cases 92 and 97: a whole-node job gets the CPUs
		// a CPUSpecList or CoreSpecCount leaves, 14 of 16. 14 × 3952
		// MiB fits the node's 63216; MaxMemPerCPU=3951 allows 14 × 3951
		// = 55314 MiB, less than the node's memory a job without --mem
		// is given, and the sized whole-node job asks for 55314.
		{"CPUSpecList: DefMemPerCPU over the node's CPUs fits the others", "",
			classSpecWith(`{DefMemPerCPU: "3952"}`, false, `{nodePoolId: cpu, config: {CPUSpecList: "0,1"}}`, ""), "", 0, nil},
		{"CPUSpecList: MaxMemPerCPU times the others", "",
			classSpecWith(`{MaxMemPerCPU: "3951"}`, false, `{nodePoolId: cpu, config: {CPUSpecList: "0,1"}}`, ""), "shape-mem-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"CoreSpecCount: DefMemPerCPU over the node's CPUs fits the others", "",
			classSpecWith(`{DefMemPerCPU: "3952"}`, false, `{nodePoolId: cpu, config: {CoreSpecCount: "2"}}`, ""), "", 0, nil},
		{"CoreSpecCount: MaxMemPerCPU times the others", "",
			classSpecWith(`{MaxMemPerCPU: "3951"}`, false, `{nodePoolId: cpu, config: {CoreSpecCount: "2"}}`, ""), "shape-mem-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		// Seed 20261211 case 74: one finding names both pools, and
		// predicts the whole-node shapes of each (with CR_CPU, as there).
		{"MaxCPUsPerNode below the CPUs of two pools", "", classSpecWith(`{MaxCPUsPerNode: "4"}`, true, "", `{SelectTypeParameters: CR_CPU}`),
			"shape-cpu-limit", diag.Error,
			[]string{"cpu/cpu/whole-node", "cpu/cpu/whole-node+sized", "cpu/cpu8/whole-node", "cpu/cpu8/whole-node+sized"}},
		// Seed 20261212 case 10: a whole-node job without --mem is
		// given DefMemPerCPU × 16 CPUs = 62816 MiB, within the node's
		// 63216 but above MaxMemPerNode: it waits for ever
		// (MaxMemPerLimit; PartitionConfig on 22.05). A one-task job
		// gets one CPU's 3926 MiB and runs.
		{"DefMemPerCPU × CPUs above MaxMemPerNode", `{DefMemPerCPU: "3926", MaxMemPerNode: "15704"}`, "", "shape-mem-limit", diag.Warning,
			[]string{"cpu/cpu/whole-node"}},
		// One CPU's DefMemPerCPU is above MaxMemPerNode: every job
		// without --mem waits.
		{"DefMemPerCPU above MaxMemPerNode", `{DefMemPerCPU: "3000", MaxMemPerNode: "2000"}`, "", "shape-mem-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"MaxCPUsPerNode below the node's CPUs", `{MaxCPUsPerNode: "1"}`, "", "shape-cpu-limit", diag.Error,
			[]string{"cpu/cpu/whole-node", "cpu/cpu/whole-node+sized"}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			for _, rel := range localslurm.Releases() {
				t.Run(rel, func(t *testing.T) {
					t.Parallel() // each class and release starts its own cluster: they share nothing
					slurmtest.Require(t, func() error { return localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}) })
					spec := tc.spec
					if spec == "" {
						spec = classSpec(tc.config)
					}
					c, diags := analyse(t, "class.yaml", spec, rel)
					var found []string
					for _, d := range diags {
						if d.Severity >= diag.Warning {
							found = append(found, d.Rule+" "+d.Severity.String())
						}
					}
					want := []string(nil)
					if tc.rule != "" {
						want = []string{tc.rule + " " + tc.sev.String()}
					}
					if !slices.Equal(found, want) {
						t.Errorf("lint gives %v, want %v:\n%v", found, want, diags)
					}
					judgeClass(t, c, diags, rel, tc.fail)
				})
			}
		})
	}
}
