// Package jobshapes is the one derivation of the standard job shapes of a
// spec's partitions (issue 26): which shapes each partition gets on each
// of its pools, their sizes and their job options. lab/jobmix submits them
// on a local Slurm (the job-level oracle that checks lint); deploy/verify
// submits the same shapes to the deployed cluster through the Slurm REST
// API, so that a user's live check asks the questions the oracle asked.
// Where a job runs (which nodes) is each consumer's matter.
package jobshapes

import (
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/ir"
)

// Kind is a standard job shape, before its sizes.
type Kind string

// The kinds of shape.
const (
	// OneTask is one task on one CPU (-n1).
	OneTask Kind = "one-task"
	// OneGPU is one GPU (--gpus=1), on GPU pools.
	OneGPU Kind = "one-gpu"
	// AllGPUs is every GPU of one node (-N1 --gpus=G), on GPU pools.
	AllGPUs Kind = "all-gpus"
	// WholeNode is one node, exclusively (-N1 --exclusive).
	WholeNode Kind = "whole-node"
	// TwoNodes is a job of two nodes (-N2), where the pool has two and the
	// partition's MaxNodes allows two.
	TwoNodes Kind = "two-nodes"
	// MaxTime is one task asking for the partition's MaxTime (--time), where
	// the partition sets one.
	MaxTime Kind = "max-time"
)

// Kinds lists every kind, in the order Derive makes them.
func Kinds() []Kind { return []Kind{OneTask, OneGPU, AllGPUs, WholeNode, TwoNodes, MaxTime} }

// Job is what a shape's job asks for, option by option as sbatch takes
// them; a zero field is an option not passed (the partition's default).
type Job struct {
	// Tasks is -n.
	Tasks int64
	// Nodes is -N.
	Nodes int64
	// GPUs is --gpus, the GPUs of the whole job.
	GPUs int64
	// Exclusive is --exclusive.
	Exclusive bool
	// Mem is --mem, MiB per node.
	Mem int64
	// MemPerGPU is --mem-per-gpu, MiB.
	MemPerGPU int64
	// Time is --time in minutes, passed when HasTime is set (0 is a limit
	// of its own).
	Time    int64
	HasTime bool
	// Account is -A, QOS --qos: a user of the partition's access.
	Account, QOS string
}

// Args returns the job's sbatch options, in a fixed order: -n, -N,
// --gpus, --exclusive, --mem, --mem-per-gpu, --time, -A, --qos.
func (j Job) Args() []string {
	var out []string
	num := func(opt string, v int64) {
		if v > 0 {
			out = append(out, opt+strconv.FormatInt(v, 10))
		}
	}
	num("-n", j.Tasks)
	num("-N", j.Nodes)
	num("--gpus=", j.GPUs)
	if j.Exclusive {
		out = append(out, "--exclusive")
	}
	num("--mem=", j.Mem)
	num("--mem-per-gpu=", j.MemPerGPU)
	if j.HasTime {
		out = append(out, "--time="+strconv.FormatInt(j.Time, 10))
	}
	if j.Account != "" {
		out = append(out, "-A", j.Account)
	}
	if j.QOS != "" {
		out = append(out, "--qos="+j.QOS)
	}
	return out
}

// NodeCount is how many nodes the job needs: -N, else one.
func (j Job) NodeCount() int { return int(max(j.Nodes, 1)) }

// Shape is one job of the mix: a kind in a partition, on one pool's
// nodes, with the defaults or with explicit sizes.
type Shape struct {
	Partition string
	Pool      string
	// MachineType is the pool's machine type.
	MachineType string
	Kind        Kind
	// Sized is set when the job gives its memory and time (--mem or
	// --mem-per-gpu, --time); unset, it takes the partition's defaults.
	Sized bool
	Job   Job
}

// ID names a shape uniquely within a spec: partition/pool/kind, with
// "+sized" for the explicit-size variant.
func (s Shape) ID() string {
	id := s.Partition + "/" + s.Pool + "/" + string(s.Kind)
	if s.Sized {
		id += "+sized"
	}
	return id
}

