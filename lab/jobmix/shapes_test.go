package jobmix

import (
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/jobshapes"
)

// TestDerive: the shapes of runSpec, from its pools' machine types (an
// A4 of 8 GPUs, 224 vCPUs and 3943792 MiB; an n2-standard-16 of 16 vCPUs
// and 63216 MiB) and partitions (MaxTime on gpu, AllowAccounts on cpu;
// MinNodes=2 on cpu: only its two-node shapes).
func TestDerive(t *testing.T) {
	c, _ := analyse(t, "run.yaml", runSpec, "24.11")
	nodes := map[string][]string{"a4": {"mix-a4-0", "mix-a4-1"}, "cpu": {"mix-cpu-0", "mix-cpu-1"}}
	var got []string
	for _, s := range Derive(c, nodes) {
		got = append(got, s.ID()+" -w "+strings.Join(s.Nodes, ",")+" "+strings.Join(s.Args(), " "))
	}
	want := []string{
		"gpu/a4/one-task -w mix-a4-0 -n1",
		"gpu/a4/one-task+sized -w mix-a4-1 -n1 --mem=17606 --time=1",
		"gpu/a4/one-gpu -w mix-a4-0 --gpus=1",
		"gpu/a4/one-gpu+sized -w mix-a4-1 --gpus=1 --mem-per-gpu=492974 --time=1",
		"gpu/a4/all-gpus -w mix-a4-0 -N1 --gpus=8",
		"gpu/a4/all-gpus+sized -w mix-a4-1 -N1 --gpus=8 --mem-per-gpu=492974 --time=1",
		"gpu/a4/whole-node -w mix-a4-0 -N1 --exclusive",
		"gpu/a4/whole-node+sized -w mix-a4-1 -N1 --exclusive --mem=3943792 --time=1",
		"gpu/a4/two-nodes -w mix-a4-0,mix-a4-1 -N2",
		"gpu/a4/two-nodes+sized -w mix-a4-0,mix-a4-1 -N2 --mem=17606 --time=1",
		"gpu/a4/max-time -w mix-a4-0 -n1 --time=60",
		"cpu/cpu/two-nodes -w mix-cpu-0,mix-cpu-1 -N2 -A research",
		"cpu/cpu/two-nodes+sized -w mix-cpu-0,mix-cpu-1 -N2 --mem=3951 --time=1 -A research",
	}
	if !slices.Equal(got, want) {
		t.Errorf("shapes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := StandIns(Derive(c, nodes)); !slices.Equal(got, []string{"mix-a4-0", "mix-a4-1", "mix-cpu-0", "mix-cpu-1"}) {
		t.Errorf("StandIns = %v", got)
	}
}

// TestDeriveLimits: a partition's MaxNodes below two, or a pool of one
// node, leaves out the two-node shapes; MaxMemPerNode and MaxMemPerCPU cap
// the sized jobs' memory; a node set's RealMemory and MemSpecLimit set the
// node's memory.
func TestDeriveLimits(t *testing.T) {
	spec := strings.Replace(runSpec, `{DefMemPerGPU: "600000", MaxTime: "60"}`, `{MaxNodes: "1", MaxMemPerNode: "100000"}`, 1)
	spec = strings.Replace(spec, `{AllowAccounts: research, MinNodes: "2", DefMemPerCPU: "3000"}`, `{MaxMemPerCPU: "1000"}`, 1)
	spec = strings.Replace(spec, `nodePoolIds: [cpu]`, `nodePoolIds: [cpu, a4]`, 1)
	spec += "    nodeSets:\n    - {nodePoolId: cpu, config: {RealMemory: \"32000\", MemSpecLimit: \"16000\"}}\n"
	c, diags := analyse(t, "limits.yaml", spec, "24.11")
	if diags.HasErrors() {
		t.Fatalf("spec must compile without errors: %v", diags)
	}
	nodes := map[string][]string{"a4": {"mix-a4-0", "mix-a4-1"}, "cpu": {"mix-cpu-0"}}
	got := map[string]string{}
	for _, s := range Derive(c, nodes) {
		got[s.ID()] = strings.Join(s.Args(), " ")
	}
	for _, id := range []string{"gpu/a4/two-nodes", "cpu/cpu/two-nodes", "gpu/a4/max-time"} {
		if a, ok := got[id]; ok {
			t.Errorf("%s derived (%s), want none", id, a)
		}
	}
	for id, args := range map[string]string{
		"gpu/a4/whole-node+sized":  "-N1 --exclusive --mem=100000 --time=1",
		"gpu/a4/all-gpus+sized":    "-N1 --gpus=8 --mem-per-gpu=12500 --time=1",
		"cpu/cpu/one-task+sized":   "-n1 --mem=1000 --time=1",
		"cpu/cpu/whole-node+sized": "-N1 --exclusive --mem=16000 --time=1",
		// MaxMemPerCPU=1000 × 224 CPUs / 8 GPUs: a GPU job's memory
		// within what its CPUs may have.
		"cpu/a4/one-gpu+sized": "--gpus=1 --mem-per-gpu=28000 --time=1",
	} {
		if got[id] != args {
			t.Errorf("%s: %q, want %q", id, got[id], args)
		}
	}
}

// TestPredict: memory-default-unfit's warning that DefMemPerGPU × 8 is
// more than an A4 node has predicts the all-GPUs shape with the defaults
// fails, and nothing else; a finding of a rule not in the table predicts
// nothing.
func TestPredict(t *testing.T) {
	c, diags := analyse(t, "run.yaml", runSpec, "24.11")
	shapes := Derive(c, map[string][]string{"a4": {"mix-a4-0", "mix-a4-1"}, "cpu": {"mix-cpu-0", "mix-cpu-1"}})
	var ids []string
	for _, cl := range Predict(Predictors(), c, diags, shapes) {
		ids = append(ids, cl.ShapeID)
		if !strings.HasPrefix(cl.Finding, "memory-default-unfit: ") {
			t.Errorf("claim %s from %q, want memory-default-unfit's", cl.ShapeID, cl.Finding)
		}
	}
	if !slices.Equal(ids, []string{"gpu/a4/all-gpus"}) {
		t.Errorf("predicted %v, want [gpu/a4/all-gpus]", ids)
	}
	if got := Predict(map[string]Predictor{}, c, diags, shapes); len(got) != 0 {
		t.Errorf("an empty table predicts %v", got)
	}
}

// TestCompare: each class.
func TestCompare(t *testing.T) {
	s := func(k Kind) Shape { return Shape{Shape: jobshapes.Shape{Partition: "p", Pool: "q", Kind: k}} }
	vs := []Verdict{{Shape: s(OneTask), Outcome: Runs}, {Shape: s(OneGPU), Outcome: Refused}, {Shape: s(AllGPUs), Outcome: Pending},
		{Shape: s(WholeNode), Outcome: Runs}, {Shape: s(TwoNodes), Outcome: Undecided}}
	claims := []Claim{{ShapeID: "p/q/one-gpu", Finding: "r: one"}, {ShapeID: "p/q/whole-node", Finding: "r: whole"}}
	var got []Class
	for _, j := range Compare(vs, claims) {
		got = append(got, j.Class)
	}
	want := []Class{Agree, Agree, FalseNegative, FalsePositive, NotDecided}
	if !slices.Equal(got, want) {
		t.Errorf("classes %v, want %v", got, want)
	}
}

// TestRounds: shapes on disjoint nodes share a round; a shape joins the
// first round it does not overlap, in order.
func TestRounds(t *testing.T) {
	sh := func(nodes ...string) Shape { return Shape{Nodes: nodes} }
	got := rounds([]Shape{sh("a"), sh("b"), sh("a", "b"), sh("c"), sh("a"), sh("b", "c")})
	want := [][]int{{0, 1, 3}, {2}, {4, 5}}
	if len(got) != len(want) {
		t.Fatalf("rounds %v, want %v", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("rounds %v, want %v", got, want)
		}
	}
}

// TestPredictWithoutMem: memory-default-unfit's "no job without --mem
// fits" (DefMemPerNode above the node) predicts every shape that passes no
// --mem: the defaults, and the sized GPU shapes, whose --mem-per-gpu is not
// --mem (Slurm refuses them: "Memory specification can not be
// satisfied"); the sized shapes with --mem run.
func TestPredictWithoutMem(t *testing.T) {
	spec := strings.Replace(runSpec, `{DefMemPerGPU: "600000", MaxTime: "60"}`, `{DefMemPerNode: "4000000"}`, 1)
	c, diags := analyse(t, "nomem.yaml", spec, "24.11")
	shapes := Derive(c, map[string][]string{"a4": {"mix-a4-0", "mix-a4-1"}, "cpu": {"mix-cpu-0", "mix-cpu-1"}})
	var ids []string
	for _, cl := range Predict(Predictors(), c, diags, shapes) {
		ids = append(ids, cl.ShapeID)
	}
	want := []string{"gpu/a4/one-task", "gpu/a4/one-gpu", "gpu/a4/one-gpu+sized", "gpu/a4/all-gpus", "gpu/a4/all-gpus+sized",
		"gpu/a4/whole-node", "gpu/a4/two-nodes"}
	if !slices.Equal(ids, want) {
		t.Errorf("predicted %v, want %v", ids, want)
	}
}
