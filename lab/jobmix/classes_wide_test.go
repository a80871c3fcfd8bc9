package jobmix

import (
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// allCPUShapes are the shape ids of classSpec's partition.
var allCPUShapes = []string{"cpu/cpu/one-task", "cpu/cpu/one-task+sized", "cpu/cpu/whole-node", "cpu/cpu/whole-node+sized", "cpu/cpu/two-nodes", "cpu/cpu/two-nodes+sized"}

// wideClass is one class the widened workload generator found (issue 26,
// session 9; docs/fidelity.md, "False negatives found", items 12 on).
type wideClass struct {
	name string
	// spec is the whole spec (classSpec, classSpecWith).
	spec string
	// rule and sev are the finding lint gives; "" for none.
	rule string
	sev  diag.Severity
	// fail lists the shape ids that must fail; every other must run.
	fail []string
}

// wideClassAlso is another finding lint gives beside the class's own, by
// case name ("rule severity").
var wideClassAlso = map[string]string{
	"DefMemPerNode above MaxMemPerCPU × the node's CPUs, CR_Core":     "memory-not-tracked warning",
	"DefMemPerNode above MaxMemPerNode, CR_Core":                      "memory-not-tracked warning",
	"DefMemPerCPU × a whole node's CPUs above MaxMemPerNode, CR_Core": "memory-not-tracked warning",
}

// wideClassReleases are the releases a class holds on, by name, where
// not every release.
var wideClassReleases = map[string][]string{
	"partition DefMemPerCPU 0 under the cluster's, 25.05 on":     {"26.05"},
	"partition DefMemPerCPU 0 under the cluster's, before 25.05": {"22.05", "24.11"},
}

// TestWideClasses runs, on every release, the minimal spec of each class
// the widened generator found, as TestFalseNegativeClasses does for the
// earlier ones: the finding lint gives, Slurm's verdicts, and every shape
// agreed.
func TestWideClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []wideClass{
		// Seed 20262001 case 0: every job without --time is refused at
		// submit, "Time limit specification required, but not provided".
		{"JobSubmitPlugins require_timelimit", classSpecWith("{}", false, "", "{JobSubmitPlugins: require_timelimit}"), "shape-time-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		// Seed 20262001 cases 3 and 4: a closed partition.
		{"State DOWN", classSpec("{State: DOWN}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		{"State DRAIN", classSpec("{State: DRAIN}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		{"RootOnly", classSpec("{RootOnly: \"YES\"}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		{"ReqResv", classSpec("{ReqResv: \"YES\"}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		// Seed 20262002 case 7: a job without --mem is checked against
		// MaxMemPerNode with the memory of the partition's first node by
		// name. cls-aux-0 (n2-standard-8, 31408 MiB) is first: every
		// shape runs, on pool big (63216 MiB) too.
		{"MaxMemPerNode: the first node by name fits", twoPoolSpec("aux", "big", `{MaxMemPerNode: "40000"}`), "", 0, nil},
		// cls-large-0 (n2-standard-16) is first: every job without
		// --mem pends, on pool small (31408 MiB, within the limit) too.
		{"MaxMemPerNode: the first node by name does not fit", twoPoolSpec("small", "large", `{MaxMemPerNode: "40000"}`), "shape-mem-limit", diag.Warning,
			[]string{"cpu/small/one-task", "cpu/small/whole-node", "cpu/small/two-nodes", "cpu/large/one-task", "cpu/large/whole-node", "cpu/large/two-nodes"}},
		// Seed 20261231 case 95 (on the tree before item 15): the same
		// with MaxMemPerCPU. A job without --mem is checked with the
		// first node's memory, cls-aux-0's 31408 MiB: it needs
		// ceil(31408 / 2000) = 16 CPUs, which pool big's n2-standard-16
		// has and pool aux's n2-standard-8 has not.
		{"MaxMemPerCPU: the first node by name decides", twoPoolSpec("aux", "big", `{MaxMemPerCPU: "2000"}`), "shape-mem-limit", diag.Warning,
			[]string{"cpu/aux/one-task", "cpu/aux/whole-node", "cpu/aux/two-nodes"}},
		// Seed 20264001 case 54: DefMemPerNode=50000 needs ceil(50000 /
		// 3000) = 17 CPUs under MaxMemPerCPU=3000; an n2-standard-16 has
		// 16: every job without --mem is refused at submit.
		{"DefMemPerNode above MaxMemPerCPU × the node's CPUs", classSpec(`{DefMemPerNode: "50000", MaxMemPerCPU: "3000"}`), "shape-mem-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		// The same with CR_Core, which tracks no memory: slurmctld
		// checks the default against the limit all the same (22.05,
		// 24.11, 26.05), and so it does DefMemPerNode against
		// MaxMemPerNode (pending, MaxMemPerLimit; PartitionConfig on
		// 22.05).
		{name: "DefMemPerNode above MaxMemPerCPU × the node's CPUs, CR_Core", spec: classSpecWith(`{DefMemPerNode: "50000", MaxMemPerCPU: "3000"}`, false, "", `{SelectTypeParameters: CR_Core}`),
			rule: "shape-mem-limit", sev: diag.Warning, fail: []string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{name: "DefMemPerNode above MaxMemPerNode, CR_Core", spec: classSpecWith(`{DefMemPerNode: "50000", MaxMemPerNode: "40000"}`, false, "", `{SelectTypeParameters: CR_Core}`),
			rule: "shape-mem-limit", sev: diag.Warning, fail: []string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{name: "DefMemPerNode above MaxMemPerNode, a partition's CR_Core", spec: classSpec(`{SelectTypeParameters: CR_Core, DefMemPerNode: "50000", MaxMemPerNode: "40000"}`),
			rule: "shape-mem-limit", sev: diag.Warning, fail: []string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{name: "DefMemPerCPU × a whole node's CPUs above MaxMemPerNode, CR_Core", spec: classSpecWith(`{DefMemPerCPU: "5000", MaxMemPerNode: "40000"}`, false, "", `{SelectTypeParameters: CR_Core}`),
			rule: "shape-mem-limit", sev: diag.Warning, fail: []string{"cpu/cpu/whole-node"}},
		// Seed 20262002 case 13: MaxCPUsPerNode=0 admits no job.
		{"MaxCPUsPerNode 0", classSpec(`{MaxCPUsPerNode: "0"}`), "shape-cpu-limit", diag.Error, allCPUShapes},
		// Seed 20262002 case 13: a GPU job gets DefCpuPerGPU CPUs, each
		// with DefMemPerCPU: 8 × 3927 MiB is above the node's 31408.
		{"DefCpuPerGPU × DefMemPerCPU above the node", gpuClassSpec(`{DefCpuPerGPU: "8", DefMemPerCPU: "3927"}`), "memory-default-unfit", diag.Warning,
			[]string{"gpu/gpu/one-gpu", "gpu/gpu/one-gpu+sized", "gpu/gpu/all-gpus", "gpu/gpu/all-gpus+sized", "gpu/gpu/whole-node"}},
		// Seed 20262004 case 11: from 25.05 on a partition's
		// DefMemPerCPU of 0 leaves the cluster's to its jobs: 16 × 3952
		// MiB is above the node's 63216, and the whole-node job without
		// --mem is refused; before, the partition's 0 stands.
		{name: "partition DefMemPerCPU 0 under the cluster's, 25.05 on", spec: classSpecWith(`{DefMemPerCPU: "0"}`, false, "", `{DefMemPerCPU: "3952"}`),
			rule: "memory-default-unfit", sev: diag.Warning, fail: []string{"cpu/cpu/whole-node"}},
		{name: "partition DefMemPerCPU 0 under the cluster's, before 25.05", spec: classSpecWith(`{DefMemPerCPU: "0"}`, false, "", `{DefMemPerCPU: "3952"}`)},
		// Seed 20265001 cases 18 and 21: a nodeSets Gres with fewer GPUs
		// than the machine type's (slurmspec writes gpu:a100:2 on
		// a2-highgpu-2g; the spec's gpu:1 is written last and wins):
		// slurmctld schedules one GPU a node, and a job asking for
		// both is refused at submit ("Requested node configuration is
		// not available").
		{name: "nodeSets Gres below the machine's GPUs", spec: gpuClassSpecOn("a2-highgpu-2g", "{}", `{Gres: "gpu:1"}`),
			rule: "rendered-key-override", sev: diag.Warning, fail: []string{"gpu/gpu/all-gpus", "gpu/gpu/all-gpus+sized"}},
		// gpu:0: every GPU job is refused the same way; the others run.
		{name: "nodeSets Gres gpu:0", spec: gpuClassSpecOn("a2-highgpu-2g", "{}", `{Gres: "gpu:0"}`),
			rule: "rendered-key-override", sev: diag.Warning, fail: []string{"gpu/gpu/one-gpu", "gpu/gpu/one-gpu+sized", "gpu/gpu/all-gpus", "gpu/gpu/all-gpus+sized"}},
		// 0 is no limit: every shape runs.
		{"MaxMemPerCPU 0", classSpec("{MaxMemPerCPU: \"0\"}"), "", 0, nil},
		{"MaxMemPerNode 0", classSpec("{MaxMemPerNode: \"0\"}"), "", 0, nil},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			for _, rel := range localslurm.Releases() {
				if only := wideClassReleases[tc.name]; only != nil && !slices.Contains(only, rel) {
					continue
				}
				t.Run(rel, func(t *testing.T) {
					t.Parallel()
					slurmtest.Require(t, func() error { return localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}) })
					runWideClass(t, tc, rel)
				})
			}
		})
	}
}

// twoPoolSpec is classSpec with two pools of two static nodes each in
// the partition: an n2-standard-8 one (31408 MiB) and an n2-standard-16
// one (63216 MiB), of the given ids.
func twoPoolSpec(small, large, config string) string {
	s := strings.Replace(classSpec(config), "- id: cpu\n  machineSpec: {machineType: n2-standard-16}", "- id: "+large+"\n  machineSpec: {machineType: n2-standard-16}", 1)
	s = strings.Replace(s, "- id: login\n", "- id: "+small+"\n  machineSpec: {machineType: n2-standard-8}\n  scalingSpec: {minNodeCount: 2, maxNodeCount: 2}\n  zone: us-central1-b\n- id: login\n", 1)
	return strings.Replace(s, "nodePoolIds: [cpu]", "nodePoolIds: ["+small+", "+large+"]", 1)
}

// gpuClassSpec is a cluster of one partition gpu over two static
// g2-standard-8 nodes (8 vCPUs, one L4 GPU, 31408 MiB) with the given
// partition config.
func gpuClassSpec(config string) string {
	return gpuClassSpecOn("g2-standard-8", config, "")
}

// gpuClassSpecOn is gpuClassSpec on another machine type, with the gpu
// pool's nodeSets config ("" for none).
func gpuClassSpecOn(machine, config, nodeSet string) string {
	s := strings.Replace(classSpec(config), "- id: cpu\n  machineSpec: {machineType: n2-standard-16}", "- id: gpu\n  machineSpec: {machineType: "+machine+"}\n  provisioningModel: SPOT", 1)
	s = strings.Replace(s, "- {id: cpu, nodePoolIds: [cpu]", "- {id: gpu, nodePoolIds: [gpu]", 1)
	if nodeSet != "" {
		s += "    nodeSets:\n    - {nodePoolId: gpu, config: " + nodeSet + "}\n"
	}
	return s
}

func runWideClass(t *testing.T, tc wideClass, rel string) {
	c, diags := analyse(t, "class.yaml", tc.spec, rel)
	var found []string
	for _, d := range diags {
		if d.Severity >= diag.Warning {
			found = append(found, d.Rule+" "+d.Severity.String())
		}
	}
	// A finding per pool of the partition counts once.
	slices.Sort(found)
	found = slices.Compact(found)
	want := []string(nil)
	if tc.rule != "" {
		want = []string{tc.rule + " " + tc.sev.String()}
	}
	if also := wideClassAlso[tc.name]; also != "" {
		want = append(want, also)
		slices.Sort(want)
	}
	if !slices.Equal(found, want) {
		t.Errorf("lint gives %v, want %v:\n%v", found, want, diags)
	}
	judgeClass(t, c, diags, rel, tc.fail)
}
