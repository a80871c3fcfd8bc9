package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lab/fidelity"
	"github.com/slurmspec/slurmspec/lab/jobmix"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// shapeSpecs are specs whose partitions vary what decides the job mix:
// a partition over two pools (one of them GPUs), a pool of one node,
// MaxNodes=1, MinNodes=2, MaxTime (0 included), access (AllowAccounts,
// AllowQos), memory caps and a node set's RealMemory.
var shapeSpecs = map[string]string{
	"mixed.yaml": specgen.Small{
		Project: "acme-ml", Name: "mix",
		Pools: []specgen.Pool{
			specgen.A4Pool("a4", 0, 3),
			{ID: "cpu", MachineType: "n2-standard-16", Min: 0, Max: 4},
			{ID: "one", MachineType: "n2-standard-8", Min: 0, Max: 1},
		},
		DefaultPartition: "all",
		Partitions: []string{
			`{id: all, nodePoolIds: [cpu, a4], config: {MaxTime: "90", MaxMemPerNode: "100000", AllowQos: "ALL,high"}}`,
			`{id: small, nodePoolIds: [one, cpu], config: {MaxNodes: "1", AllowAccounts: "research,ops"}}`,
			`{id: big, nodePoolIds: [cpu], config: {MinNodes: "2", MaxTime: "0"}}`,
		},
		NodeSets: []string{`{nodePoolId: cpu, config: {RealMemory: "32000", MemSpecLimit: "1000"}}`},
	}.YAML(),
}

// TestSameShapesAsOracle: verify submits to the live cluster exactly the
// job shapes lab/jobmix runs against lint, for the A4 example, the specs
// above and a sample of the workload generator's: the same ids in the same
// order, each job description what the oracle's sbatch options ask for,
// and none excludes the nodes the oracle pins the shape to.
func TestSameShapesAsOracle(t *testing.T) {
	specs := map[string][]byte{}
	for name, s := range shapeSpecs {
		specs[name] = []byte(s)
	}
	a4, err := os.ReadFile("../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	specs["a4-training.yaml"] = a4
	for _, w := range fidelity.GenerateWorkload(26, 40) {
		specs[fmt.Sprintf("workload-%d.yaml", w.Index)] = w.Spec()
	}
	p, err := pipeline.New(pipeline.Options{SlurmVersion: "24.11"})
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for name, data := range specs {
		res, err := p.Analyse(pipeline.Bytes(name, data), pipeline.AnalyseOptions{})
		if err != nil || res.Cluster == nil {
			t.Errorf("%s does not compile: %v %v", name, err, res.Diags)
			continue
		}
		c := res.Cluster
		conf, nodes := renderedNodes(t, c)
		if conf == nil {
			continue // render refuses it (an unknown machine type): neither runs it
		}
		e, err := readExpected(c, conf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		oracle := jobmix.Derive(c, nodes)
		live := jobs(c, e)
		var ids, liveIDs []string
		for _, s := range oracle {
			ids = append(ids, s.ID())
		}
		for _, j := range live {
			liveIDs = append(liveIDs, j.shape.ID())
		}
		if !slices.Equal(ids, liveIDs) {
			t.Errorf("%s: verify's shapes\n  %s\nthe oracle's\n  %s", name, strings.Join(liveIDs, "\n  "), strings.Join(ids, "\n  "))
			continue
		}
		if len(ids) == 0 {
			t.Errorf("%s: no shape", name)
		}
		for i, s := range oracle {
			got := live[i].spec
			excluded := got.ExcludedNodes
			got.ExcludedNodes = nil
			if want := fromSbatch(t, s.Partition, s.Args()); !equalSpec(got, want) {
				t.Errorf("%s: %s: verify submits %+v, the oracle's options (%s) ask for %+v", name, s.ID(), got, strings.Join(s.Args(), " "), want)
			}
			for _, n := range s.Nodes {
				if expandsTo(t, excluded, n) {
					t.Errorf("%s: %s: verify excludes %s, where the oracle runs it", name, s.ID(), n)
				}
			}
			for _, n := range partitionNodes(e, s.Partition) {
				if other := !slices.Contains(nodes[s.Pool], n); other != expandsTo(t, excluded, n) {
					t.Errorf("%s: %s: node %s of partition %s is excluded: %v, want %v (the pool's nodes only may run it)", name, s.ID(), n, s.Partition, !other, other)
				}
			}
			compared++
		}
	}
	if compared < 200 {
		t.Errorf("compared %d shapes, want at least 200", compared)
	}
}

// partitionNodes returns the rendered nodes of a partition.
func partitionNodes(e *expected, name string) []string {
	for _, p := range e.partitions {
		if p.name == name {
			return p.nodes
		}
	}
	return nil
}

// renderedNodes renders c for 24.11 and returns its slurm.conf and each
// pool's node names as the oracle reads them (localslurm.NodeGroups); nil
// when render refuses the spec.
func renderedNodes(t *testing.T, c *ir.Cluster) ([]byte, map[string][]string) {
	t.Helper()
	set, err := artifacts.Rendered(c, "24.11")
	if err != nil {
		return nil, nil
	}
	dir := t.TempDir()
	var conf []byte
	for _, a := range set {
		if a.Path == "slurm.conf" {
			conf = a.Data
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), conf, 0o644); err != nil {
		t.Fatal(err)
	}
	groups, err := localslurm.NodeGroups(dir)
	if err != nil {
		t.Fatal(err)
	}
	return conf, jobmix.PoolNodes(groups)
}

// fromSbatch is the job description sbatch makes of the options (the
// v0.0.42 fields a JobSpec fills), read here independently of
// render/jobshapes.
func fromSbatch(t *testing.T, partition string, args []string) slurmapi.JobSpec {
	t.Helper()
	s := slurmapi.JobSpec{Name: "slurmspec-verify", Partition: partition, Script: "#!/bin/sh\ntrue\n"}
	num := func(v string) int64 {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("option value %q: %v", v, err)
		}
		return n
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		opt, val, _ := strings.Cut(a, "=")
		switch {
		case strings.HasPrefix(a, "-n"):
			s.Tasks = int(num(a[2:]))
		case strings.HasPrefix(a, "-N"):
			s.Nodes = int(num(a[2:]))
		case a == "-A":
			i++
			s.Account = args[i]
		case opt == "--gpus":
			s.GPUs = int(num(val))
		case a == "--exclusive":
			s.Exclusive = true
		case opt == "--mem":
			s.MemoryPerNode = num(val)
		case opt == "--mem-per-gpu":
			s.MemoryPerGPU = num(val)
		case opt == "--time":
			s.TimeLimit = slurmapi.Number{Set: true, Number: num(val)}
		case opt == "--qos":
			s.QOS = val
		default:
			t.Fatalf("sbatch option %q: add it to fromSbatch", a)
		}
	}
	return s
}

func equalSpec(a, b slurmapi.JobSpec) bool {
	return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b)
}

// expandsTo reports whether a list of host list items names node.
func expandsTo(t *testing.T, items []string, node string) bool {
	t.Helper()
	for _, item := range items {
		names, err := hostlist.Expand(item, nil)
		if err != nil {
			t.Fatalf("excluded %q: %v", item, err)
		}
		if slices.Contains(names, node) {
			return true
		}
	}
	return false
}
