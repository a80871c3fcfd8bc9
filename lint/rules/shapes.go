package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
	"github.com/slurmspec/slurmspec/schema/noderes"
)

// Partition limits that make a standard job shape (issue 26: one task, one
// GPU, every GPU of one node, a whole node, two nodes) impossible, as seen
// on slurmctld 22.05, 24.11 and 26.05 with stand-in nodes presenting an
// a4-highgpu-8g (lab/localslurm/realslurm/shapes2_test.go). The limits
// that do not stop any shape are listed in docs/fidelity.md ("What stops
// jobs, checked").

// ShapeNodeLimits reports MaxNodes and MinNodes that admit no job.
var ShapeNodeLimits = &lint.Rule{
	ID:       "shape-node-limits",
	Severity: diag.Error,
	Summary:  "A partition's MaxNodes or MinNodes admits no job",
	Doc: doc("MaxNodes=0 admits no job: every job pends with reason PartitionConfig. MinNodes above MaxNodes, or "+
		"above the number of nodes the partition's pools can have (their maxNodeCount), admits none either: "+
		"slurmctld starts, and a job is refused at submit (\"Task count specification invalid\", \"Invalid generic "+
		"resource (gres) specification\") or pends with reason PartitionConfig (22.05, 24.11, 26.05). "+
		"A MinNodes the pools can meet is not reported: it only keeps smaller jobs out.",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MinNodes: \"8\"}}  # the pool has 4 nodes",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MinNodes: \"2\"}}"),
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
				continue
			}
			maxKV, maxN, maxOK := partUint(part, "MaxNodes")
			minKV, minN, minOK := partUint(part, "MinNodes")
			nodes, known := partitionNodeCount(p.Cluster, part)
			switch {
			case maxOK && maxN == 0:
				reportValue(p, maxKV, "remove MaxNodes (no limit), or set it to 1 or more",
					"partition %q: MaxNodes=0 admits no job: every job pends with reason PartitionConfig", part.ID.Value)
			case maxOK && minOK && minN > maxN:
				reportValue(p, minKV, fmt.Sprintf("set MinNodes to at most MaxNodes (%d)", maxN),
					"partition %q: MinNodes=%d is above MaxNodes=%d: no job can run (refused at submit, or pending with reason PartitionConfig)",
					part.ID.Value, minN, maxN)
			case minOK && known && minN > nodes:
				reportValue(p, minKV, fmt.Sprintf("set MinNodes to at most %d, or raise the pools' maxNodeCount", nodes),
					"partition %q: MinNodes=%d but its pools have %d nodes in all: no job can run (refused at submit, or pending with reason PartitionConfig)",
					part.ID.Value, minN, nodes)
			}
		}
	},
}

// ShapeTimeLimit reports MaxTime=0, and a job_submit plugin that refuses
// every job without --time.
var ShapeTimeLimit = &lint.Rule{
	ID:       "shape-time-limit",
	Severity: diag.Error,
	Summary:  "A partition's MaxTime is 0, or no job without --time is accepted",
	Doc: doc("MaxTime=0 is a time limit of zero minutes, not \"no limit\" (that is UNLIMITED): every job that "+
		"gives --time pends for ever (reason PartitionTimeLimit; PartitionConfig on 22.05), and a job without "+
		"--time starts with a time limit of 0 and is ended as TIMEOUT at once. A DefaultTime above MaxTime, "+
		"by contrast, stops no job: Slurm gives such jobs MaxTime. JobSubmitPlugins=require_timelimit refuses "+
		"at submit every job that gives no --time (\"Time limit specification required, but not provided\"), "+
		"whatever the partition's DefaultTime: a warning, since jobs that pass --time run (22.05, 24.11, 26.05).",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MaxTime: \"0\"}}",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MaxTime: UNLIMITED}}"),
	Check: func(p *lint.Pass) {
		if kv := effective(p).user("JobSubmitPlugins"); kv != nil {
			for item := range strings.SplitSeq(kv.Value.Value, ",") {
				if pluginIs(strings.TrimSpace(item), "job_submit/require_timelimit") {
					reportValueAs(p, diag.Warning, kv, "jobs must pass --time, or leave require_timelimit out of JobSubmitPlugins",
						"JobSubmitPlugins=%s: require_timelimit refuses at submit every job without --time (\"Time limit specification required, but not provided\"), whatever a partition's DefaultTime",
						kv.Value.Value)
					break
				}
			}
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
				continue
			}
			kv := lookupKV(part.Config, "MaxTime")
			if kv == nil {
				continue
			}
			if m, ok := catalog.ParseTime(kv.Value.Value); ok && m == 0 {
				reportValue(p, kv, "use UNLIMITED for no limit, or a time of at least one minute",
					"partition %q: MaxTime=%s is a limit of zero minutes: a job with --time pends for ever (PartitionTimeLimit), one without gets a time limit of 0",
					part.ID.Value, kv.Value.Value)
			}
		}
	},
}

