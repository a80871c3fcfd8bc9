package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/noderes"
)

// Memory limits and defaults (constraints.md S1-S4) against the RealMemory
// the renderer writes for each node pool.

// memKeys are the memory defaults that need memory tracking (S3).
// MaxMemPerCPU and MaxMemPerNode do not: slurmctld checks a job's memory
// against them with CR_Core too (shape-mem-limit; TestShapeRules).
var memKeys = []string{"DefMemPerCPU", "DefMemPerNode"}

// MemoryNotTracked reports memory defaults that reserve no memory because
// the select plugin does not track it (S3).
var MemoryNotTracked = &lint.Rule{
	ID:       "memory-not-tracked",
	Severity: diag.Warning,
	Summary:  "A memory default is set but SelectTypeParameters does not track memory",
	Doc: doc("DefMemPerCPU and DefMemPerNode (global or per partition) reserve memory on the nodes only when "+
		"SelectTypeParameters has a memory unit (CR_Core_Memory, the service default, CR_CPU_Memory, "+
		"CR_Socket_Memory or CR_Memory). Without one, jobs are placed side by side without regard to memory, "+
		"whatever their default. What remains of the default: a job without --mem still gets it as its memory "+
		"request, and slurmctld checks that against MaxMemPerCPU and MaxMemPerNode (22.05, 24.11, 26.05; "+
		"shape-mem-limit reports a default above them). MaxMemPerCPU and MaxMemPerNode are not reported here: "+
		"slurmctld checks a job's memory against them with CR_Core too.",
		`config: {SelectTypeParameters: CR_Core, DefMemPerCPU: "4096"}`,
		`config: {SelectTypeParameters: CR_Core_Memory, DefMemPerCPU: "4096"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		stp := e.val("SelectTypeParameters")
		if e.memoryTracked() {
			return
		}
		for _, m := range configMaps(p.Cluster) {
			if m.scope == "node" {
				continue
			}
			for _, k := range memKeys {
				if kv := lookupKV(m.kvs, k); kv != nil {
					reportKey(p, kv, "use a memory-tracking SelectTypeParameters such as CR_Core_Memory",
						"%s reserves no memory: SelectTypeParameters=%s does not track memory, so jobs are placed without regard to it (slurmctld still checks the default against MaxMemPerCPU and MaxMemPerNode)", kv.Key.Value, stp)
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
		if !e.memoryTracked() {
			return
		}
		for _, k := range memDefaults {
			if e.user(k) != nil {
				return
			}
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
				continue // the schema refused a key this rule reads
			}
			if wholeNodes(part) || slices.ContainsFunc(memDefaults, func(k string) bool { return lookupKV(part.Config, k) != nil }) {
				continue
			}
			if !partMemoryTracked(e, part, true) {
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
				mem := int(noderes.Of(p.Cluster, pool).Memory)
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
