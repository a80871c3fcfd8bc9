package render

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/managed"
)

// RuleManaged is the id of the renderer's own refusal of managed keys.
const RuleManaged = "render-managed"

// refuseManaged reports every key of a config map (global, partition or
// node set) that the service manages (package compiler/managed, aliases
// included). The user's config is written after the managed baseline, so
// writing one would replace the managed value (Slurm keeps the last value
// of a scalar key: SlurmUser=root) or add to it (line and array keys
// accumulate: a second SlurmctldHost, and from 24.05 another Prolog).
// The reserved-key lint rule reports the same keys with more context; the
// renderer checks again so that no rule configuration (--disable, a
// project config's disable: or severity:) can let one through.
func refuseManaged(c *ir.Cluster) diag.List {
	var l diag.List
	check := func(kvs []ir.KV) {
		for _, kv := range kvs {
			if k, ok := managed.Lookup(kv.Key.Value); ok {
				l.Errorf(RuleManaged, kv.Key.Pos, kv.Key.Path, "remove it: "+string(k.Reason),
					"refusing to write %s into slurm.conf: the service manages %s (this holds whatever the lint configuration says)", kv.Key.Value, k.Name)
			}
		}
	}
	check(c.Slurm.Config)
	for _, p := range c.Slurm.Partitions {
		check(p.Config)
	}
	for _, ns := range c.Slurm.NodeSets {
		check(ns.Config)
	}
	return l
}
