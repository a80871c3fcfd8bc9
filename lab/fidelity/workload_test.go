package fidelity

import (
	"math/rand/v2"
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
	// A key drawn twice in one place (or a companion of another draw)
	// keeps its last value: the spec holds it, and the settings list it
	// once.
	for _, c := range a {
		seen := map[string]bool{}
		for _, s := range c.Settings {
			if seen[s.How+" "+s.Key] {
				t.Errorf("%s: %s %s listed twice", c, s.How, s.Key)
			}
			seen[s.How+" "+s.Key] = true
			var got string
			switch {
			case s.How == "global":
				got = c.Global[s.Key]
			case strings.HasPrefix(s.How, "node set "):
				got = c.NodeSets[strings.TrimPrefix(s.How, "node set ")][s.Key]
			default:
				for _, p := range c.Partitions {
					if s.How == "partition "+p.ID {
						got = p.Config[s.Key]
					}
				}
			}
			if got != s.Value {
				t.Errorf("%s: setting %s %s=%s, spec has %q", c, s.How, s.Key, s.Value, got)
			}
		}
	}
	if !strings.Contains(string(a[0].Spec()), "nodePoolIds: [gpu]") {
		t.Errorf("spec:\n%s", a[0].Spec())
	}
}

// TestWorkloadWideDrawsLint: every widened draw, alone on the base spec of
// every machine type and release, gives a spec lint compiles and does not
// refuse for a reason outside the job mix: its errors, if any, come from
// rules whose findings predict shapes (jobmix.Predictors), so the case is
// run and judged. Each draw is tried with many values (its companions
// included), on the pool it concerns.
func TestWorkloadWideDrawsLint(t *testing.T) {
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	predictors := jobmix.Predictors()
	tried := map[string]bool{}
	for _, rel := range []string{"22.05", "24.11", "26.05"} {
		for i, d := range workloadWideDraws {
			for j := range max(len(workloadGPUTypes), len(workloadCPUTypes)) {
				r := rand.New(rand.NewPCG(uint64(i), uint64(j)))
				w := WorkloadCase{GPUType: workloadGPUTypes[j%len(workloadGPUTypes)], CPUType: workloadCPUTypes[j%len(workloadCPUTypes)],
					NodeSets: map[string]map[string]string{}, Global: map[string]string{},
					Partitions: []WorkloadPartition{{ID: "gpu", Pools: []string{"gpu"}, Config: map[string]string{}}, {ID: "cpu", Pools: []string{"cpu"}, Config: map[string]string{}}}}
				wlApply(r, &w, d)
				if len(w.Settings) == 0 {
					continue // a GPU key drawn for the CPU pool
				}
				tried[d.scope.String()+"/"+d.key] = true
				c, errs, _ := lintSpec(sch, "w.yaml", w.Spec(), rel, nil)
				if c == nil {
					t.Errorf("%s %s: does not compile: %v", rel, w, errs)
					continue
				}
				for _, e := range errs {
					if _, ok := predictors[e.Rule]; !ok {
						t.Errorf("%s %s: lint-refused by %s: %s", rel, w, e.Rule, e.Message)
					}
				}
			}
		}
	}
	for _, d := range workloadWideDraws {
		if !tried[d.scope.String()+"/"+d.key] {
			t.Errorf("%s/%s never drawn", d.scope, d.key)
		}
	}
}
