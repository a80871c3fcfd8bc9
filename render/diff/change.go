package diff

// Change: one semantic difference, what it is in, and the order reports list changes in.

import (
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
)

// Kind says what a change is in.
type Kind string

// Kinds of change, in the order reports list them within one impact.
const (
	// KindCluster is a field of the cluster in cluster.json (Key is its
	// dotted path), or its resource name.
	KindCluster Kind = "cluster"
	// KindNodePool is a node pool of cluster.json (Path is its id; Key
	// the field's dotted path, empty when the pool is added or removed).
	KindNodePool Kind = "node-pool"
	// KindGlobal is a global slurm.conf key (Key).
	KindGlobal Kind = "slurm.conf-global"
	// KindPartition is a PartitionName line (Path is the partition, Key
	// a key of its line, empty when the partition is added or removed).
	// The default partition moving is one change with an empty Path and
	// Key "Default", whose Old and New are partition names.
	KindPartition Kind = "slurm.conf-partition"
	// KindNodeSet is a NodeSet line (Path is the node set).
	KindNodeSet Kind = "slurm.conf-nodeset"
	// KindNode is the configuration of nodes from NodeName lines (Path is
	// the host list of the nodes that changed the same way).
	KindNode Kind = "slurm.conf-node"
	// KindScript is a prolog or epilog script (Path is the file; Diff the
	// unified diff).
	KindScript Kind = "script"
	// KindFile is any other rendered file (Path; Diff).
	KindFile Kind = "file"
)

var kindOrder = map[Kind]int{KindCluster: 0, KindNodePool: 1, KindGlobal: 2, KindPartition: 3, KindNodeSet: 4, KindNode: 5, KindScript: 6, KindFile: 7}

// Op says whether something was added, removed or changed.
type Op string

// Operations.
const (
	OpAdded   Op = "added"
	OpRemoved Op = "removed"
	OpChanged Op = "changed"
)

// Change is one semantic difference between the old and the new rendering.
type Change struct {
	Kind Kind `json:"kind"`
	Op   Op   `json:"op"`
	// Path names the object the change is in (see Kind); empty for
	// global keys and cluster fields.
	Path string `json:"path,omitempty"`
	// Key is the slurm.conf key or the dotted cluster.json field.
	Key string `json:"key,omitempty"`
	// Old and New are the values; empty when absent. For an added or
	// removed line or pool they list its Key=Value pairs.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Impact is what applying the change costs; Reason says why, with
	// the source of the fact.
	Impact Impact `json:"impact"`
	Reason string `json:"reason"`
	// HurtsJobs, when not empty, says how the change can hurt running or
	// pending jobs.
	HurtsJobs string `json:"hurtsJobs,omitempty"`
	// Effective, for a partition key that falls back to the global key,
	// says what Slurm uses before and after the change, or that it stays
	// the same ("unchanged: ...") although the line changes.
	Effective string `json:"effective,omitempty"`
	// Diff is the unified diff of a script or file.
	Diff string `json:"diff,omitempty"`
	// AppliedBy says who applies the change (Impact.AppliedBy).
	AppliedBy string `json:"appliedBy,omitempty"`
}

// Subject names what changed, such as "partition train PriorityTier".
func (c Change) Subject() string {
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	switch c.Kind {
	case KindCluster:
		return join("cluster", c.Key)
	case KindNodePool:
		return join("node pool", c.Path, c.Key)
	case KindGlobal:
		return join("slurm.conf", c.Key)
	case KindPartition:
		if c.Path == "" {
			return "default partition"
		}
		return join("partition", c.Path, c.Key)
	case KindNodeSet:
		return join("node set", c.Path, c.Key)
	case KindNode:
		return join("nodes", c.Path, c.Key)
	}
	return c.Path
}

// values describes the values, with arrow between old and new.
func (c Change) values(arrow string) string {
	switch c.Op {
	case OpAdded:
		if c.New == "" {
			return "added"
		}
		return "added: " + c.New
	case OpRemoved:
		if c.Old == "" {
			return "removed"
		}
		return "removed (was " + c.Old + ")"
	}
	if c.Old == "" && c.New == "" {
		return "changed"
	}
	return c.Old + " " + arrow + " " + c.New
}

// String is a one-line description: "partition train PriorityTier: 10 -> 20".
func (c Change) String() string {
	return c.Subject() + ": " + c.values("->")
}

// sortChanges orders changes by decreasing impact, then kind, path, key
// and values, so that every report is deterministic.
func sortChanges(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Impact != b.Impact {
			return a.Impact > b.Impact
		}
		return lessPlace(a, b)
	})
}

func lessPlace(a, b Change) bool {
	if kindOrder[a.Kind] != kindOrder[b.Kind] {
		return kindOrder[a.Kind] < kindOrder[b.Kind]
	}
	if a.Path != b.Path {
		if a.Kind == KindNode {
			if fa, fb := hostlist.First(a.Path), hostlist.First(b.Path); fa != fb {
				return hostlist.Less(fa, fb)
			}
		}
		return a.Path < b.Path
	}
	if ak, bk := strings.ToLower(a.Key), strings.ToLower(b.Key); ak != bk {
		return ak < bk
	}
	if a.Op != b.Op {
		return a.Op < b.Op
	}
	if a.Old != b.Old {
		return a.Old < b.Old
	}
	return a.New < b.New
}
