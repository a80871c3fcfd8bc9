package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Resource selection, memory, GRES and node lines: constraints.md S1-S9
// and N1-N8, against what the renderer writes for each node pool.

// memKeys are the memory limits that need memory tracking (S3).
var memKeys = []string{"DefMemPerCPU", "DefMemPerNode", "MaxMemPerCPU", "MaxMemPerNode"}

// MemoryNotTracked reports memory limits that the select plugin does not
// enforce (S3).
var MemoryNotTracked = &lint.Rule{
	ID:       "memory-not-tracked",
	Severity: diag.Warning,
	Summary:  "A memory limit is set but SelectTypeParameters does not track memory",
	Doc: doc("DefMemPerCPU, DefMemPerNode, MaxMemPerCPU and MaxMemPerNode (global or per partition) are enforced "+
		"only when SelectTypeParameters has a memory unit (CR_Core_Memory, the service default, CR_CPU_Memory, "+
		"CR_Socket_Memory or CR_Memory).",
		`config: {SelectTypeParameters: CR_Core, DefMemPerCPU: "4096"}`,
		`config: {SelectTypeParameters: CR_Core_Memory, DefMemPerCPU: "4096"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		stp := e.val("SelectTypeParameters")
		if memoryTracked(stp) {
			return
		}
		for _, m := range configMaps(p.Cluster) {
			if m.scope == "node" {
				continue
			}
			for _, k := range memKeys {
				if kv := lookupKV(m.kvs, k); kv != nil {
					reportKey(p, kv, "use a memory-tracking SelectTypeParameters such as CR_Core_Memory",
						"%s is not enforced: SelectTypeParameters=%s does not track memory", kv.Key.Value, stp)
				}
			}
		}
	},
}

// memDefaults are the keys that give a job memory when it asks for none.
var memDefaults = []string{"DefMemPerCPU", "DefMemPerGPU", "DefMemPerNode"}

// MemoryDefaultMissing notes GPU partitions where a job that asks for no
// memory is given a whole node's memory.
var MemoryDefaultMissing = &lint.Rule{
	ID:       "memory-default-missing",
	Severity: diag.Info,
	Summary:  "Memory is tracked, but a job that asks for none gets all of a GPU node's memory",
	Doc: doc("With a memory-tracking SelectTypeParameters (CR_Core_Memory is the service default), a job that "+
		"asks for no memory (no --mem, --mem-per-cpu or --mem-per-gpu) is given DefMemPerCPU, DefMemPerGPU or "+
		"DefMemPerNode of its partition or of the cluster; with none of them set it is given all of each node's "+
		"memory, so no other job fits beside it. On a node with several GPUs, a one-GPU job then idles the "+
		"others. Set a default per GPU (jobs can still ask for more), or make whole-node allocation explicit "+
		"with OverSubscribe=EXCLUSIVE. The rule looks at partitions with nodes of two or more GPUs.",
		"partitions:\n- {id: gpu, nodePoolIds: [a4]}",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {DefMemPerGPU: \"492974\"}}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if !memoryTracked(e.val("SelectTypeParameters")) {
			return
		}
		for _, k := range memDefaults {
			if e.user(k) != nil {
				return
			}
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if wholeNodes(part) || slices.ContainsFunc(memDefaults, func(k string) bool { return lookupKV(part.Config, k) != nil }) {
				continue
			}
			if stp := lookupKV(part.Config, "SelectTypeParameters"); stp != nil && !memoryTracked(stp.Value.Value) {
				continue // the partition's own units (S7) do not track memory
			}
			var (
				perGPU  int // the least memory per GPU of the partition's GPU nodes, MiB
				nodeMem int // the memory of that node, MiB
				machine *machines.Machine
			)
			for _, id := range part.NodePoolIDs {
				pool := p.Cluster.Pool(id.Value)
				if pool == nil || pool.ID.Value == p.Cluster.Slurm.LoginNodePoolID.Value || pool.Machine == nil {
					continue
				}
				gpus, whole := pool.Machine.WholeGPUs()
				mem := nodeMemory(p.Cluster, pool)
				if !whole || gpus < 2 || mem == 0 {
					continue
				}
				if m := mem / gpus; machine == nil || m < perGPU {
					perGPU, nodeMem, machine = m, mem, pool.Machine
				}
			}
			if machine == nil {
				continue
			}
			gpus, _ := machine.WholeGPUs()
			p.Report(part.ID.Pos, part.ID.Path,
				fmt.Sprintf("set DefMemPerGPU: \"%d\" in %s.config (the node memory per GPU of %s), or OverSubscribe: EXCLUSIVE if every job takes whole nodes",
					perGPU, part.Path, machine.Type),
				"partition %q: a job that asks for no memory is given the whole memory of its %s nodes (%d MiB), so it holds each node and its %d GPUs whatever it asks for",
				part.ID.Value, machine.Type, nodeMem, gpus)
		}
	},
}

// nodeMemory is the RealMemory, in MiB, of a pool's nodes: the node set's
// RealMemory when the spec sets one, else what the renderer writes for the
// machine type (0 when unknown).
func nodeMemory(c *ir.Cluster, pool *ir.NodePool) int {
	if ns := c.Slurm.NodeSetFor(pool.ID.Value); ns != nil {
		if kv := lookupKV(ns.Config, "RealMemory"); kv != nil {
			if n, ok := parseNum(kv.Value.Value); ok && n > 0 {
				return int(n)
			}
		}
	}
	return pool.Machine.RealMemoryMiB()
}

// wholeNodes reports whether a partition allocates whole nodes anyway
// (OverSubscribe=EXCLUSIVE, or Exclusive other than NO).
func wholeNodes(part *ir.Partition) bool {
	if os := lookupKV(part.Config, "OverSubscribe"); os != nil && strings.EqualFold(os.Value.Value, "EXCLUSIVE") {
		return true
	}
	ex := lookupKV(part.Config, "Exclusive")
	return ex != nil && !strings.EqualFold(ex.Value.Value, "NO") && !strings.EqualFold(ex.Value.Value, "NONE")
}

// MemPerCPUAndNode reports the mutually exclusive memory pairs (S4).
var MemPerCPUAndNode = &lint.Rule{
	ID:       "mem-per-cpu-and-node",
	Severity: diag.Error,
	Summary:  "DefMemPerCPU with DefMemPerNode, or MaxMemPerCPU with MaxMemPerNode, in one config",
	Doc: doc("Each pair is mutually exclusive: Slurm keeps the *PerNode value and drops the *PerCPU one with an "+
		"error, globally and per partition.",
		`config: {DefMemPerCPU: "4096", DefMemPerNode: "65536"}`,
		`config: {DefMemPerCPU: "4096"}`),
	Check: func(p *lint.Pass) {
		for _, m := range configMaps(p.Cluster) {
			if m.scope == "node" {
				continue
			}
			for _, pair := range [][2]string{{"DefMemPerCPU", "DefMemPerNode"}, {"MaxMemPerCPU", "MaxMemPerNode"}} {
				cpu, node := lookupKV(m.kvs, pair[0]), lookupKV(m.kvs, pair[1])
				if cpu != nil && node != nil {
					reportKey(p, cpu, "keep one of the two",
						"%s is ignored: %s in the same config takes precedence", cpu.Key.Value, node.Key.Value)
				}
			}
		}
	},
}

// MaxNodeCountSelect reports MaxNodeCount without select/cons_tres (S5).
var MaxNodeCountSelect = &lint.Rule{
	ID:       "max-node-count-select",
	Severity: diag.Error,
	Summary:  "MaxNodeCount is set but SelectType is not select/cons_tres, or it is below the rendered node count",
	Doc: doc("MaxNodeCount works only with select/cons_tres (the service default); with another SelectType "+
		"slurmctld rejects the configuration. It must also cover every node the pools render (the sum of "+
		"maxNodeCount): slurmctld exits when the NodeName lines pass it.",
		`config: {SelectType: select/linear, MaxNodeCount: "2000"}`,
		`config: {MaxNodeCount: "2000"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("MaxNodeCount")
		if kv == nil {
			return
		}
		var nodes int64
		for _, pool := range p.Cluster.ComputePools() {
			nodes += pool.MaxNodeCount.Value
		}
		if n, ok := parseNum(kv.Value.Value); ok && n < nodes {
			// slurmctld 22.05: "Attempting to create node record past
			// MaxNodeCount", fatal.
			reportValue(p, kv, fmt.Sprintf("set MaxNodeCount to at least %d, or remove it", nodes),
				"MaxNodeCount=%d is below the %d nodes the node pools render: slurmctld exits", n, nodes)
		}
		if strings.Contains(strings.ToLower(e.val("SelectType")), "cons_tres") {
			return
		}
		reportKey(p, kv, "remove SelectType (the service default is select/cons_tres), or MaxNodeCount",
			"MaxNodeCount needs select/cons_tres, but SelectType=%s: slurmctld rejects it", e.val("SelectType"))
	},
}

// SelectLinearTopologyTree reports a combination fatal from 23.11 (S6).
var SelectLinearTopologyTree = &lint.Rule{
	ID:       "select-linear-topology-tree",
	Severity: diag.Error,
	Summary:  "SelectType=select/linear with TopologyPlugin=topology/tree",
	Doc: doc("From 23.11 slurmctld exits when select/linear is combined with topology/tree.",
		`config: {SelectType: select/linear, TopologyPlugin: topology/tree}`,
		`config: {SelectType: select/cons_tres, TopologyPlugin: topology/tree}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.v < catalog.V2311 || !pluginIs(e.val("SelectType"), "select/linear") || !pluginIs(e.val("TopologyPlugin"), "topology/tree") {
			return
		}
		kv, _ := e.userAnchor("SelectType", "TopologyPlugin")
		reportValue(p, kv, "use select/cons_tres (the service default)",
			"select/linear with topology/tree is fatal from Slurm 23.11 (target %s)", e.v)
	},
}

// partitionUnits are the SelectTypeParameters a partition may override
// (S7).
var partitionUnits = []string{"cr_core", "cr_core_memory", "cr_socket", "cr_socket_memory"}

// PartitionSelectParamsIgnored reports partition SelectTypeParameters that
// the global setting makes Slurm ignore (S7).
var PartitionSelectParamsIgnored = &lint.Rule{
	ID:       "partition-select-params-ignored",
	Severity: diag.Warning,
	Summary:  "A partition sets SelectTypeParameters but the global value is not CR_Core* or CR_Socket*",
	Doc: doc("A partition's SelectTypeParameters replaces the global one only when the global value is CR_Core, "+
		"CR_Core_Memory (the service default), CR_Socket or CR_Socket_Memory; otherwise it is ignored.",
		"config: {SelectTypeParameters: CR_CPU_Memory}\npartitions:\n- {id: batch, nodePoolIds: [cpu], config: {SelectTypeParameters: CR_Socket_Memory}}",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {SelectTypeParameters: CR_Socket_Memory}}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		global := e.val("SelectTypeParameters")
		if hasToken(global, partitionUnits...) {
			return
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if kv := lookupKV(part.Config, "SelectTypeParameters"); kv != nil {
				reportKey(p, kv, "set the global SelectTypeParameters to CR_Core_Memory (or another CR_Core*/CR_Socket* unit)",
					"partition %q: SelectTypeParameters is ignored because the global SelectTypeParameters=%s is not CR_Core* or CR_Socket*", part.ID.Value, global)
			}
		}
	},
}

// GresSharedWithoutGPU reports mps or shard without gpu in GresTypes (S9).
var GresSharedWithoutGPU = &lint.Rule{
	ID:       "gres-shared-without-gpu",
	Severity: diag.Error,
	Summary:  "GresTypes lists mps or shard without gpu",
	Doc: doc("The shared GRES (mps, shard) are slices of GPUs; slurmctld exits when GresTypes lists them "+
		"without gpu.",
		`config: {GresTypes: shard}`,
		`config: {GresTypes: "gpu,shard"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("GresTypes")
		if kv == nil || !hasToken(kv.Value.Value, "mps", "shard") || hasToken(kv.Value.Value, "gpu") {
			return
		}
		reportValue(p, kv, "add gpu: GresTypes: gpu,"+kv.Value.Value, "GresTypes=%s lists a shared GRES without gpu: slurmctld exits", kv.Value.Value)
	},
}

// GresTypeNotDeclared reports node GRES whose type GresTypes lacks.
var GresTypeNotDeclared = &lint.Rule{
	ID:       "gres-type-not-declared",
	Severity: diag.Error,
	Summary:  "A node has a GRES (rendered Gres=gpu:… or set in nodeSets) that GresTypes does not list",
	Doc: doc("Slurm drops every node GRES whose name GresTypes does not list, with an error, so the GPUs are "+
		"invisible to jobs. The service writes GresTypes=gpu when a pool has GPUs, but a GresTypes in the "+
		"spec's config replaces that default.",
		"nodePools:\n- {id: a4, machineSpec: {machineType: a4-highgpu-8g}, ...}\nconfig: {GresTypes: nic}",
		"nodePools:\n- {id: a4, machineSpec: {machineType: a4-highgpu-8g}, ...}\nconfig: {GresTypes: \"gpu,nic\"}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		declared := tokenList(e.val("GresTypes"))
		userTypes := e.user("GresTypes")
		reported := map[string]bool{}
		if gpuPool := firstWholeGPUPool(p); gpuPool != "" {
			if _, ok := declared["gpu"]; !ok && userTypes != nil {
				reported["gpu"] = true
				reportValue(p, userTypes, "add gpu: GresTypes: gpu,"+userTypes.Value.Value,
					"GresTypes=%s lacks gpu, but node pool %q renders Gres=gpu:…: Slurm drops its GPUs", userTypes.Value.Value, gpuPool)
			}
		}
		for _, ns := range p.Cluster.Slurm.NodeSets {
			kv := lookupKV(ns.Config, "Gres")
			if kv == nil {
				continue
			}
			for _, item := range strings.Split(kv.Value.Value, ",") {
				name := strings.ToLower(strings.SplitN(item, ":", 2)[0])
				if name == "" {
					continue
				}
				if _, ok := declared[name]; ok {
					continue
				}
				hint := fmt.Sprintf("add %s to orchestratorSpec.slurmSpec.config.GresTypes", name)
				reportValue(p, kv, hint, "nodeSets entry for %q has Gres %q, but GresTypes does not list %s: Slurm drops it",
					ns.NodePoolID.Value, item, name)
				break
			}
		}
	},
}

// poolsByID indexes the node pools by id, so that rules over nodeSets stay
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

// CloudDNSDropped reports a SlurmctldParameters that replaces the service's
// cloud_dns default while nodes may be powered down.
var CloudDNSDropped = &lint.Rule{
	ID:       "cloud-dns-dropped",
	Severity: diag.Warning,
	Summary:  "SlurmctldParameters replaces the service default cloud_dns while some nodes may be powered down",
	Doc: doc("When a pool can scale (minNodeCount < maxNodeCount) the service writes SlurmctldParameters=cloud_dns, "+
		"because powered-down nodes have no DNS entry. A SlurmctldParameters in the spec replaces that default, "+
		"so it must list cloud_dns itself.",
		`config: {SlurmctldParameters: enable_configless}`,
		`config: {SlurmctldParameters: "cloud_dns,enable_configless"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SlurmctldParameters")
		if kv == nil || hasToken(kv.Value.Value, "cloud_dns") {
			return
		}
		for _, pool := range p.Cluster.ComputePools() {
			if pool.MinNodeCount.Value < pool.MaxNodeCount.Value {
				reportValue(p, kv, "add cloud_dns: SlurmctldParameters: cloud_dns,"+kv.Value.Value,
					"SlurmctldParameters=%s drops the service default cloud_dns, but node pool %q scales %d..%d", kv.Value.Value, pool.ID.Value, pool.MinNodeCount.Value, pool.MaxNodeCount.Value)
				return
			}
		}
	},
}

// SelectParamsNoUnit reports consumable-resource selection without a CPU,
// core or socket unit.
var SelectParamsNoUnit = &lint.Rule{
	ID:       "select-params-no-unit",
	Severity: diag.Error,
	Summary:  "SelectTypeParameters lacks a CR_CPU, CR_Core or CR_Socket unit (cons_tres, cons_res), or has one (linear)",
	Doc: doc("The consumable-resource select plugins allocate CPUs, cores or sockets; slurmctld exits when the "+
		"global SelectTypeParameters names none of CR_CPU*, CR_Core* and CR_Socket* (\"You need at least "+
		"CR_(CPU|CORE|SOCKET)*\", seen on 24.11; CR_Memory alone is only for select/linear). select/linear is "+
		"the opposite: a unit is fatal, and the service default CR_Core_Memory has one (seen on 26.05). A spec "+
		"that sets SelectTypeParameters replaces the default.",
		`config: {SelectTypeParameters: "CR_LLN,CR_ONE_TASK_PER_CORE"}`,
		`config: {SelectTypeParameters: "CR_Core_Memory,CR_LLN"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SelectTypeParameters")
		st := strings.ToLower(e.val("SelectType"))
		if strings.Contains(st, "linear") {
			// select/linear: "Invalid SelectTypeParameters for
			// select/linear: ... it can't contain CR_(CPU|CORE|SOCKET)".
			for name := range tokenList(e.val("SelectTypeParameters")) {
				if strings.HasPrefix(name, "cr_cpu") || strings.HasPrefix(name, "cr_core") || strings.HasPrefix(name, "cr_socket") {
					at := kv
					if at == nil {
						at = e.user("SelectType")
					}
					if at != nil {
						reportValue(p, at, "set SelectTypeParameters: CR_Memory (or nothing but CR_Memory/CR_LLN) with select/linear",
							"SelectType=%s cannot take SelectTypeParameters=%s (the service default is CR_Core_Memory): slurmctld exits", e.val("SelectType"), e.val("SelectTypeParameters"))
					}
					return
				}
			}
			return
		}
		if kv == nil || !(strings.Contains(st, "cons_tres") || strings.Contains(st, "cons_res")) {
			return
		}
		for name := range tokenList(kv.Value.Value) {
			if strings.HasPrefix(name, "cr_cpu") || strings.HasPrefix(name, "cr_core") || strings.HasPrefix(name, "cr_socket") {
				return
			}
		}
		reportValue(p, kv, "add a unit: CR_Core_Memory (the service default), CR_CPU_Memory or CR_Socket_Memory",
			"SelectTypeParameters=%s has no CR_CPU, CR_Core or CR_Socket unit, which %s needs: slurmctld exits", kv.Value.Value, e.val("SelectType"))
	},
}
