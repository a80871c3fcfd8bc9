package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
	"github.com/slurmspec/slurmspec/schema/noderes"
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

// NodeCPUTopology reports CPU topology values slurmctld replaces (N3): a
// 0, Sockets with SocketsPerBoard, more Boards than sockets, and CPUs that
// match none of Sockets, Sockets×CoresPerSocket and
// Sockets×CoresPerSocket×ThreadsPerCore (nodeTopology).
var NodeCPUTopology = &lint.Rule{
	ID:       "node-cpu-topology",
	Severity: diag.Error,
	Summary:  "A nodeSets entry gives CPU topology values (Boards, Sockets, CoresPerSocket, ThreadsPerCore, CPUs) slurmctld resets",
	Doc: doc("Slurm needs CPUs to equal Sockets, Sockets×CoresPerSocket or Sockets×CoresPerSocket×ThreadsPerCore, "+
		"and recomputes CPUs otherwise (\"match no Sockets, Sockets*CoresPerSocket or "+
		"Sockets*CoresPerSocket*ThreadsPerCore. Resetting CPUs\"); a 0 is reset to 1, Boards above the socket "+
		"count to 1, and Sockets next to SocketsPerBoard is ignored. slurmctld logs each as an error and runs "+
		"with other values than the spec's. Without Sockets, Slurm infers them from CPUs/(CoresPerSocket×ThreadsPerCore) "+
		"when that divides evenly, else one per board. The node's CPUs are the machine type's vCPUs (rendered "+
		"by slurmspec) unless the nodeSets entry sets CPUs.",
		"nodePools:\n- {id: cpu, machineSpec: {machineType: n2-standard-8}, ...}\nnodeSets:\n- {nodePoolId: cpu, config: {Sockets: \"1\", CoresPerSocket: \"2\", ThreadsPerCore: \"2\"}}",
		"nodeSets:\n- {nodePoolId: cpu, config: {Sockets: \"1\", CoresPerSocket: \"4\", ThreadsPerCore: \"2\"}}"),
	Check: func(p *lint.Pass) {
		pools := poolsByID(p.Cluster)
		for _, ns := range p.Cluster.Slurm.NodeSets {
			if nodeSetUnknown(p.Cluster, ns, pools[ns.NodePoolID.Value]) {
				continue
			}
			if !hasTopoKey(ns.Config) {
				continue
			}
			found, _ := nodeTopology(ns, pools[ns.NodePoolID.Value])
			for _, f := range found {
				if !strings.EqualFold(f.kv.Key.Value, "CoreSpecCount") {
					reportValue(p, f.kv, f.hint, "%s", f.msg)
				}
			}
		}
	},
}

