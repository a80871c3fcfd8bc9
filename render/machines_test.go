package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// poolSpec is a cluster with one compute pool of the machine type, whose
// nodeSets entry has the given config (a YAML flow map body).
func poolSpec(machineType, nodeSet string) string {
	return `
nodePools:
- {id: cpu, machineSpec: {machineType: ` + machineType + `}, scalingSpec: {maxNodeCount: 4}}
- {id: login, machineSpec: {machineType: n2-standard-8}, scalingSpec: {maxNodeCount: 1}}
orchestratorSpec:
  slurmSpec:
    loginNodePoolId: login
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
    partitions: [{id: cpu, nodePoolIds: [cpu]}]
    nodeSets: [{nodePoolId: cpu, config: {` + nodeSet + `}}]
`
}

// TestRenderRefusesUnknownMachines: a compute pool whose machine type the
// catalog lacks, or lists without vCPUs and memory, is not rendered
// whatever lint says (issue 26: n2-standard-64 used to render
// "NodeName=... State=CLOUD" with no CPUs and no RealMemory), unless its
// nodeSets entry gives CPUs and RealMemory.
func TestRenderRefusesUnknownMachines(t *testing.T) {
	for _, c := range []struct{ name, machine, nodeSet, hint string }{
		{"not in the catalog", "n2-standard-65", "", `did you mean`},
		{"no vCPUs or memory in the catalog", "a4-highgpu-8g-lowmem", "", "nodeSets"},
		{"only RealMemory in the nodeSets entry", "n2-standard-65", `RealMemory: "1000"`, "nodeSets"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := pipelinetest.Compile(t, "s.yaml", poolSpec(c.machine, c.nodeSet))
			set, l := Render(cl, Options{SlurmVersion: "26.05"})
			if set != nil {
				t.Fatalf("rendered:\n%s", set.Get("slurm.conf").Data)
			}
			if len(l) != 1 || l[0].Rule != RuleMachineType || !strings.Contains(l[0].Message, c.machine) ||
				l[0].Pos.Line == 0 || l[0].Path != "nodePools[0].machineSpec.machineType" || !strings.Contains(l[0].Hint, c.hint) {
				t.Errorf("diagnostics: %+v", l)
			}
		})
	}
	t.Run("CPUs and RealMemory in the nodeSets entry", func(t *testing.T) {
		cl := pipelinetest.Compile(t, "s.yaml", poolSpec("n2-standard-65", `CPUs: "65", RealMemory: "250000"`))
		set, l := Render(cl, Options{SlurmVersion: "26.05"})
		if len(l) > 0 {
			t.Fatalf("not rendered: %v", l)
		}
		if conf := string(set.Get("slurm.conf").Data); !strings.Contains(conf, "CPUs=65 RealMemory=250000") {
			t.Errorf("slurm.conf lacks the nodeSets entry's CPUs and RealMemory:\n%s", conf)
		}
	})
}

// TestEveryMachineTypeRenders renders a pool of every machine type of the
// catalog that has its vCPUs and memory (issue 26, section 5): the
// NodeName lines have the type's CPUs, the RealMemory of the slurm-gcp
// formula (memory less 400 MiB and 30 MiB per GiB, positive and below the
// memory) and, for whole GPUs, Gres=gpu:MODEL:COUNT; nothing else about
// the hardware. Types without vCPUs or memory are refused.
func TestEveryMachineTypeRenders(t *testing.T) {
	cl := pipelinetest.Compile(t, "s.yaml", poolSpec("n2-standard-8", `Weight: "1"`))
	pool := cl.Pool("cpu")
	cat := machines.Default()
	rendered := 0
	for _, typ := range cat.Types() {
		m, _ := cat.Lookup(typ)
		pool.MachineType.Value, pool.Machine = typ, m
		set, l := Render(cl, Options{SlurmVersion: "26.05"})
		if !m.Known() {
			if set != nil || len(l) != 1 || l[0].Rule != RuleMachineType {
				t.Errorf("%s has no vCPUs or memory in the catalog, yet: %v", typ, l)
			}
			continue
		}
		if len(l) > 0 {
			t.Errorf("%s: not rendered: %v", typ, l)
			continue
		}
		f, err := slurmconf.Parse(set.Get("slurm.conf").Data)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		var lines int
		for _, n := range f.Nodes {
			if !strings.HasPrefix(n.Name(), "c-cpu-") {
				continue
			}
			lines++
			want := map[string]string{"CPUs": fmt.Sprint(m.VCPUs), "RealMemory": fmt.Sprint(m.RealMemoryMiB()), "Gres": ""}
			if g, whole := m.WholeGPUs(); m.HasGPU() && whole {
				want["Gres"] = fmt.Sprintf("gpu:%s:%d", m.GPUModel, g)
			}
			for k, w := range want {
				if got, _ := n.Get(k); got != w {
					t.Errorf("%s: NodeName line %d: %s=%q, want %q", typ, n.Num, k, got, w)
				}
			}
			if mem := m.RealMemoryMiB(); mem <= 0 || mem >= m.MemoryMiB() {
				t.Errorf("%s: RealMemory %d is not within the machine's %d MiB", typ, mem, m.MemoryMiB())
			}
		}
		if lines == 0 {
			t.Errorf("%s: no NodeName line for the pool", typ)
		}
		rendered++
	}
	if rendered < 300 {
		t.Errorf("only %d machine types rendered", rendered)
	}
}