// Args are the sbatch options that make the shape, without the partition,
// the nodes and the job's script.
func (s Shape) Args() []string { return s.Job.Args() }

// String is the ID and the sbatch options.
func (s Shape) String() string { return s.ID() + " (" + strings.Join(s.Args(), " ") + ")" }

// SizedMinutes is the time limit of a sized job: one minute fits every
// MaxTime but 0.
const SizedMinutes = 1

// Derive returns the standard shapes of every partition of a compiled
// spec, partition by partition, pool by pool in the partition's order:
// one task; one GPU and every GPU of one node (GPU pools); a whole node;
// two nodes where the pool has two (maxNodeCount) and the partition's
// MaxNodes allows two; each with the defaults and sized; one task at the
// partition's MaxTime where it sets one. A pool whose machine type the
// catalog lacks, with no node, or the login pool gets no shape; a
// partition gets no shape of fewer nodes than its MinNodes. Access
// options come from the partition: -A with its first AllowAccounts
// account, --qos with its first AllowQos QOS (ALL left out), as a site's
// user of the partition would submit.
func Derive(c *ir.Cluster) []Shape {
	var out []Shape
	for _, part := range c.Slurm.Partitions {
		account, qos := firstName(part, "AllowAccounts"), firstName(part, "AllowQos")
		maxNodes, limited := partNumber(part, "MaxNodes")
		// A MinNodes above 1 keeps smaller jobs out: the partition is for
		// larger ones (docs/fidelity.md, "What stops jobs, checked"), so
		// no shape of fewer nodes is made.
		minNodes, floored := partNumber(part, "MinNodes")
		maxTime, hasMax := partTime(part, "MaxTime")
		for _, ref := range part.NodePoolIDs {
			pool := c.Pool(ref.Value)
			if pool == nil || pool.Machine == nil || !pool.Machine.Known() || pool.MaxNodeCount.Value < 1 || pool.ID.Value == c.Slurm.LoginNodePoolID.Value {
				continue
			}
			n := node(c, part, pool)
			add := func(k Kind, sized bool, j Job) {
				if floored && int64(j.NodeCount()) < minNodes {
					return
				}
				j.Account, j.QOS = account, qos
				out = append(out, Shape{Partition: part.ID.Value, Pool: pool.ID.Value, MachineType: pool.Machine.Type, Kind: k, Sized: sized, Job: j})
			}
			memCPU := n.sizedMem(1)
			add(OneTask, false, Job{Tasks: 1})
			add(OneTask, true, Job{Tasks: 1, Mem: memCPU, Time: SizedMinutes, HasTime: true})
			if n.GPUs > 0 {
				perGPU := n.sizedGPUMem()
				add(OneGPU, false, Job{GPUs: 1})
				add(OneGPU, true, Job{GPUs: 1, MemPerGPU: perGPU, Time: SizedMinutes, HasTime: true})
				add(AllGPUs, false, Job{Nodes: 1, GPUs: n.GPUs})
				add(AllGPUs, true, Job{Nodes: 1, GPUs: n.GPUs, MemPerGPU: perGPU, Time: SizedMinutes, HasTime: true})
			}
			add(WholeNode, false, Job{Nodes: 1, Exclusive: true})
			add(WholeNode, true, Job{Nodes: 1, Exclusive: true, Mem: n.wholeMem(), Time: SizedMinutes, HasTime: true})
			if pool.MaxNodeCount.Value >= 2 && (!limited || maxNodes >= 2) {
				add(TwoNodes, false, Job{Nodes: 2})
				add(TwoNodes, true, Job{Nodes: 2, Mem: memCPU, Time: SizedMinutes, HasTime: true})
			}
			if hasMax {
				add(MaxTime, false, Job{Tasks: 1, Time: maxTime, HasTime: true})
			}
		}
	}
	return out
}
