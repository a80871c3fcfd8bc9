package render

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/machines"
)

// RuleMachineType is the id of the renderer's refusal of a compute pool
// whose nodes it cannot describe.
const RuleMachineType = "render-machine-type"

// refuseUnknownMachines refuses compute pools whose machine type the
// catalog does not know (or knows without its vCPUs and memory), unless
// the pool's nodeSets entry gives CPUs and RealMemory itself. Without them
// the NodeName line would have neither, and Slurm would schedule one CPU
// and 1 MiB of memory per node. This holds whatever the lint configuration
// says (lint's unknown-machine-type reports the same pools).
func refuseUnknownMachines(c *ir.Cluster) diag.List {
	var l diag.List
	for _, p := range c.ComputePools() {
		if p.Machine != nil && p.Machine.Known() || nodeSetDescribesNodes(c, p) {
			continue
		}
		hint := "set CPUs and RealMemory in the pool's nodeSets entry"
		if dym := diag.DidYouMean(p.MachineType.Value, machines.Default().Types(), ""); dym != "" {
			hint = dym + " Or " + hint
		} else {
			hint = "check the machine type, or " + hint
		}
		why := "is not in slurmspec's machine catalog"
		if p.Machine != nil {
			why = "has no vCPU count or memory in slurmspec's machine catalog"
		}
		l.Errorf(RuleMachineType, p.MachineType.Pos, p.MachineType.Path, hint,
			"refusing to render node pool %q: machine type %q %s, so its NodeName line would have no CPUs and no RealMemory (Slurm would schedule one CPU and 1 MiB per node)",
			p.ID.Value, p.MachineType.Value, why)
	}
	return l
}

// nodeSetDescribesNodes reports whether a pool's nodeSets entry sets both
// CPUs and RealMemory, so that its NodeName line describes the nodes
// whatever the machine catalog knows.
func nodeSetDescribesNodes(c *ir.Cluster, p *ir.NodePool) bool {
	ns := c.Slurm.NodeSetFor(p.ID.Value)
	if ns == nil {
		return false
	}
	var cpus, mem bool
	for _, kv := range ns.Config {
		switch {
		case strings.EqualFold(kv.Key.Value, "CPUs"):
			cpus = kv.Value.Value != ""
		case strings.EqualFold(kv.Key.Value, "RealMemory"):
			mem = kv.Value.Value != ""
		}
	}
	return cpus && mem
}
