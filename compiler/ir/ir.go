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
type Str struct {
	Value string
	Set   bool
	Pos   diag.Pos
	Path  string
}

// Int is an integer field, like Str.
type Int struct {
	Value int64
	Set   bool
	Pos   diag.Pos
	Path  string
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
	Slurm               Slurm
	// Doc is the loaded, normalised document, for the canonical request body.
	Doc *load.Document
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
	// DefaultPartitionID is the effective default partition: as given, or
	// the first partition's id (Set is then false).
	DefaultPartitionID Str
	Config             []KV
	NodeSets           []*NodeSet
	Prolog, Epilog     []Script
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
