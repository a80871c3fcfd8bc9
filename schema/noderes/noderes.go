// Package noderes is the one model of what a node of a pool offers jobs,
// as slurmctld reads the NodeName line render writes for it: its CPUs, the
// CPUs core specialization leaves to jobs, its GPUs and its memory. The
// lint rules about job shapes (lint/rules) and the standard job shapes
// (render/jobshapes), which may not import each other, both read it here.
package noderes

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Node is what one node of a pool offers jobs.
type Node struct {
	// CPUs is the nodeSets entry's CPUs, else the machine type's vCPUs.
	CPUs int64
	// Spec is the number of CPUs a CPUSpecList (else a CoreSpecCount)
	// keeps from jobs (SpecCPUs); a whole-node job gets the others.
	Spec int64
	// GPUs is the machine type's whole GPUs; 0 without GPUs or with a
	// fraction of one.
	GPUs int64
	// Memory is the node's RealMemory (the nodeSets entry's, else the
	// machine type's memory less the slurm-gcp reserve) less a
	// MemSpecLimit below it, in MiB.
	Memory int64
}

// Usable is the number of CPUs a whole-node job gets: CPUs less Spec.
func (n Node) Usable() int64 { return n.CPUs - n.Spec }

// Of returns what a node of the pool offers jobs: the machine type's
// facts with the overrides of the pool's nodeSets entry. It is the zero
// Node for a pool whose machine type is unknown.
func Of(c *ir.Cluster, pool *ir.NodePool) Node {
	if pool.Machine == nil {
		return Node{}
	}
	n := Node{CPUs: int64(pool.Machine.VCPUs), Memory: int64(pool.Machine.RealMemoryMiB())}
	if g, whole := pool.Machine.WholeGPUs(); pool.Machine.HasGPU() && whole {
		n.GPUs = int64(g)
	}
	ns := c.Slurm.NodeSetFor(pool.ID.Value)
	if ns == nil {
		return n
	}
	if v, ok := number(ns.Config, "CPUs"); ok && v > 0 {
		n.CPUs = v
	}
	if v, ok := number(ns.Config, "RealMemory"); ok && v > 0 {
		n.Memory = v
	}
	// slurmctld resets a MemSpecLimit at or above RealMemory to 0.
	if v, ok := number(ns.Config, "MemSpecLimit"); ok && v < n.Memory {
		n.Memory -= v
	}
	n.Spec = SpecCPUs(ns.Config, n.CPUs)
	return n
}

// SpecCPUs is the number of CPUs a node set's CPUSpecList or CoreSpecCount
// keeps from jobs on a node of cpus CPUs whose line has no topology of
// its own (CPUs= only: Slurm then counts one core, one thread, per CPU,
// and a specialized CPU is a specialized core); 0 when there is none, when
// the topology makes it other than one CPU a core, or when slurmctld
// rejects the list or the count. A whole-node job gets the others (seen on
// 22.05, 24.11 and 26.05: lab/jobmix TestFalseNegativeClasses).
// CPUSpecList wins: slurmctld resets a CoreSpecCount given with it to 0.
func SpecCPUs(kvs []ir.KV, cpus int64) int64 {
	list, count := lookup(kvs, "CPUSpecList"), lookup(kvs, "CoreSpecCount")
	if list == nil && count == nil {
		return 0
	}
	for _, k := range []string{"Boards", "CoresPerSocket", "ThreadsPerCore", "Sockets", "SocketsPerBoard", "CPUs", "Procs"} {
		if lookup(kvs, k) != nil {
			return 0
		}
	}
	if list != nil {
		n, problem := CPUSpecList(list.Value.Value, int(min(cpus, math.MaxInt32)))
		if problem != "" || n >= cpus {
			return 0
		}
		return n
	}
	if v, ok := number(kvs, "CoreSpecCount"); ok && v > 0 && v < cpus {
		return v
	}
	return 0 // core-spec-conflict reports a count that leaves no CPU
}

// CPUSpecList reads a CPUSpecList for a node of cpus CPUs (0: not known):
// the number of distinct CPUs it names (0 when cpus is 0), or, when slurmd
// cannot bind them and disables core specialization, what is wrong
// (problem). Each item must be a CPU id or a range N-M with N <= M, as
// bit_unfmt reads it, and name a CPU of the node (fidelity seed 20261211:
// CPUSpecList=1-0, slurmd "Resource spec: unable to establish slurmd CPU
// affinity: Invalid argument").
func CPUSpecList(list string, cpus int) (n int64, problem string) {
	seen := map[int]bool{}
	for item := range strings.SplitSeq(list, ",") {
		lo, hi, isRange := strings.Cut(item, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		switch {
		case err1 != nil || err2 != nil || a < 0 || b < 0 || strings.HasPrefix(lo, "+") || strings.HasPrefix(hi, "+"):
			return 0, fmt.Sprintf("%q is not a CPU id or a range of them", item)
		case a > b:
			return 0, fmt.Sprintf("the range %q runs backwards", item)
		case cpus > 0 && b >= cpus:
			return 0, fmt.Sprintf("CPU %d is not one of the node's CPUs 0-%d", b, cpus-1)
		}
		for i := a; i <= b && i < cpus; i++ {
			seen[i] = true
		}
	}
	return int64(len(seen)), ""
}

// number reads an integer NodeName key of a config map as slurmctld does;
// ok is false when it is unset, unreadable or UNLIMITED.
func number(kvs []ir.KV, key string) (int64, bool) {
	kv := lookup(kvs, key)
	if kv == nil {
		return 0, false
	}
	p, ok := catalog.Default().Lookup(catalog.ScopeNode, key)
	if !ok {
		return 0, false
	}
	return catalog.FiniteNumber(p, kv.Value.Value)
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
