package jobmix

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/schema/catalog"
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

// Shape is one job to submit: a kind in a partition, on one pool's nodes,
// with the defaults or with explicit sizes.
type Shape struct {
	Partition string
	Pool      string
	// MachineType is the pool's machine type.
	MachineType string
	Kind        Kind
	// Sized is set when the job gives its memory and time (--mem or
	// --mem-per-gpu, --time); unset, it takes the partition's defaults.
	Sized bool
	// Nodes are the nodes the job is pinned to (-w): one of the pool's
	// first two (in turn, so that the runner can judge two at once), or
	// the first two for TwoNodes. The runner needs a stand-in slurmd for
	// each.
	Nodes []string
	// Args are the sbatch options that make the shape, without the
	// partition, the nodes and the job's script (Submit adds them).
	Args []string
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

// String is the ID and the sbatch options.
func (s Shape) String() string { return s.ID() + " (" + strings.Join(s.Args, " ") + ")" }

// sizedMinutes is the time limit of a sized job: one minute fits every
// MaxTime but 0.
const sizedMinutes = 1

// Derive returns the standard shapes of every partition of a compiled spec.
// nodes gives each compute pool's rendered node names in order
// (localslurm.NodeGroups: one NodeSet per pool, named by its id). A pool
// whose machine type the catalog lacks, or with no node, gets no shape;
// a partition gets no shape of fewer nodes than its MinNodes. Access options come from the partition: -A with its first AllowAccounts
// account, --qos with its first AllowQos QOS (ALL left out), as a site's
// user of the partition would submit.
func Derive(c *ir.Cluster, nodes map[string][]string) []Shape {
	var out []Shape
	for _, part := range c.Slurm.Partitions {
		access := accessArgs(part)
		maxNodes, limited := partNumber(part, "MaxNodes")
		// A MinNodes above 1 keeps smaller jobs out: the partition is for
		// larger ones (docs/fidelity.md, "What stops jobs, checked"), so
		// no shape of fewer nodes is made.
		minNodes, floored := partNumber(part, "MinNodes")
		one, two := !floored || minNodes <= 1, !floored || minNodes <= 2
		maxTime, hasMax := partTime(part, "MaxTime")
		for _, ref := range part.NodePoolIDs {
			pool := c.Pool(ref.Value)
			names := nodes[ref.Value]
			if pool == nil || pool.Machine == nil || !pool.Machine.Known() || len(names) == 0 || pool.ID.Value == c.Slurm.LoginNodePoolID.Value {
				continue
			}
			n := node(c, part, pool)
			base := Shape{Partition: part.ID.Value, Pool: pool.ID.Value, MachineType: pool.Machine.Type}
			single := 0 // one-node shapes take the pool's first two nodes in turn
			add := func(k Kind, sized bool, nodes []string, args ...string) {
				s := base
				s.Kind, s.Sized, s.Args = k, sized, append(args, access...)
				s.Nodes = nodes
				if nodes == nil {
					s.Nodes = []string{names[single%min(len(names), 2)]}
					single++
				}
				if len(s.Nodes) == 1 && !one || len(s.Nodes) == 2 && !two {
					return
				}
				out = append(out, s)
			}
			memCPU := fmt.Sprintf("--mem=%d", n.sizedMem(1))
			tm := fmt.Sprintf("--time=%d", sizedMinutes)
			add(OneTask, false, nil, "-n1")
			add(OneTask, true, nil, "-n1", memCPU, tm)
			if n.gpus > 0 {
				perGPU := fmt.Sprintf("--mem-per-gpu=%d", n.sizedGPUMem())
				add(OneGPU, false, nil, "--gpus=1")
				add(OneGPU, true, nil, "--gpus=1", perGPU, tm)
				g := fmt.Sprintf("--gpus=%d", n.gpus)
				add(AllGPUs, false, nil, "-N1", g)
				add(AllGPUs, true, nil, "-N1", g, perGPU, tm)
			}
			add(WholeNode, false, nil, "-N1", "--exclusive")
			add(WholeNode, true, nil, "-N1", "--exclusive", fmt.Sprintf("--mem=%d", n.sizedMem(n.cpus)), tm)
			if len(names) >= 2 && (!limited || maxNodes >= 2) {
				add(TwoNodes, false, names[:2], "-N2")
				add(TwoNodes, true, names[:2], "-N2", memCPU, tm)
			}
			if hasMax {
				add(MaxTime, false, nil, "-n1", "--time="+strconv.FormatInt(maxTime, 10))
			}
		}
	}
	return out
}

// accessArgs returns the -A and --qos options a user of the partition
// passes.
func accessArgs(part *ir.Partition) []string {
	var args []string
	if a := firstName(part, "AllowAccounts"); a != "" {
		args = append(args, "-A", a)
	}
	if q := firstName(part, "AllowQos"); q != "" {
		args = append(args, "--qos="+q)
	}
	return args
}

// firstName returns the first name of a partition's list-valued key other
// than ALL, or "".
func firstName(part *ir.Partition, key string) string {
	for _, n := range Names(part, key) {
		return n
	}
	return ""
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
