package specgen

import (
	"fmt"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// TestSmallLintsClean: a Small spec with every field set compiles and
// lints without an error on every release, and the cluster has what it
// was given: the pools in order with the login pool last, the A4 pool's
// SPOT model, the default partition, the partitions, the node set and the
// global config.
func TestSmallLintsClean(t *testing.T) {
	s := Small{
		Project: "acme-ml", Name: "mix",
		Pools:            []Pool{A4Pool("a4", 0, 2), {ID: "cpu", MachineType: "n2-standard-16", Min: 1, Max: 3}},
		DefaultPartition: "cpu",
		Partitions: []string{
			`{id: gpu, nodePoolIds: [a4], config: {MaxTime: "60"}}`,
			`{id: cpu, nodePoolIds: [cpu]}`,
		},
		NodeSets: []string{`{nodePoolId: cpu, config: {RealMemory: "32000"}}`},
		Config:   `{SchedulerParameters: bf_continue}`,
	}
	if a, b := s.YAML(), s.YAML(); a != b {
		t.Fatalf("not deterministic:\n%s\n%s", a, b)
	}
	for _, rel := range []string{"22.05", "24.11", "26.05"} {
		p, err := pipeline.New(pipeline.Options{SlurmVersion: rel})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Analyse(pipeline.Bytes("small.yaml", []byte(s.YAML())), pipeline.AnalyseOptions{})
		if err != nil || res.Cluster == nil {
			t.Fatalf("%s: %v %v\n%s", rel, err, res.Diags, s.YAML())
		}
		for _, d := range res.Diags {
			if d.Severity == diag.Error {
				t.Errorf("%s: %s", rel, d)
			}
		}
		c := res.Cluster
		var pools []string
		for _, p := range c.NodePools {
			pools = append(pools, p.ID.Value+" "+p.MachineType.Value)
		}
		if got, want := fmt.Sprint(pools), "[a4 a4-highgpu-8g cpu n2-standard-16 login n2-standard-8]"; got != want {
			t.Errorf("%s: pools %s, want %s", rel, got, want)
		}
		if got := c.Pool("a4").ProvisioningModel.Value; got != "SPOT" {
			t.Errorf("%s: the A4 pool's model is %q, want SPOT", rel, got)
		}
		if got := c.Slurm.DefaultPartitionID.Value; got != "cpu" {
			t.Errorf("%s: default partition %q, want cpu", rel, got)
		}
		if len(c.Slurm.Partitions) != 2 || c.Slurm.NodeSetFor("cpu") == nil || len(c.Slurm.Config) != 1 {
			t.Errorf("%s: %d partitions, node set of cpu %v, %d global keys; want 2, one, 1",
				rel, len(c.Slurm.Partitions), c.Slurm.NodeSetFor("cpu"), len(c.Slurm.Config))
		}
	}
}
