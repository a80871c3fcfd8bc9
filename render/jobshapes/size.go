package jobshapes

import (
	"math"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// nodeSize is what one node of a pool offers a partition's jobs, as the
// rendered NodeName line says, and the partition's memory caps.
type nodeSize struct {
	cpus int64
	// usable is cpus less those a node set's CoreSpecCount or CPUSpecList
	// keeps for the system: a whole-node job gets these.
	usable int64
	gpus   int64
	// mem is RealMemory less a MemSpecLimit below it, in MiB.
	mem int64
	// maxPerNode and maxPerCPU are MaxMemPerNode and MaxMemPerCPU (the
	// partition's, else the cluster's); 0 when unset or UNLIMITED.
	maxPerNode, maxPerCPU int64
}

// node returns a pool's node size in a partition: the machine type's
// vCPUs, GPUs and RealMemory (the slurm-gcp reserve taken off), the
// nodeSets entry's CPUs and RealMemory where given, less its MemSpecLimit.
func node(c *ir.Cluster, part *ir.Partition, pool *ir.NodePool) nodeSize {
	n := nodeSize{cpus: int64(pool.Machine.VCPUs), mem: int64(pool.Machine.RealMemoryMiB())}
	if g, whole := pool.Machine.WholeGPUs(); pool.Machine.HasGPU() && whole {
		n.gpus = int64(g)
	}
	ns := c.Slurm.NodeSetFor(pool.ID.Value)
	if ns != nil {
		if v, ok := number(catalog.ScopeNode, ns.Config, "CPUs"); ok && v > 0 {
			n.cpus = v
		}
		if v, ok := number(catalog.ScopeNode, ns.Config, "RealMemory"); ok && v > 0 {
			n.mem = v
		}
		// slurmctld resets a MemSpecLimit at or above RealMemory to 0.
		if v, ok := number(catalog.ScopeNode, ns.Config, "MemSpecLimit"); ok && v < n.mem {
			n.mem -= v
		}
	}
	n.usable = n.cpus
	if ns != nil {
		n.usable -= specialized(ns.Config, n.cpus)
	}
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
	m := n.mem * k / max(n.cpus, 1)
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
	m := n.mem
	if n.maxPerNode > 0 {
		m = min(m, n.maxPerNode)
	}
	if k := max(n.usable, 1); n.maxPerCPU > 0 && n.maxPerCPU <= math.MaxInt64/k {
		m = min(m, n.maxPerCPU*k)
	}
	return max(m, 1)
}

// specialized is the number of CPUs a node set's CPUSpecList (else its
// CoreSpecCount) keeps from jobs on a node of cpus CPUs rendered with CPUs=
// only, where each CPU is a core (lint/rules specCPUs makes the same
// count); 0 with a topology of the node set's own, or a list or count
// slurmctld rejects.
func specialized(kvs []ir.KV, cpus int64) int64 {
	for _, k := range []string{"Boards", "CoresPerSocket", "ThreadsPerCore", "Sockets", "SocketsPerBoard", "CPUs", "Procs"} {
		if lookup(kvs, k) != nil {
			return 0
		}
	}
	if kv := lookup(kvs, "CPUSpecList"); kv != nil {
		seen := map[int64]bool{}
		for item := range strings.SplitSeq(kv.Value.Value, ",") {
			lo, hi, isRange := strings.Cut(item, "-")
			if !isRange {
				hi = lo
			}
			a, err1 := strconv.ParseInt(lo, 10, 64)
			b, err2 := strconv.ParseInt(hi, 10, 64)
			if err1 != nil || err2 != nil || a < 0 || a > b || b >= cpus {
				return 0
			}
			for i := a; i <= b; i++ {
				seen[i] = true
			}
		}
		if int64(len(seen)) >= cpus {
			return 0
		}
		return int64(len(seen))
	}
	if v, ok := number(catalog.ScopeNode, kvs, "CoreSpecCount"); ok && v > 0 && v < cpus {
		return v
	}
	return 0
}

// sizedGPUMem is the memory per GPU (--mem-per-gpu, MiB) a sized GPU job
// asks for: the node's memory per GPU, within the partition's caps
// (MaxMemPerNode; MaxMemPerCPU times the node's CPUs per GPU, since Slurm
// gives a job more CPUs to keep its memory per CPU within MaxMemPerCPU),
// at least 1.
func (n nodeSize) sizedGPUMem() int64 {
	g := max(n.gpus, 1)
	m := n.mem / g
	if n.maxPerNode > 0 {
		m = min(m, n.maxPerNode/g)
	}
	if k := max(n.usable, 1); n.maxPerCPU > 0 && n.maxPerCPU <= math.MaxInt64/k {
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
	v, ok := catalog.ParseNumber(p, kv.Value.Value)
	if !ok || v >= math.MaxUint32 && p.Kind == catalog.KindUint32 || v >= math.MaxUint16 && p.Kind == catalog.KindUint16 || v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
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
