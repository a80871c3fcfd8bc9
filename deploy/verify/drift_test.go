package verify

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// a4 returns the A4 example compiled and its rendered slurm.conf.
func a4(t *testing.T) (*pipeline.Result, *expected) {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{SlurmVersion: "24.11"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Analyse(pipeline.File("../../examples/a4-training.yaml", nil), pipeline.AnalyseOptions{})
	if err != nil || res.Cluster == nil {
		t.Fatalf("the example does not compile: %v", err)
	}
	set, err := artifacts.Rendered(res.Cluster, "24.11")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range set {
		if a.Path == "slurm.conf" {
			e, err := readExpected(res.Cluster, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			return res, e
		}
	}
	t.Fatal("no slurm.conf rendered")
	return nil, nil
}

func livePartition(name, nodes string, maxTime int64, tier int64) slurmapi.Partition {
	var p slurmapi.Partition
	p.Name = name
	p.Nodes.Configured = nodes
	p.Maximums.Time = slurmapi.Number{Set: true, Number: maxTime}
	p.Maximums.Nodes = slurmapi.Number{Infinite: true}
	p.Priority.Tier = tier
	p.Partition.State = []string{"UP"}
	return p
}

func liveNodes(names ...string) []slurmapi.Node {
	var out []slurmapi.Node
	for _, n := range names {
		out = append(out, slurmapi.Node{Name: n, CPUs: 224, RealMemory: 3943792, Gres: "gpu:b200:8(S:0-1)"})
	}
	return out
}

// TestDrift: the rendered cluster read back from slurm.conf, and each kind
// of difference with the live one, at the spec's positions.
func TestDrift(t *testing.T) {
	res, e := a4(t)
	if n := len(e.nodes); n != 4 || e.nodes["train-a4-3"].gpus != 8 || e.nodes["train-a4-3"].pool.ID.Value != "a4" {
		t.Fatalf("rendered nodes %d, train-a4-3 %+v; want 4 a4 nodes of 8 GPUs", n, e.nodes["train-a4-3"])
	}
	if len(e.partitions) != 2 || strings.Join(e.partitions[1].nodes, ",") != "train-a4-0,train-a4-1,train-a4-2,train-a4-3" {
		t.Fatalf("rendered partitions %+v", e.partitions)
	}
	clean := []slurmapi.Partition{livePartition("train", "train-a4-[0-3]", 10080, 10), livePartition("preempt", "train-a4-[0-3]", 2880, 1)}
	if d := drift(res.Cluster, e, clean, liveNodes("train-a4-0", "train-a4-1", "train-a4-2", "train-a4-3")); len(d) != 0 {
		t.Errorf("as rendered: %v", d)
	}

	down := livePartition("preempt", "train-a4-[0-2]", 2880, 1)
	down.Partition.State = []string{"DOWN"}
	nodes := liveNodes("train-a4-0", "train-a4-1", "train-a4-2")
	nodes[1].CPUs, nodes[2].CPUs = 112, 112
	nodes[0].Gres = "gpu:b200:4"
	got := drift(res.Cluster, e, []slurmapi.Partition{livePartition("debug", "train-a4-0", 60, 1), down}, nodes)
	var lines []string
	for _, d := range got.Sort() {
		lines = append(lines, d.Pos.String()+" "+d.Path+" "+d.Severity.String()+": "+d.Message+" ["+d.Rule+"]")
	}
	want := []string{
		"../../examples/a4-training.yaml:17:20 nodePools[0].machineSpec.machineType error: nodes train-a4-0 of pool a4 have GPUs=4 on the live cluster, the spec renders 8 [verify-node-drift]",
		"../../examples/a4-training.yaml:17:20 nodePools[0].machineSpec.machineType error: nodes train-a4-3 of pool a4 are not on the live cluster [verify-node-drift]",
		"../../examples/a4-training.yaml:17:20 nodePools[0].machineSpec.machineType error: nodes train-a4-[1-2] of pool a4 have CPUs=112 on the live cluster, the spec renders 224 [verify-node-drift]",
		"../../examples/a4-training.yaml:44:5 orchestratorSpec.slurmSpec warning: the live cluster has partition debug, which the spec does not render [verify-partition-unexpected]",
		"../../examples/a4-training.yaml:48:13 orchestratorSpec.slurmSpec.partitions[0].id error: partition train is not on the live cluster, or the caller's Linux account may not see it [verify-partition-missing]",
		"../../examples/a4-training.yaml:57:13 orchestratorSpec.slurmSpec.partitions[1].id warning: partition preempt has 3 nodes on the live cluster, the spec renders 4: it lacks train-a4-3 [verify-partition-drift]",
		"../../examples/a4-training.yaml:57:13 orchestratorSpec.slurmSpec.partitions[1].id error: partition preempt is DOWN on the live cluster, the spec renders it UP: it takes or starts no jobs [verify-partition-drift]",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
