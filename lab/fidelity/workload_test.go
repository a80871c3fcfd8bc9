package fidelity

import (
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lab/jobmix"
	"github.com/slurmspec/slurmspec/schema"
)

// TestWorkloadBaseLintsClean: the workload spec without settings lints
// without an error or a warning for every release and every machine type
// the generator draws, and every one gets its standard shapes (a GPU pool
// its GPU shapes), so a finding in a run comes from the settings.
func TestWorkloadBaseLintsClean(t *testing.T) {
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[string][]string{"gpu": {"wl-gpu-0", "wl-gpu-1"}, "cpu": {"wl-cpu-0", "wl-cpu-1"}}
	for _, rel := range []string{"22.05", "24.11", "26.05"} {
		for i := range max(len(workloadGPUTypes), len(workloadCPUTypes)) {
			w := WorkloadCase{GPUType: workloadGPUTypes[i%len(workloadGPUTypes)], CPUType: workloadCPUTypes[i%len(workloadCPUTypes)],
				Partitions: []WorkloadPartition{{ID: "gpu", Pools: []string{"gpu"}}, {ID: "cpu", Pools: []string{"cpu"}}}}
			c, errs, warns := lintSpec(sch, "w.yaml", w.Spec(), rel, nil)
			if c == nil || len(errs)+len(warns) > 0 {
				t.Errorf("%s %s + %s: %v %v", rel, w.GPUType, w.CPUType, errs, warns)
				continue
			}
			kinds := map[jobmix.Kind]bool{}
			for _, s := range jobmix.Derive(c, nodes) {
				kinds[s.Kind] = true
				for _, n := range s.Nodes {
					if !slices.Contains(workloadStandIns, n) {
						t.Errorf("%s: shape %s pinned to %s, which is not a stand-in", w.GPUType, s.ID(), n)
					}
				}
			}
			for _, k := range []jobmix.Kind{jobmix.OneTask, jobmix.OneGPU, jobmix.AllGPUs, jobmix.WholeNode, jobmix.TwoNodes} {
				if !kinds[k] {
					t.Errorf("%s %s + %s: no %s shape", rel, w.GPUType, w.CPUType, k)
				}
			}
		}
	}
}

// TestGenerateWorkload: the same seed gives the same cases; 300 cases set
// every key the generator draws, in each of its scopes, and draw every
// machine type.
func TestGenerateWorkload(t *testing.T) {
	a, b := GenerateWorkload(7, 300), GenerateWorkload(7, 300)
	seen := map[string]bool{}
	types := map[string]bool{}
	for i := range a {
		if a[i].String() != b[i].String() || string(a[i].Spec()) != string(b[i].Spec()) {
			t.Fatalf("case %d differs between two runs of one seed:\n%s\n%s", i, a[i], b[i])
		}
		types[a[i].GPUType], types[a[i].CPUType] = true, true
		for _, s := range a[i].Settings {
			seen[s.Scope.String()+"/"+s.Key] = true
		}
	}
	for _, d := range workloadDraws {
		if !seen[d.scope.String()+"/"+d.key] {
			t.Errorf("no case sets %s/%s", d.scope, d.key)
		}
	}
	for _, m := range slices.Concat(workloadGPUTypes, workloadCPUTypes) {
		if !types[m] {
			t.Errorf("no case draws %s", m)
		}
	}
	if GenerateWorkload(8, 1)[0].String() == a[0].String() && GenerateWorkload(9, 1)[0].String() == a[0].String() {
		t.Errorf("the seed does not change the cases")
	}
	// Seed 5's third case draws global AccountingStorageEnforce twice: the
	// spec holds the last value, and so does the list of settings.
	c := GenerateWorkload(5, 3)[2]
	n := 0
	for _, s := range c.Settings {
		if s.Key == "AccountingStorageEnforce" {
			n++
			if s.Value != c.Global["AccountingStorageEnforce"] {
				t.Errorf("setting %s, spec has %s", s.Value, c.Global["AccountingStorageEnforce"])
			}
		}
	}
	if n != 1 {
		t.Errorf("%s: AccountingStorageEnforce listed %d times, want once", c, n)
	}
	if !strings.Contains(string(a[0].Spec()), "nodePoolIds: [gpu]") {
		t.Errorf("spec:\n%s", a[0].Spec())
	}
}