// CoreSpecConflict reports CoreSpecCount problems (N4).
var CoreSpecConflict = &lint.Rule{
	ID:       "core-spec-conflict",
	Severity: diag.Error,
	Summary:  "CoreSpecCount is combined with CPUSpecList or is not smaller than the node's core count, or CPUSpecList names no CPUs of the node",
	Doc: doc("CoreSpecCount and CPUSpecList exclude each other (CoreSpecCount is reset to 0), and CoreSpecCount "+
		"must be smaller than the node's cores, Sockets×CoresPerSocket (it is reset to 1); slurmctld logs "+
		"either as an error. Without Sockets and CoresPerSocket Slurm counts each CPU as a core. CPUSpecList "+
		"lists CPU ids of the node (0 to CPUs-1) and ranges N-M with N <= M; a range that runs backwards, a word "+
		"or a CPU the node lacks leaves slurmd unable to bind its CPUs (\"Resource spec: unable to establish "+
		"slurmd CPU affinity\"), and core specialization is disabled.",
		"nodeSets:\n- {nodePoolId: cpu, config: {CoreSpecCount: \"2\", CPUSpecList: \"0,1\"}}",
		"nodeSets:\n- {nodePoolId: cpu, config: {CoreSpecCount: \"2\"}}"),
	Check: func(p *lint.Pass) {
		pools := poolsByID(p.Cluster)
		for _, ns := range p.Cluster.Slurm.NodeSets {
			if nodeSetUnknown(p.Cluster, ns, pools[ns.NodePoolID.Value]) {
				continue
			}
			if list := lookupKV(ns.Config, "CPUSpecList"); list != nil {
				cpus := 0
				if pool := pools[ns.NodePoolID.Value]; pool != nil && pool.Machine != nil {
					cpus = pool.Machine.VCPUs
				}
				if kv := lookupKV(ns.Config, "CPUs"); kv != nil {
					n, ok := slurmNum(catalog.ScopeNode, "CPUs", kv.Value.Value)
					cpus = int(n)
					if !ok {
						cpus = 0
					}
				}
				if _, msg := noderes.CPUSpecList(list.Value.Value, cpus); msg != "" {
					reportValue(p, list, "list CPU ids of the node, such as 0,1 or 0-3, each range low to high",
						"CPUSpecList=%s: %s: slurmd cannot bind its CPUs and disables core specialization", list.Value.Value, msg)
				}
			}
			csc := lookupKV(ns.Config, "CoreSpecCount")
			if csc == nil {
				continue
			}
			found, _ := nodeTopology(ns, pools[ns.NodePoolID.Value])
			for _, f := range found {
				if f.kv == csc {
					reportValue(p, f.kv, f.hint, "%s", f.msg)
					break
				}
			}
			if list := lookupKV(ns.Config, "CPUSpecList"); list != nil {
				if n, ok := slurmNum(catalog.ScopeNode, "CoreSpecCount", csc.Value.Value); ok && n > 0 {
					reportKey(p, csc, "keep one of CoreSpecCount and CPUSpecList", "CoreSpecCount with CPUSpecList: Slurm resets CoreSpecCount to 0")
				}
			}
		}
	},
}

