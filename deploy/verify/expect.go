package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// maxNodes bounds the node names a rendered slurm.conf may expand to.
const maxNodes = 1 << 20

// node is a rendered node: its NodeName line's resources and the pool it
// belongs to (nil when no pool's names match).
type node struct {
	name       string
	cpus       int
	realMemory int64 // MiB
	gpus       int64
	pool       *ir.NodePool
}

// partition is a rendered PartitionName line.
type partition struct {
	name  string
	spec  *ir.Partition // nil for a partition the spec does not name
	line  slurmconf.Line
	nodes []string // expanded, in natural order
}

// expected is what the spec renders, read back from its slurm.conf.
type expected struct {
	nodes      map[string]*node
	partitions []*partition
}

// readExpected reads the rendered slurm.conf of c.
func readExpected(c *ir.Cluster, conf []byte) (*expected, error) {
	f, err := slurmconf.Parse(conf)
	if err != nil {
		return nil, fmt.Errorf("reading the rendered slurm.conf: %w", err)
	}
	budget := hostlist.NewBudget(maxNodes)
	e := &expected{nodes: map[string]*node{}}
	poolOf := poolsByNodeName(c)
	var all []string
	for _, l := range f.Nodes {
		if strings.EqualFold(l.Name(), "DEFAULT") {
			continue
		}
		names, err := hostlist.Expand(l.Name(), budget)
		if err != nil {
			return nil, fmt.Errorf("rendered NodeName=%s: %w", l.Name(), err)
		}
		n := node{}
		if v, ok := l.Get("CPUs"); ok {
			_, _ = fmt.Sscan(v, &n.cpus)
		}
		if v, ok := l.Get("RealMemory"); ok {
			_, _ = fmt.Sscan(v, &n.realMemory)
		}
		if v, ok := l.Get("Gres"); ok {
			gres, err := slurmconf.ParseGres(v)
			if err != nil {
				return nil, fmt.Errorf("rendered NodeName=%s Gres=%s: %w", l.Name(), v, err)
			}
			for _, g := range gres {
				if g.Name == "gpu" {
					n.gpus += g.Count
				}
			}
		}
		for _, name := range names {
			nn := n
			nn.name, nn.pool = name, poolOf[name]
			e.nodes[name] = &nn
			all = append(all, name)
		}
	}
	sets := map[string][]string{}
	for _, l := range f.NodeSets {
		v, _ := l.Get("Nodes")
		names, err := hostlist.Expand(v, budget)
		if err != nil {
			return nil, fmt.Errorf("rendered NodeSet=%s: %w", l.Name(), err)
		}
		sets[l.Name()] = names
	}
	specOf := map[string]*ir.Partition{}
	for _, p := range c.Slurm.Partitions {
		specOf[p.ID.Value] = p
	}
	for _, l := range f.Partitions {
		if strings.EqualFold(l.Name(), "DEFAULT") {
			continue
		}
		p := &partition{name: l.Name(), spec: specOf[l.Name()], line: l}
		v, _ := l.Get("Nodes")
		for item := range strings.SplitSeq(v, ",") {
			switch {
			case item == "":
			case strings.EqualFold(item, "ALL"):
				p.nodes = append(p.nodes, all...)
			case sets[item] != nil:
				p.nodes = append(p.nodes, sets[item]...)
			default:
				names, err := hostlist.Expand(item, budget)
				if err != nil {
					return nil, fmt.Errorf("rendered PartitionName=%s Nodes=%s: %w", l.Name(), v, err)
				}
				p.nodes = append(p.nodes, names...)
			}
		}
		slices.SortFunc(p.nodes, func(a, b string) int {
			if hostlist.Less(a, b) {
				return -1
			}
			if hostlist.Less(b, a) {
				return 1
			}
			return 0
		})
		p.nodes = slices.Compact(p.nodes)
		e.partitions = append(e.partitions, p)
	}
	return e, nil
}

// poolsByNodeName maps every node name a pool can have to its pool.
func poolsByNodeName(c *ir.Cluster) map[string]*ir.NodePool {
	out := map[string]*ir.NodePool{}
	for _, p := range c.NodePools {
		for i := int64(0); i < p.MaxNodeCount.Value && i < maxNodes; i++ {
			out[managed.NodeName(c.ID.Value, p.ID.Value, i)] = p
		}
	}
	return out
}

// slurmconfCount reads a GRES count as slurm.conf writes it.
func slurmconfCount(s string) (int64, bool) { return slurmconf.GresCount(s) }