// partUint reads a partition key with an integer value as slurmctld does
// (UNLIMITED is the kind's INFINITE); ok is false when the key is not set
// or its value is malformed (invalid-config-value reports that).
func partUint(part *ir.Partition, key string) (*ir.KV, uint64, bool) {
	kv := lookupKV(part.Config, key)
	if kv == nil {
		return nil, 0, false
	}
	param, ok := catalog.Default().Lookup(catalog.ScopePartition, key)
	if !ok {
		return nil, 0, false
	}
	n, ok := catalog.ParseNumber(param, kv.Value.Value)
	return kv, n, ok
}

// partitionNodeCount is the number of nodes a partition's pools render
// (their maxNodeCount); known is false when a pool is missing.
func partitionNodeCount(c *ir.Cluster, part *ir.Partition) (n uint64, known bool) {
	for _, id := range part.NodePoolIDs {
		pool := c.Pool(id.Value)
		if pool == nil || !pool.MaxNodeCount.Set {
			return 0, false
		}
		n += uint64(max(pool.MaxNodeCount.Value, 0))
	}
	return n, len(part.NodePoolIDs) > 0
}

// shapeNode is what one node of a partition's pool offers jobs.
type shapeNode struct {
	pool *ir.NodePool
	noderes.Node
}

// avail is the node's memory for jobs, in MiB: RealMemory less
// MemSpecLimit.
func (n shapeNode) avail() uint64 { return uint64(max(n.Memory, 0)) }

// partitionShapeNodes returns the nodes of a partition's pools whose
// machine is known (the login pool left out), one per pool.
func partitionShapeNodes(c *ir.Cluster, part *ir.Partition) []shapeNode {
	var out []shapeNode
	for _, id := range part.NodePoolIDs {
		pool := c.Pool(id.Value)
		if pool == nil || pool.ID.Value == c.Slurm.LoginNodePoolID.Value || pool.Machine == nil {
			continue
		}
		res := noderes.Of(c, pool)
		if res.Memory <= 0 || res.CPUs <= 0 {
			continue
		}
		out = append(out, shapeNode{pool: pool, Node: res})
	}
	return out
}

// infinite reports whether n is an integer kind's INFINITE (UNLIMITED).
func infinite(n uint64) bool {
	return n == math.MaxUint16 || n == math.MaxUint32 || n >= math.MaxUint64-1
}

// nodeSetsUnknown reports whether the nodeSets entries are not all known:
// the list, an entry, its nodePoolId or its config was refused by the
// schema. A rule that reads a pool's CPUs for jobs (noderes.Of) from them
// cannot conclude then.
func nodeSetsUnknown(c *ir.Cluster) bool {
	if c.Unsound.Len() == 0 {
		return false
	}
	if c.Slurm.NodeSetsUnknown {
		return true
	}
	for _, ns := range c.Slurm.NodeSets {
		if ns.NodePoolID.Unknown || c.Unknown(ns.Path+".nodePoolId") || c.ConfigUnknown(ns.Path+".config", ns.Config) {
			return true
		}
	}
	return false
}