// MemSpecLimit reports MemSpecLimit at or above the node's memory (N5).
var MemSpecLimit = &lint.Rule{
	ID:       "mem-spec-limit",
	Severity: diag.Error,
	Summary:  "MemSpecLimit is not smaller than the node's RealMemory",
	Doc: doc("MemSpecLimit reserves memory for the system and must be smaller than RealMemory (rendered from the "+
		"machine type, or set in the nodeSets entry); otherwise Slurm resets it to 0.",
		"nodePools:\n- {id: cpu, machineSpec: {machineType: n2-standard-8}, ...}\nnodeSets:\n- {nodePoolId: cpu, config: {MemSpecLimit: \"40000\"}}",
		"nodeSets:\n- {nodePoolId: cpu, config: {MemSpecLimit: \"2048\"}}"),
	Check: func(p *lint.Pass) {
		pools := poolsByID(p.Cluster)
		for _, ns := range p.Cluster.Slurm.NodeSets {
			if nodeSetUnknown(p.Cluster, ns, pools[ns.NodePoolID.Value]) {
				continue
			}
			msl := lookupKV(ns.Config, "MemSpecLimit")
			if msl == nil {
				// MemSpecLimit defaults to 0, which a RealMemory of 0
				// does not exceed either: slurmctld logs
				// "MemSpecLimit=0 is invalid, reset to 0" (22.05).
				if rm := lookupKV(ns.Config, "RealMemory"); rm != nil {
					if n, ok := slurmNum(catalog.ScopeNode, "RealMemory", rm.Value.Value); ok && n == 0 {
						reportValue(p, rm, "remove RealMemory to use the machine type's, or give the memory in MiB",
							"RealMemory=0 is not above MemSpecLimit (0): slurmctld logs an error for every node")
					}
				}
				continue
			}
			// Read as Slurm reads the node key: UNLIMITED is
			// 18446744073709551615, which is no less than any RealMemory
			// (fidelity seed 20261207, 24.11: "MemSpecLimit=
			// 18446744073709551615 is invalid, reset to 0").
			n, ok := slurmNum(catalog.ScopeNode, "MemSpecLimit", msl.Value.Value)
			if !ok {
				continue
			}
			mem, from, known := int64(0), "", false
			if kv := lookupKV(ns.Config, "RealMemory"); kv != nil {
				// RealMemory=0 counts too: slurmctld compares
				// MemSpecLimit >= RealMemory, so MemSpecLimit=0 is reset
				// with an error (related seed 20261207, 26.05).
				mem, known = slurmNum(catalog.ScopeNode, "RealMemory", kv.Value.Value)
				from = "RealMemory=" + kv.Value.Value
			} else if pool := pools[ns.NodePoolID.Value]; pool != nil && pool.Machine != nil && pool.Machine.RealMemoryMiB() > 0 {
				mem, known = int64(pool.Machine.RealMemoryMiB()), true
				from = fmt.Sprintf("RealMemory=%d (rendered for %s)", mem, pool.MachineType.Value)
			}
			if known && n >= mem {
				hint := fmt.Sprintf("use less than %d MiB", mem)
				if mem <= 0 {
					hint = "remove RealMemory to use the machine type's, or give the memory in MiB"
				}
				reportValue(p, msl, hint, "MemSpecLimit=%s is not smaller than %s: slurmctld logs an error and resets it to 0", msl.Value.Value, from)
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
		"an error. Overriding State or Nodes breaks power saving or the partition's node list, and is an error; "+
		"so is CPUs or RealMemory above the machine type's (without SlurmdParameters=config_overrides the nodes "+
		"register with less, and slurmctld marks them invalid: \"Low CPUs\", \"Low RealMemory\"), and a Gres with more "+
		"GPUs than the machine type has, config_overrides or not (\"gres/gpu count reported lower than configured\"). "+
		"A Gres with fewer GPUs is the count slurmctld schedules: the warning then says which jobs are refused at submit "+
		"(every GPU job for gpu:0, a job asking for all the machine's GPUs of a node otherwise).",
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
		overrides := effective(p).has("SlurmdParameters", "config_overrides")
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
			if pool.MaxNodeCount.Value > pool.MinNodeCount.Value && !pool.MinNodeCount.Unknown && !pool.MaxNodeCount.Unknown {
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
				if over, what := aboveMachine(kv, val); over && (!overrides || strings.EqualFold(kv.Key.Value, "Gres")) {
					// node_mgr.c validate_node_specs: a node that
					// registers with fewer CPUs or less memory than
					// configured is set invalid ("Low CPUs", "Low
					// RealMemory") and takes no jobs.
					p.ReportAs(diag.Error, kv.Key.Pos, kv.Key.Path, fmt.Sprintf("use at most %s, the machine type's, or remove it", val),
						"nodeSets entry for %q sets %s=%s above the %s=%s of its machine type: the nodes register with less and slurmctld marks them invalid (%q), so they take no jobs",
						ns.NodePoolID.Value, kv.Key.Value, kv.Value.Value, kv.Key.Value, val, what)
					continue
				}
				if n, m, below := gresBelowMachine(kv, val); below {
					reportGresBelow(p, kv, ns.NodePoolID.Value, val, n, m)
					continue
				}
				p.Report(kv.Key.Pos, kv.Key.Path, "remove it to use the rendered value, or keep it knowing Slurm logs an error for the duplicate",
					"nodeSets entry for %q sets %s=%s, but slurmspec already writes %s=%s on that NodeName line", ns.NodePoolID.Value, kv.Key.Value, kv.Value.Value, kv.Key.Value, val)
			}
		}
	},
}

// gresBelowMachine reports whether a nodeSets Gres configures fewer GPUs
// (n) than the rendered Gres of the machine type (m).
func gresBelowMachine(kv *ir.KV, rendered string) (n, m int64, below bool) {
	if !strings.EqualFold(kv.Key.Value, "Gres") {
		return 0, 0, false
	}
	n, m, ok := gpuCounts(kv, rendered)
	return n, m, ok && n < m
}

// gpuCounts returns the GPUs of a nodeSets Gres (n) and of the Gres
// rendered for the machine type (m); ok is false when either count is not
// a number.
func gpuCounts(kv *ir.KV, rendered string) (n, m int64, ok bool) {
	n, ok1 := gresCount(kv.Value.Value, "gpu")
	m, ok2 := gresCount(rendered, "gpu")
	return n, m, ok1 && ok2
}

// reportGresBelow reports a nodeSets Gres of n GPUs on a machine type of
// m: written last on the NodeName line, it is the count slurmctld
// schedules, and a job asking for more GPUs on one node is refused at
// submit (lab/jobmix TestWideClasses, 22.05, 24.11, 26.05; fidelity seed
// 20265001).
func reportGresBelow(p *lint.Pass, kv *ir.KV, pool, rendered string, n, m int64) {
	if n == 0 {
		p.Report(kv.Key.Pos, kv.Key.Path, fmt.Sprintf("remove it to schedule the machine type's %d GPUs, or put the pool on a machine type without GPUs", m),
			"nodeSets entry for %q sets Gres=%s where slurmspec writes Gres=%s from the machine type: slurmctld schedules no GPU on a node of pool %q, and every job asking for a GPU there is refused at submit (\"Requested node configuration is not available\")",
			pool, kv.Value.Value, rendered, pool)
		return
	}
	p.Report(kv.Key.Pos, kv.Key.Path, fmt.Sprintf("remove it to schedule the machine type's %d GPUs a node, or keep it knowing a job gets at most %d GPUs a node", m, n),
		"nodeSets entry for %q sets Gres=%s where slurmspec writes Gres=%s from the machine type: slurmctld schedules %d of the %d GPUs of a node of pool %q, and a job asking for all %d GPUs of a node is refused at submit (\"Requested node configuration is not available\")",
		pool, kv.Value.Value, rendered, n, m, pool, m)
}

// aboveMachine reports whether a nodeSets CPUs or RealMemory exceeds the
// rendered value of the machine type, and the reason slurmctld then gives.
func aboveMachine(kv *ir.KV, rendered string) (bool, string) {
	var what string
	switch strings.ToLower(kv.Key.Value) {
	case "cpus":
		what = "Low CPUs"
	case "realmemory":
		what = "Low RealMemory"
	case "gres":
		// gres.c: a node whose slurmd finds fewer GPUs (the devices of the
		// rendered gres.conf) than its line configures is set invalid,
		// config_overrides or not ("gres/gpu count reported lower than
		// configured"; fidelity seed 20261211, Gres=gpu:8k).
		n, m, ok := gpuCounts(kv, rendered)
		return ok && n > m, "gres/gpu count reported lower than configured"
	default:
		return false, ""
	}
	// As Slurm reads the value (a uint64 RealMemory above 2^63 is no
	// less above the machine's), capped at the largest int64.
	n, ok1 := slurmNum(catalog.ScopeNode, kv.Key.Value, kv.Value.Value)
	m, ok2 := parseNum(rendered)
	return ok1 && ok2 && n > m, what
}

// gresCount sums the counts of a Gres value's items of one name
// ("gpu:8", "gpu:b200:8", "gpu:2K"): an item without a count counts 1, and
// a count may carry Slurm's k, m, g, t or p suffix (×1024 each step, as
// gres.c reads it). ok is false when a count is not a number.
func gresCount(value, name string) (int64, bool) {
	var total int64
	for item := range strings.SplitSeq(value, ",") {
		f := strings.Split(item, ":")
		if !strings.EqualFold(f[0], name) {
			continue
		}
		if len(f) == 1 {
			total++
			continue
		}
		c := f[len(f)-1]
		if i := strings.IndexByte(c, '('); i >= 0 {
			c = c[:i] // gpu:8(S:0-1)
		}
		mult := int64(1)
		if c != "" {
			if i := strings.IndexByte("kmgtp", c[len(c)-1]|0x20); i >= 0 {
				mult = int64(1) << (10 * (i + 1))
				c = c[:len(c)-1]
			}
		}
		n, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			if len(f) == 2 {
				total++ // gpu:b200, a type without a count
				continue
			}
			return 0, false
		}
		total += n * mult
	}
	return total, true
}

// nodeSetUnknown reports whether a nodeSets entry's NodeName line is not
// known: the schema refused a key or value of its config, or its pool's
// machine type (which the rendered CPUs and RealMemory come from), or the
// pool itself.
func nodeSetUnknown(c *ir.Cluster, ns *ir.NodeSet, pool *ir.NodePool) bool {
	return c.ConfigUnknown(ns.Path+".config", ns.Config) || pool != nil && pool.MachineType.Unknown || pool == nil && c.PoolsUnknown
}
