package rules

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

// Node lines (constraints.md N1-N8): what a nodeSets entry adds to the
// NodeName line the renderer writes for its pool.

// linear on large specs.
func poolsByID(c *ir.Cluster) map[string]*ir.NodePool {
	m := make(map[string]*ir.NodePool, len(c.NodePools))
	for _, pool := range c.NodePools {
		m[pool.ID.Value] = pool
	}
	return m
}

// NodeCPUTopology reports socket/core/thread counts that do not multiply
// to the node's CPUs (N3).
var NodeCPUTopology = &lint.Rule{
	ID:       "node-cpu-topology",
	Severity: diag.Warning,
	Summary:  "A nodeSets entry gives Sockets, CoresPerSocket and ThreadsPerCore that do not match the node's CPUs",
	Doc: doc("Slurm needs CPUs to equal Sockets, Sockets×CoresPerSocket or Sockets×CoresPerSocket×ThreadsPerCore, "+
		"and recomputes CPUs otherwise; a 0 is reset to 1. The node's CPUs are the machine type's vCPUs "+
		"(rendered by slurmspec) unless the nodeSets entry sets CPUs.",
		"nodePools:\n- {id: cpu, machineSpec: {machineType: n2-standard-8}, ...}\nnodeSets:\n- {nodePoolId: cpu, config: {Sockets: \"1\", CoresPerSocket: \"8\", ThreadsPerCore: \"2\"}}",
		"nodeSets:\n- {nodePoolId: cpu, config: {Sockets: \"1\", CoresPerSocket: \"4\", ThreadsPerCore: \"2\"}}"),
	Check: func(p *lint.Pass) {
		pools := poolsByID(p.Cluster)
		for _, ns := range p.Cluster.Slurm.NodeSets {
			sockets, cores, threads := lookupKV(ns.Config, "Sockets"), lookupKV(ns.Config, "CoresPerSocket"), lookupKV(ns.Config, "ThreadsPerCore")
			if spb := lookupKV(ns.Config, "SocketsPerBoard"); spb != nil {
				sockets = spb
			}
			for _, kv := range []*ir.KV{sockets, cores, threads, lookupKV(ns.Config, "Boards")} {
				if kv == nil {
					continue
				}
				if n, ok := parseNum(kv.Value.Value); ok && n == 0 {
					reportValue(p, kv, "use at least 1", "%s=0 is reset to 1 by Slurm", kv.Key.Value)
				}
			}
			if sockets == nil || cores == nil || threads == nil {
				continue
			}
			s, ok1 := parseNum(sockets.Value.Value)
			c, ok2 := parseNum(cores.Value.Value)
			t, ok3 := parseNum(threads.Value.Value)
			if !ok1 || !ok2 || !ok3 || s == 0 || c == 0 || t == 0 {
				continue
			}
			if b := lookupKV(ns.Config, "Boards"); b != nil && sockets.Key.Value != "Sockets" {
				if n, ok := parseNum(b.Value.Value); ok && n > 0 {
					s *= n
				}
			}
			cpus, from := int64(0), ""
			if kv := lookupKV(ns.Config, "CPUs"); kv != nil {
				cpus, _ = parseNum(kv.Value.Value)
				from = "CPUs=" + kv.Value.Value
			} else if pool := pools[ns.NodePoolID.Value]; pool != nil && pool.Machine != nil && pool.Machine.VCPUs > 0 {
				cpus = int64(pool.Machine.VCPUs)
				from = fmt.Sprintf("%s has %d vCPUs", pool.MachineType.Value, cpus)
			}
			if cpus == 0 || cpus == s || cpus == s*c || cpus == s*c*t {
				continue
			}
			reportValue(p, threads, fmt.Sprintf("make Sockets×CoresPerSocket×ThreadsPerCore equal %d", cpus),
				"%s, but Sockets×CoresPerSocket×ThreadsPerCore is %d×%d×%d=%d: Slurm recomputes CPUs", from, s, c, t, s*c*t)
		}
	},
}

// CoreSpecConflict reports CoreSpecCount problems (N4).
var CoreSpecConflict = &lint.Rule{
	ID:       "core-spec-conflict",
	Severity: diag.Warning,
	Summary:  "CoreSpecCount is combined with CPUSpecList, or is not smaller than the node's core count",
	Doc: doc("CoreSpecCount and CPUSpecList exclude each other (CoreSpecCount is reset to 0), and CoreSpecCount "+
		"must be smaller than the node's cores (it is reset to 1). Without Sockets and CoresPerSocket Slurm "+
		"counts each CPU as a core.",
		"nodeSets:\n- {nodePoolId: cpu, config: {CoreSpecCount: \"2\", CPUSpecList: \"0,1\"}}",
		"nodeSets:\n- {nodePoolId: cpu, config: {CoreSpecCount: \"2\"}}"),
	Check: func(p *lint.Pass) {
		pools := poolsByID(p.Cluster)
		for _, ns := range p.Cluster.Slurm.NodeSets {
			csc := lookupKV(ns.Config, "CoreSpecCount")
			if csc == nil {
				continue
			}
			if list := lookupKV(ns.Config, "CPUSpecList"); list != nil {
				reportKey(p, csc, "keep one of CoreSpecCount and CPUSpecList", "CoreSpecCount with CPUSpecList: Slurm resets CoreSpecCount to 0")
				continue
			}
			n, ok := parseNum(csc.Value.Value)
			if !ok {
				continue
			}
			cores := int64(0)
			s, c := lookupKV(ns.Config, "Sockets"), lookupKV(ns.Config, "CoresPerSocket")
			if s != nil && c != nil {
				sn, _ := parseNum(s.Value.Value)
				cn, _ := parseNum(c.Value.Value)
				cores = sn * cn
			} else if pool := pools[ns.NodePoolID.Value]; pool != nil && pool.Machine != nil {
				cores = int64(pool.Machine.VCPUs)
			}
			if cores > 0 && n >= cores {
				reportValue(p, csc, fmt.Sprintf("use fewer than %d", cores),
					"CoreSpecCount=%d is not smaller than the node's %d cores: Slurm resets it to 1", n, cores)
			}
		}
	},
}

