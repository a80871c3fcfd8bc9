// Package rules holds slurmspec's lint rules. All returns them in one
// explicit list; each rule is a plain lint.Rule value defined next to its
// check function.
package rules

import (
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

// All returns every rule, in the order their docs are listed.
func All() []*lint.Rule {
	return []*lint.Rule{
		ReservedKey,
		PartitionDefaultKey,
		DuplicateConfigKey,
		LoginPoolInPartition,
		UnusedPool,
		ImplicitDefaultPartition,
		GPUPoolProvisioning,
		UnknownMachineType,
		Placeholder,
	}
}

// configMap is one slurm.conf map of the spec and the scope it feeds.
type configMap struct {
	scope string // "global", "partition" or "node"
	kvs   []ir.KV
}

// configMaps lists every config map of the cluster.
func configMaps(c *ir.Cluster) []configMap {
	out := []configMap{{"global", c.Slurm.Config}}
	for _, p := range c.Slurm.Partitions {
		out = append(out, configMap{"partition", p.Config})
	}
	for _, n := range c.Slurm.NodeSets {
		out = append(out, configMap{"node", n.Config})
	}
	return out
}
