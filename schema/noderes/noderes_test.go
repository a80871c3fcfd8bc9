package noderes_test

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/schema/noderes"
)

// TestOf: a node's CPUs, specialized CPUs, GPUs and memory, from the
// machine type (an A4: 224 vCPUs, 8 GPUs, 3943792 MiB; an n2-standard-16:
// 16 vCPUs, 63216 MiB, both less the slurm-gcp reserve) and the overrides
// of its nodeSets entry.
func TestOf(t *testing.T) {
	for _, tc := range []struct {
		name, nodeSet string // nodeSet: the cpu pool's entry's config, "" for none
		want          noderes.Node
	}{
		{"machine type", "", noderes.Node{CPUs: 16, Memory: 63216}},
		{"RealMemory", `{RealMemory: "32000"}`, noderes.Node{CPUs: 16, Memory: 32000}},
		{"RealMemory in hex, as strtoull reads it", `{RealMemory: "0x7d00"}`, noderes.Node{CPUs: 16, Memory: 32000}},
		{"RealMemory 0 keeps the machine's", `{RealMemory: "0"}`, noderes.Node{CPUs: 16, Memory: 63216}},
		{"MemSpecLimit below RealMemory", `{RealMemory: "32000", MemSpecLimit: "1000"}`, noderes.Node{CPUs: 16, Memory: 31000}},
		{"MemSpecLimit at RealMemory is reset to 0", `{RealMemory: "32000", MemSpecLimit: "32000"}`, noderes.Node{CPUs: 16, Memory: 32000}},
		{"CPUs", `{CPUs: "8"}`, noderes.Node{CPUs: 8, Memory: 63216}},
		{"CoreSpecCount", `{CoreSpecCount: "2"}`, noderes.Node{CPUs: 16, Spec: 2, Memory: 63216}},
		{"CoreSpecCount of every CPU", `{CoreSpecCount: "16"}`, noderes.Node{CPUs: 16, Memory: 63216}},
		{"CPUSpecList, a CPU named twice", `{CPUSpecList: "0-2,1"}`, noderes.Node{CPUs: 16, Spec: 3, Memory: 63216}},
		{"CPUSpecList wins over CoreSpecCount", `{CPUSpecList: "0", CoreSpecCount: "4"}`, noderes.Node{CPUs: 16, Spec: 1, Memory: 63216}},
		{"CPUSpecList past the node's CPUs", `{CPUSpecList: "15-16"}`, noderes.Node{CPUs: 16, Memory: 63216}},
		{"CPUSpecList with a sign", `{CPUSpecList: "+1"}`, noderes.Node{CPUs: 16, Memory: 63216}},
		{"a topology of the node set's own", `{CoreSpecCount: "2", Sockets: "2", CoresPerSocket: "4"}`, noderes.Node{CPUs: 16, Memory: 63216}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := specgen.Small{
				Project: "acme-ml",
				Pools: []specgen.Pool{
					specgen.A4Pool("a4", 0, 1),
					{ID: "cpu", MachineType: "n2-standard-16", Min: 0, Max: 1},
				},
				Partitions: []string{`{id: all, nodePoolIds: [a4, cpu]}`},
			}
			if tc.nodeSet != "" {
				s.NodeSets = []string{`{nodePoolId: cpu, config: ` + tc.nodeSet + `}`}
			}
			c := pipelinetest.Compile(t, "n.yaml", s.YAML())
			if got := noderes.Of(c, c.Pool("cpu")); got != tc.want {
				t.Errorf("cpu: %+v, want %+v", got, tc.want)
			}
			if got, want := noderes.Of(c, c.Pool("a4")), (noderes.Node{CPUs: 224, GPUs: 8, Memory: 3943792}); got != want {
				t.Errorf("a4: %+v, want %+v", got, want)
			}
			if got := noderes.Of(c, c.Pool("cpu")).Usable(); got != tc.want.CPUs-tc.want.Spec {
				t.Errorf("Usable: %d, want %d", got, tc.want.CPUs-tc.want.Spec)
			}
		})
	}
}

// TestOfUnknownMachine: a pool whose machine type the catalog lacks has
// the zero Node.
func TestOfUnknownMachine(t *testing.T) {
	c := &ir.Cluster{}
	if got := noderes.Of(c, &ir.NodePool{}); got != (noderes.Node{}) {
		t.Errorf("Of = %+v, want the zero Node", got)
	}
}

// TestCPUSpecList: the CPUs a list names, or why slurmd refuses it.
func TestCPUSpecList(t *testing.T) {
	for _, tc := range []struct {
		list    string
		cpus    int
		n       int64
		problem string
	}{
		{"0,1", 16, 2, ""},
		{"0-3,2", 16, 4, ""},
		{"0-3", 0, 0, ""}, // the node's CPUs unknown: nothing counted
		{"1-0", 16, 0, `the range "1-0" runs backwards`},
		{"0,x", 16, 0, `"x" is not a CPU id or a range of them`},
		{"+1", 16, 0, `"+1" is not a CPU id or a range of them`},
		{"-1", 16, 0, `"-1" is not a CPU id or a range of them`},
		{"0-16", 16, 0, "CPU 16 is not one of the node's CPUs 0-15"},
		{"0-99999999", 0, 0, ""},
	} {
		n, problem := noderes.CPUSpecList(tc.list, tc.cpus)
		if n != tc.n || problem != tc.problem {
			t.Errorf("CPUSpecList(%q, %d) = %d, %q; want %d, %q", tc.list, tc.cpus, n, problem, tc.n, tc.problem)
		}
	}
}
