package jobmix

import (
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/render/jobshapes"
)

// Kind is a standard job shape, before its sizes: render/jobshapes' kinds,
// named here for the predictors' table.
type Kind = jobshapes.Kind

// The kinds of shape (jobshapes').
const (
	OneTask   = jobshapes.OneTask
	OneGPU    = jobshapes.OneGPU
	AllGPUs   = jobshapes.AllGPUs
	WholeNode = jobshapes.WholeNode
	TwoNodes  = jobshapes.TwoNodes
	MaxTime   = jobshapes.MaxTime
)

// Kinds lists every kind, in the order Derive makes them.
func Kinds() []Kind { return jobshapes.Kinds() }

// Shape is one job to submit: a shape of render/jobshapes pinned to nodes.
type Shape struct {
	jobshapes.Shape
	// Nodes are the nodes the job is pinned to (-w): one of the pool's
	// first two (in turn, so that the runner can judge two at once), or
	// the first two for TwoNodes. The runner needs a stand-in slurmd for
	// each.
	Nodes []string
}

// Derive returns the standard shapes of every partition of a compiled spec
// (jobshapes.Derive), each pinned to nodes of its pool. nodes gives each
// compute pool's rendered node names in order (localslurm.NodeGroups: one
// NodeSet per pool, named by its id); a shape whose pool has fewer names
// than the shape needs nodes is left out (the rendered slurm.conf has
// every pool's maxNodeCount names, so none is).
func Derive(c *ir.Cluster, nodes map[string][]string) []Shape {
	var out []Shape
	turn := map[[2]string]int{} // one-node shapes take the pool's first two nodes in turn
	for _, s := range jobshapes.Derive(c) {
		names := nodes[s.Pool]
		k := s.Job.NodeCount()
		if len(names) < k {
			continue
		}
		p := Shape{Shape: s, Nodes: names[:k]}
		if k == 1 {
			key := [2]string{s.Partition, s.Pool}
			p.Nodes = []string{names[turn[key]%min(len(names), 2)]}
			turn[key]++
		}
		out = append(out, p)
	}
	return out
}
