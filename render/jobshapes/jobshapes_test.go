package jobshapes

import (
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
)

// spec has an A4 pool of two nodes (8 GPUs, 224 vCPUs, 3943792 MiB), a
// CPU pool of one node (n2-standard-16: 16 vCPUs, 63216 MiB), a login
// pool, and partitions that vary what decides the mix.
var spec = specgen.Small{
	Project: "acme-ml",
	Pools: []specgen.Pool{
		specgen.A4Pool("a4", 0, 2),
		{ID: "cpu", MachineType: "n2-standard-16", Min: 0, Max: 1},
	},
	DefaultPartition: "gpu",
	Partitions: []string{
		`{id: gpu, nodePoolIds: [a4], config: {MaxTime: "60", AllowAccounts: "ALL,research", AllowQos: high}}`,
		`{id: cpu, nodePoolIds: [cpu, login], config: {MaxMemPerCPU: "1000"}}`,
		`{id: one, nodePoolIds: [a4], config: {MaxNodes: "1", MaxTime: "0"}}`,
		`{id: big, nodePoolIds: [a4, cpu], config: {MinNodes: "2", MaxMemPerNode: "100000"}}`,
	},
}.YAML()

// TestDerive: every partition's shapes, pool by pool, with their options:
// GPU shapes on the GPU pool only; no two-node shape on a pool of one
// node (cpu) or under MaxNodes=1 (one); none of one node under
// MinNodes=2 (big: only a4's two-node shapes); max-time at MaxTime (0
// included); the login pool gets none; -A and --qos from AllowAccounts and
// AllowQos, ALL left out; the sized jobs' memory within MaxMemPerCPU and
// MaxMemPerNode.
func TestDerive(t *testing.T) {
	c := pipelinetest.Compile(t, "mix.yaml", spec)
	var got []string
	for _, s := range Derive(c) {
		got = append(got, s.String())
	}
	want := []string{
		"gpu/a4/one-task (-n1 -A research --qos=high)",
		"gpu/a4/one-task+sized (-n1 --mem=17606 --time=1 -A research --qos=high)",
		"gpu/a4/one-gpu (--gpus=1 -A research --qos=high)",
		"gpu/a4/one-gpu+sized (--gpus=1 --mem-per-gpu=492974 --time=1 -A research --qos=high)",
		"gpu/a4/all-gpus (-N1 --gpus=8 -A research --qos=high)",
		"gpu/a4/all-gpus+sized (-N1 --gpus=8 --mem-per-gpu=492974 --time=1 -A research --qos=high)",
		"gpu/a4/whole-node (-N1 --exclusive -A research --qos=high)",
		"gpu/a4/whole-node+sized (-N1 --exclusive --mem=3943792 --time=1 -A research --qos=high)",
		"gpu/a4/two-nodes (-N2 -A research --qos=high)",
		"gpu/a4/two-nodes+sized (-N2 --mem=17606 --time=1 -A research --qos=high)",
		"gpu/a4/max-time (-n1 --time=60 -A research --qos=high)",
		"cpu/cpu/one-task (-n1)",
		"cpu/cpu/one-task+sized (-n1 --mem=1000 --time=1)",
		"cpu/cpu/whole-node (-N1 --exclusive)",
		"cpu/cpu/whole-node+sized (-N1 --exclusive --mem=16000 --time=1)",
		"one/a4/one-task (-n1)",
		"one/a4/one-task+sized (-n1 --mem=17606 --time=1)",
		"one/a4/one-gpu (--gpus=1)",
		"one/a4/one-gpu+sized (--gpus=1 --mem-per-gpu=492974 --time=1)",
		"one/a4/all-gpus (-N1 --gpus=8)",
		"one/a4/all-gpus+sized (-N1 --gpus=8 --mem-per-gpu=492974 --time=1)",
		"one/a4/whole-node (-N1 --exclusive)",
		"one/a4/whole-node+sized (-N1 --exclusive --mem=3943792 --time=1)",
		"one/a4/max-time (-n1 --time=0)",
		"big/a4/two-nodes (-N2)",
		"big/a4/two-nodes+sized (-N2 --mem=17606 --time=1)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("shapes:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestJobArgs: each option of a Job, in its fixed order; a zero field is
// left out, a time of 0 is passed when set.
func TestJobArgs(t *testing.T) {
	j := Job{Tasks: 1, Nodes: 2, GPUs: 8, Exclusive: true, Mem: 10, MemPerGPU: 20, Time: 0, HasTime: true, Account: "a", QOS: "q"}
	if got, want := strings.Join(j.Args(), " "), "-n1 -N2 --gpus=8 --exclusive --mem=10 --mem-per-gpu=20 --time=0 -A a --qos=q"; got != want {
		t.Errorf("Args = %q, want %q", got, want)
	}
	if got := (Job{}).Args(); len(got) != 0 {
		t.Errorf("a zero Job passes %v", got)
	}
	if n := (Job{Tasks: 1}).NodeCount(); n != 1 {
		t.Errorf("NodeCount of -n1 = %d, want 1", n)
	}
	if n := (Job{Nodes: 2}).NodeCount(); n != 2 {
		t.Errorf("NodeCount of -N2 = %d, want 2", n)
	}
}

// TestWholeNodeSpecializedCPUs: a whole-node job gets the CPUs a node
// set's CPUSpecList or CoreSpecCount leaves (seen on 22.05, 24.11, 26.05),
// so its sized --mem stays within MaxMemPerCPU times those: 14 of the
// n2-standard-16's 16 CPUs × 3951 = 55314 MiB, not the node's 63216.
func TestWholeNodeSpecializedCPUs(t *testing.T) {
	for _, tc := range []struct{ name, nodeSet, want string }{
		{"CPUSpecList", `{CPUSpecList: "0,1"}`, "--mem=55314"},
		{"CPUSpecList range", `{CPUSpecList: "0-1,1"}`, "--mem=55314"},
		{"CoreSpecCount", `{CoreSpecCount: "2"}`, "--mem=55314"},
		{"none", `{MemSpecLimit: "0"}`, "--mem=63216"},
		{"own topology", `{CoreSpecCount: "2", CPUs: "16"}`, "--mem=63216"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := strings.Replace(spec, `config: {MaxMemPerCPU: "1000"}`, `config: {MaxMemPerCPU: "3951"}`, 1)
			s += "    nodeSets:\n    - {nodePoolId: cpu, config: " + tc.nodeSet + "}\n"
			c := pipelinetest.Compile(t, "mix.yaml", s)
			for _, sh := range Derive(c) {
				if sh.ID() == "cpu/cpu/whole-node+sized" {
					if got := strings.Join(sh.Args(), " "); !strings.Contains(got, tc.want+" ") {
						t.Errorf("%s: %s, want %s", sh.ID(), got, tc.want)
					}
					return
				}
			}
			t.Fatal("no cpu/cpu/whole-node+sized shape")
		})
	}
}
