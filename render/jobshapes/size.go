package jobshapes

import (
	"math"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/schema/catalog"
	"github.com/slurmspec/slurmspec/schema/noderes"
)

// nodeSize is what one node of a pool offers a partition's jobs
// (noderes.Node) and the partition's memory caps.
type nodeSize struct {
	noderes.Node
	// maxPerNode and maxPerCPU are MaxMemPerNode and MaxMemPerCPU (the
	// partition's, else the cluster's); 0 when unset or UNLIMITED.
	maxPerNode, maxPerCPU int64
}

// node returns a pool's node size in a partition: what a node offers
// jobs (noderes.Of) and the partition's memory caps.
func node(c *ir.Cluster, part *ir.Partition, pool *ir.NodePool) nodeSize {
	n := nodeSize{Node: noderes.Of(c, pool)}
	cap := func(key string) int64 {
		if v, ok := number(catalog.ScopePartition, part.Config, key); ok {
			return v
		}
		if v, ok := number(catalog.ScopeGlobal, c.Slurm.Config, key); ok {
			return v
		}
		return 0
	}
	n.maxPerNode, n.maxPerCPU = cap("MaxMemPerNode"), cap("MaxMemPerCPU")
	return n
}

// sizedMem is the memory (--mem, MiB) a sized job of k CPUs asks for: its
// share of the node's memory, within the partition's caps, at least 1.
func (n nodeSize) sizedMem(k int64) int64 {
	m := n.Memory * k / max(n.CPUs, 1)
	if n.maxPerNode > 0 {
		m = min(m, n.maxPerNode)
	}
	if n.maxPerCPU > 0 && n.maxPerCPU <= math.MaxInt64/k {
		m = min(m, n.maxPerCPU*k)
	}
	return max(m, 1)
}

// wholeMem is the memory (--mem, MiB) a sized whole-node job asks for:
// the node's memory, within MaxMemPerNode and MaxMemPerCPU times the CPUs
// the job gets (the usable ones), at least 1.
func (n nodeSize) wholeMem() int64 {
	m := n.Memory
	if n.maxPerNode > 0 {
		m = min(m, n.maxPerNode)
	}
	if k := max(n.Usable(), 1); n.maxPerCPU > 0 && n.maxPerCPU <= math.MaxInt64/k {
		m = min(m, n.maxPerCPU*k)
	}
	return max(m, 1)
}

// sizedGPUMem is the memory per GPU (--mem-per-gpu, MiB) a sized GPU job
// asks for: the node's memory per GPU, within the partition's caps
// (MaxMemPerNode; MaxMemPerCPU times the node's CPUs per GPU, since Slurm
// gives a job more CPUs to keep its memory per CPU within MaxMemPerCPU),
// at least 1.
func (n nodeSize) sizedGPUMem() int64 {
	g := max(n.GPUs, 1)
	m := n.Memory / g
	if n.maxPerNode > 0 {
		m = min(m, n.maxPerNode/g)
	}
	if k := max(n.Usable(), 1); n.maxPerCPU > 0 && n.maxPerCPU <= math.MaxInt64/k {
		m = min(m, n.maxPerCPU*k/g)
	}
	return max(m, 1)
}

// number reads an integer key of a config map as Slurm does; ok is false
// when it is unset, unreadable or UNLIMITED.
func number(scope catalog.Scope, kvs []ir.KV, key string) (int64, bool) {
	kv := lookup(kvs, key)
	if kv == nil {
		return 0, false
	}
	p, ok := catalog.Default().Lookup(scope, key)
	if !ok {
		return 0, false
	}
	return catalog.FiniteNumber(p, kv.Value.Value)
}

// Names returns the names of a partition's list-valued key (AllowAccounts,
// AllowQos, DenyAccounts, QOS...), ALL left out.
func Names(part *ir.Partition, key string) []string {
	kv := lookup(part.Config, key)
	if kv == nil {
		return nil
	}
	var out []string
	for n := range strings.SplitSeq(kv.Value.Value, ",") {
		if n = strings.TrimSpace(n); n != "" && !strings.EqualFold(n, "ALL") {
			out = append(out, n)
		}
	}
	return out
}

// firstName returns the first name of a partition's list-valued key other
// than ALL, or "".
func firstName(part *ir.Partition, key string) string {
	for _, n := range Names(part, key) {
		return n
	}
	return ""
}

// lookup finds a key in a config map, ignoring case as Slurm does.
func lookup(kvs []ir.KV, key string) *ir.KV {
	for i := range kvs {
		if strings.EqualFold(kvs[i].Key.Value, key) {
			return &kvs[i]
		}
	}
	return nil
}

// partNumber reads a partition's integer key as Slurm does; limited is
// false when it is unset or UNLIMITED.
func partNumber(part *ir.Partition, key string) (n int64, limited bool) {
	return number(catalog.ScopePartition, part.Config, key)
}

// partTime reads a partition's time key in minutes; ok is false when it is
// unset, unreadable or UNLIMITED.
func partTime(part *ir.Partition, key string) (minutes int64, ok bool) {
	kv := lookup(part.Config, key)
	if kv == nil {
		return 0, false
	}
	v := strings.ToUpper(strings.TrimSpace(kv.Value.Value))
	if v == "UNLIMITED" || v == "INFINITE" {
		return 0, false
	}
	return catalog.ParseTime(kv.Value.Value)
}
