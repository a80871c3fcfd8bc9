// Package ir is slurmspec's intermediate representation of a cluster spec:
// plain Go structs decoded from a validated document, with the API's
// defaults applied. Every field remembers where it was written (Pos) and
// its normalised spec path, so that lint rules and the renderer can point
// back at the spec.
package ir

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
)

// Str is a string field. Set is false when the spec did not give it; Value
// then holds the default, if any, and Pos the enclosing object.
//
// Unknown is true when the schema refused the value, or a value it depends
// on (the machine type a default comes from): Value is then "" and Set
// false, and a rule must not read the field as absent or defaulted.
type Str struct {
	Value   string
	Set     bool
	Unknown bool
	Pos     diag.Pos
	Path    string
}

// Int is an integer field, like Str.
type Int struct {
	Value   int64
	Set     bool
	Unknown bool
	Pos     diag.Pos
	Path    string
}

// KV is one slurm.conf Key=Value pair from a config map.
type KV struct {
	Key   Str
	Value Str
}

// Cluster is a whole spec.
type Cluster struct {
	// File is the spec's file name as given on the command line.
	File string
	// Project, Region and ID identify the cluster: from the resource name,
	// or from flags.
	Project, Region, ID Str
	Network             Str
	NodePools           []*NodePool
	// PoolsUnknown is set when the schema refused the node pool list or a
	// pool's id: such pools are left out of NodePools.
	PoolsUnknown bool
	Slurm        Slurm
	// Doc is the loaded, normalised document, for the canonical request body.
	Doc *load.Document
	// Unsound holds the paths the schema refused and those the compiler
	// could not decode because of them (nil for a valid spec): the IR of a
	// partly invalid spec, built for lint only, marks their values Unknown.
	Unsound *Unsound
}

// Unknown reports whether the value at a spec path is unsound: refused by
// the schema, or derived from a refused value.
func (c *Cluster) Unknown(path string) bool { return c.Unsound.Covers(path) }

// ConfigUnknown reports whether a config map (at path, decoded as kvs) is
// not all known: the schema refused the map, a key or a value of it. A
// rule that concludes from a key's absence or value cannot conclude then.
func (c *Cluster) ConfigUnknown(path string, kvs []KV) bool {
	if c.Unsound.Len() == 0 {
		return false
	}
	if c.Unknown(path) {
		return true
	}
	for _, kv := range kvs {
		if kv.Value.Unknown {
			return true
		}
	}
	return false
}

// PartitionsUnknown reports whether the partitions are not all known: the
// list, a partition, its id or its node pool list was refused by the
// schema. A rule that reasons about every partition ("no partition uses
// this pool") cannot conclude then.
func (c *Cluster) PartitionsUnknown() bool {
	if c.Unsound.Len() == 0 {
		return false
	}
	if c.Slurm.PartitionsUnknown {
		return true
	}
	for _, p := range c.Slurm.Partitions {
		if c.Unknown(p.Path + ".nodePoolIds") {
			return true
		}
		for _, ref := range p.NodePoolIDs {
			if ref.Unknown {
				return true
			}
		}
	}
	return false
}

// ComputePoolsUnknown reports whether the set of compute pools is not
// known: a pool or the loginNodePoolId was refused by the schema. A rule
// that sums or searches over every compute pool cannot conclude then.
func (c *Cluster) ComputePoolsUnknown() bool {
	return c.PoolsUnknown || c.Slurm.LoginNodePoolID.Unknown
}

// Pool returns the node pool with the given id, or nil.
func (c *Cluster) Pool(id string) *NodePool {
	for _, p := range c.NodePools {
		if p.ID.Value == id {
			return p
		}
	}
	return nil
}

// ComputePools returns the node pools that are not the login pool, in spec
// order: the pools that become Slurm nodes.
func (c *Cluster) ComputePools() []*NodePool {
	var out []*NodePool
	for _, p := range c.NodePools {
		if p.ID.Value != c.Slurm.LoginNodePoolID.Value {
			out = append(out, p)
		}
	}
	return out
}

// NodePool is one entry of nodePools.
type NodePool struct {
	Index int
	Pos   diag.Pos
	Path  string
	ID    Str

	MachineType Str
	// Machine is the catalog entry of MachineType, or nil if unknown.
	Machine *machines.Machine

	// ProvisioningModel is the effective model: as given, or the API's
	// default (ON_DEMAND for CPU pools, RESERVATION for pools with a
	// reservation affinity); empty when the API would reject the pool.
	ProvisioningModel       Str
	ReservationAffinityType Str
	Reservations            []Str

	MinNodeCount, MaxNodeCount Int
	BootDiskType               Str
	BootDiskSizeGb             Int
	Zone                       Str
	Filestores                 []Str
	ConfidentialInstanceType   Str
	FlexStartMaxDuration       Str
}

// Slurm is orchestratorSpec.slurmSpec.
type Slurm struct {
	Pos                  diag.Pos
	Path                 string
	HomeDirectoryStorage Str
	LoginNodePoolID      Str
	Partitions           []*Partition
	// PartitionsUnknown is set when the schema refused the partition list
	// or a partition's id: such partitions are left out of Partitions.
	PartitionsUnknown bool
	// DefaultPartitionID is the effective default partition: as given, or
	// the first partition's id (Set is then false).
	DefaultPartitionID Str
	Config             []KV
	NodeSets           []*NodeSet
	// NodeSetsUnknown is set when the schema refused the nodeSets list or
	// an entry's nodePoolId: such entries are left out of NodeSets.
	NodeSetsUnknown bool
	Prolog, Epilog  []Script
}

// DefaultPartition returns the partition that is the default, or nil.
func (s *Slurm) DefaultPartition() *Partition {
	for _, p := range s.Partitions {
		if p.ID.Value == s.DefaultPartitionID.Value {
			return p
		}
	}
	return nil
}

// NodeSetFor returns the nodeSets entry for a pool, or nil.
func (s *Slurm) NodeSetFor(poolID string) *NodeSet {
	for _, n := range s.NodeSets {
		if n.NodePoolID.Value == poolID {
			return n
		}
	}
	return nil
}

// Partition is one Slurm partition.
type Partition struct {
	Index       int
	Pos         diag.Pos
	Path        string
	ID          Str
	NodePoolIDs []Str
	Config      []KV
}

// NodeSet is one entry of nodeSets: extra NodeName keys for a pool.
type NodeSet struct {
	Index      int
	Pos        diag.Pos
	Path       string
	NodePoolID Str
	Config     []KV
}

// Script is one prolog or epilog script.
type Script struct {
	Index int
	Text  string
	Pos   diag.Pos
	Path  string
}