// MemSpecLimit reports MemSpecLimit at or above the node's memory (N5).
var MemSpecLimit = &lint.Rule{
	ID:       "mem-spec-limit",
	Severity: diag.Warning,
	Summary:  "MemSpecLimit is not smaller than the node's RealMemory",
	Doc: doc("MemSpecLimit reserves memory for the system and must be smaller than RealMemory (rendered from the "+
		"machine type, or set in the nodeSets entry); otherwise Slurm resets it to 0.",
		"nodePools:\n- {id: cpu, machineSpec: {machineType: n2-standard-8}, ...}\nnodeSets:\n- {nodePoolId: cpu, config: {MemSpecLimit: \"40000\"}}",
		"nodeSets:\n- {nodePoolId: cpu, config: {MemSpecLimit: \"2048\"}}"),
	Check: func(p *lint.Pass) {
		pools := poolsByID(p.Cluster)
		for _, ns := range p.Cluster.Slurm.NodeSets {
			msl := lookupKV(ns.Config, "MemSpecLimit")
			if msl == nil {
				continue
			}
			n, ok := parseNum(msl.Value.Value)
			if !ok {
				continue
			}
			mem, from := int64(0), ""
			if kv := lookupKV(ns.Config, "RealMemory"); kv != nil {
				mem, _ = parseNum(kv.Value.Value)
				from = "RealMemory=" + kv.Value.Value
			} else if pool := pools[ns.NodePoolID.Value]; pool != nil && pool.Machine != nil && pool.Machine.RealMemoryMiB() > 0 {
				mem = int64(pool.Machine.RealMemoryMiB())
				from = fmt.Sprintf("RealMemory=%d (rendered for %s)", mem, pool.MachineType.Value)
			}
			if mem > 0 && n >= mem {
				reportValue(p, msl, fmt.Sprintf("use less than %d MiB", mem), "MemSpecLimit=%d is not smaller than %s: Slurm resets it to 0", n, from)
			}
		}
	},
}

// RenderedKeyOverride reports config keys that repeat a key slurmspec
// already writes on the same line.
var RenderedKeyOverride = &lint.Rule{
	ID:       "rendered-key-override",
	Severity: diag.Warning,
	Summary:  "A nodeSets or partition config sets a key that slurmspec already writes on that line",
	Doc: doc("slurmspec writes CPUs, RealMemory and Gres on each NodeName line from the machine catalog, "+
		"State=CLOUD for nodes that may be powered down, and Nodes on each PartitionName line from nodePoolIds. "+
		"The same key in the config is written a second time on the line; Slurm keeps the last one and logs "+
		"an error. Overriding State or Nodes breaks power saving or the partition's node list, and is an error.",
		"nodeSets:\n- {nodePoolId: a4, config: {Gres: \"gpu:8\"}}",
		"nodeSets:\n- {nodePoolId: a4, config: {Features: \"b200\"}}"),
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			if kv := lookupKV(part.Config, "Nodes"); kv != nil {
				p.ReportAs(diag.Error, kv.Key.Pos, kv.Key.Path, "list node pools in nodePoolIds instead",
					"partition %q sets Nodes, which slurmspec writes from nodePoolIds: the line would carry Nodes twice", part.ID.Value)
			}
		}
		pools := poolsByID(p.Cluster)
		for _, ns := range p.Cluster.Slurm.NodeSets {
			pool := pools[ns.NodePoolID.Value]
			if pool == nil {
				continue
			}
			rendered := map[string]string{}
			if m := pool.Machine; m != nil {
				if m.VCPUs > 0 {
					rendered["cpus"] = fmt.Sprint(m.VCPUs)
				}
				if mem := m.RealMemoryMiB(); mem > 0 {
					rendered["realmemory"] = fmt.Sprint(mem)
				}
				if n, whole := m.WholeGPUs(); m.HasGPU() && whole {
					rendered["gres"] = fmt.Sprintf("gpu:%s:%d", m.GPUModel, n)
				}
			}
			if pool.MaxNodeCount.Value > pool.MinNodeCount.Value {
				rendered["state"] = "CLOUD"
			}
			for i := range ns.Config {
				kv := &ns.Config[i]
				val, ok := rendered[strings.ToLower(kv.Key.Value)]
				if !ok {
					continue
				}
				if strings.EqualFold(kv.Key.Value, "State") {
					p.ReportAs(diag.Error, kv.Key.Pos, kv.Key.Path, "remove it: the service powers nodes up and down itself",
						"nodeSets entry for %q sets State, but its nodes are written with State=CLOUD for power saving", ns.NodePoolID.Value)
					continue
				}
				p.Report(kv.Key.Pos, kv.Key.Path, "remove it to use the rendered value, or keep it knowing Slurm logs an error for the duplicate",
					"nodeSets entry for %q sets %s=%s, but slurmspec already writes %s=%s on that NodeName line", ns.NodePoolID.Value, kv.Key.Value, kv.Value.Value, kv.Key.Value, val)
			}
		}
	},
}
