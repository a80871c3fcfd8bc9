package rules

import (
	"fmt"
	"math"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
	"github.com/slurmspec/slurmspec/schema/noderes"
)

// The default memory of the standard job shapes (one task, one GPU, every
// GPU of a node, a whole node) against the memory a pool's nodes offer.
// Slurm's semantics, read in its source (the same in 22.05, 24.11 and the
// newest series):
//
//   - A job without --mem gets the partition's DefMemPerNode or
//     DefMemPerCPU, else the global one (slurmctld/job_mgr.c _get_def_mem;
//     the PartitionName line's DefMemPer* in common/read_config.c). Real
//     slurmctld does check that default, and a job without any, against
//     MaxMemPerNode and MaxMemPerCPU: that is shape-mem-limit
//     (shapes_res.go).
//   - A job that asks for GPUs without --mem-per-gpu gets the partition's
//     DefMemPerGPU, else the global one unless the partition sets
//     DefMemPerCPU or DefMemPerNode (select/cons_tres job_test.c
//     _set_gpu_defaults).
//   - A node offers RealMemory minus MemSpecLimit (job_test.c
//     _can_job_run_on_node). A per-node default above it, or a per-CPU
//     default whose one CPU (or, for --exclusive, every CPU) does not fit,
//     leaves no CPU to allocate; a DefMemPerGPU above it removes every GPU
//     of the node, and DefMemPerGPU × GPUs above it fewer GPUs than the job
//     asks for (gres_select_filter.c gres_select_filter_remove_unusable,
//     which reads the default even when the job passes --mem: only
//     --mem-per-gpu replaces it). The job is refused at submit with
//     "Requested node configuration is not available".

// MemoryDefaultUnfit reports memory defaults that a standard job shape
// cannot get on a partition's nodes.
var MemoryDefaultUnfit = &lint.Rule{
	ID:       "memory-default-unfit",
	Severity: diag.Error,
	Summary:  "A memory default is more than a partition's nodes have for a standard job shape",
	Doc: doc("A job that gives no memory size gets the partition's (else the cluster's) DefMemPerNode or "+
		"DefMemPerCPU, and, when it asks for GPUs without --mem-per-gpu, DefMemPerGPU per GPU. The rule computes "+
		"that default for the standard job shapes of each partition and pool: one task (one CPU), one GPU, every "+
		"GPU of one node, and a whole node (--exclusive, every CPU), and compares it with the node's RealMemory "+
		"as rendered (the machine type's memory less the slurm-gcp reserve, or the nodeSets entry's RealMemory) "+
		"less MemSpecLimit. Slurm refuses such a job at submit (\"Requested node configuration is not "+
		"available\"). An error when the default fails the smallest job of its kind (one task, or one GPU) on "+
		"every pool of the partition: no job can use the default there. A warning when it fails only larger "+
		"shapes, or only some pools: those jobs must pass --mem (or --mem-per-gpu; --mem does not replace "+
		"DefMemPerGPU in select/cons_tres). In a partition with OverSubscribe=EXCLUSIVE (or Exclusive) every job "+
		"takes whole nodes, so the whole-node shapes are the smallest there: a one-task job is refused when "+
		"DefMemPerCPU × the node's CPUs does not fit, a one-GPU job when DefMemPerGPU × its GPUs does not. "+
		"A whole-node job gets the node's CPUs less those a node set's CPUSpecList or CoreSpecCount keeps for "+
		"the system (22.05, 24.11, 26.05). "+
		"A DefMemPerCPU above MaxMemPerCPU is not refused: Slurm multiplies the job's CPUs per task by "+
		"ceil(DefMemPerCPU / MaxMemPerCPU) and divides the memory per CPU by the same, rounding up; the "+
		"whole-node shape is checked with that memory per CPU (22.05, 24.11, 26.05). "+
		"A GPU job gets DefCpuPerGPU CPUs per GPU, each given DefMemPerCPU where no DefMemPerGPU applies: "+
		"above the node's memory, it is refused with or without --mem-per-gpu (a warning; 22.05, 24.11, 26.05). "+
		"A partition's DefMemPerNode of 0 leaves its jobs the cluster's default; so does its DefMemPerCPU of 0 "+
		"from 25.05 on (22.05 and 24.11 keep the partition's 0). "+
		"A default above MaxMemPerNode or MaxMemPerCPU is shape-mem-limit's "+
		"(slurmctld/job_mgr.c: _get_def_mem, _valid_pn_min_mem; "+
		"select/cons_tres: job_test.c _set_gpu_defaults and _can_job_run_on_node, gres_select_filter.c).",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {DefMemPerGPU: \"600000\"}}",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {DefMemPerGPU: \"492974\"}}"),
	Check: checkMemoryDefaults,
}

// memDefault is the memory default of one kind a partition's jobs get.
type memDefault struct {
	key string // DefMemPerNode, DefMemPerCPU or DefMemPerGPU
	mib uint64
	kv  *ir.KV // the user's pair, or nil for the service's baseline
	// per is, for a DefMemPerCPU above MaxMemPerCPU, the memory per CPU
	// Slurm lowers it to (0 otherwise): see perCPUUnderMax.
	per   uint64
	max   uint64 // the MaxMemPerCPU that lowered it
	ratio uint64 // the CPUs per task it takes: ceil(mib / max)
}

// perCPUUnderMax models slurmctld's answer to a per-CPU memory above
// MaxMemPerCPU (job_mgr.c _valid_pn_min_mem, the same in 22.05, 24.11
// and 26.05): it multiplies the job's CPUs per task by
// ratio = ceil(mem / max) and lowers the memory per CPU to
// ceil(mem / ratio), so the job is not refused. A whole-node job then
// needs the lowered memory per CPU times the node's CPUs.
func perCPUUnderMax(def *memDefault, limit *memDefault) *memDefault {
	if def == nil || def.key != "DefMemPerCPU" || limit == nil || limit.key != "MaxMemPerCPU" ||
		limit.mib == 0 || infinite(limit.mib) || def.mib <= limit.mib {
		return def
	}
	ratio := (def.mib + limit.mib - 1) / limit.mib
	out := *def
	out.per = (def.mib + ratio - 1) / ratio
	out.max = limit.mib
	out.ratio = ratio
	return &out
}

// perCPU is the memory per CPU a job gets from a DefMemPerCPU default.
func (d *memDefault) perCPU() uint64 {
	if d.per > 0 {
		return d.per
	}
	return d.mib
}

// perCPUStr names a DefMemPerCPU default and, when MaxMemPerCPU lowered
// it, the memory per CPU Slurm gives.
func (d *memDefault) perCPUStr() string {
	if d.per > 0 {
		return fmt.Sprintf("DefMemPerCPU=%s MiB (lowered to %d MiB per CPU under MaxMemPerCPU=%d)", mibStr(d.mib), d.per, d.max)
	}
	return fmt.Sprintf("DefMemPerCPU=%s MiB", mibStr(d.mib))
}

// shapeFit is one job shape on one pool whose default memory does not fit.
type shapeFit struct {
	def   *memDefault // the default that does not fit
	small bool        // the smallest job of its kind (one task, one GPU)
	msg   string
	hint  string
}

func checkMemoryDefaults(p *lint.Pass) {
	e := effective(p)
	if !e.memoryTracked() || !pluginIs(e.val("SelectType"), "select/cons_tres") || nodeSetsUnknown(p.Cluster) {
		return
	}
	for _, part := range p.Cluster.Slurm.Partitions {
		if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
			continue
		}
		if !partMemoryTracked(e, part, true) {
			continue
		}
		base, gpu := partitionMemDefaults(e, part)
		if base == nil && gpu == nil {
			continue
		}
		base = perCPUUnderMax(base, partitionMemLimit(e, part))
		var unfit []shapeFit
		pools := 0 // pools whose nodes are known
		gpuPools := 0
		for _, id := range part.NodePoolIDs {
			pool := p.Cluster.Pool(id.Value)
			if pool == nil || pool.ID.Value == p.Cluster.Slurm.LoginNodePoolID.Value || pool.Machine == nil {
				continue
			}
			res := noderes.Of(p.Cluster, pool)
			avail, cpus := res.Memory, res.CPUs
			if avail <= 0 || cpus <= 0 {
				continue
			}
			// A whole-node job gets the CPUs a CoreSpecCount or
			// CPUSpecList leaves.
			cpus = res.Usable()
			pools++
			gpus := int(res.GPUs)
			if gpus > 0 {
				gpuPools++
			}
			unfit = append(unfit, poolShapes(part, pool, uint64(avail), cpus, gpus, base, gpu)...)
		}
		checkGPUCPUMemory(p, e, part, base, gpu)
		for _, u := range unfit {
			sev := diag.Warning
			if u.small && allPoolsFail(unfit, u, pools, gpuPools) {
				sev = diag.Error
			}
			if u.def.kv != nil {
				reportValueAs(p, sev, u.def.kv, u.hint, "%s", u.msg)
			} else {
				p.ReportAs(sev, part.ID.Pos, part.ID.Path, u.hint, "%s", u.msg)
			}
		}
	}
}

// allPoolsFail reports whether the smallest shape u stands for fails on
// every pool that can hold it (every pool, or every GPU pool).
func allPoolsFail(unfit []shapeFit, u shapeFit, pools, gpuPools int) bool {
	isGPU := u.def.key == "DefMemPerGPU"
	n := 0
	for _, o := range unfit {
		if o.small && (o.def.key == "DefMemPerGPU") == isGPU {
			n++
		}
	}
	if isGPU {
		return n == gpuPools
	}
	return n == pools
}

// partitionMemDefaults returns the per-node or per-CPU default a job of the
// partition gets without --mem, and the per-GPU default a GPU job gets
// without --mem-per-gpu (nil when none, or when it is 0).
func partitionMemDefaults(e *conf, part *ir.Partition) (base, gpu *memDefault) {
	fromPart := func(key string) *memDefault {
		if kv := lookupKV(part.Config, key); kv != nil {
			if n, ok := memNum(catalog.ScopePartition, key, kv.Value.Value); ok {
				return &memDefault{key: key, mib: n, kv: kv}
			}
		}
		return nil
	}
	fromGlobal := func(key string) *memDefault {
		if s, ok := e.get(key); ok {
			if n, ok := memNum(catalog.ScopeGlobal, key, s.Value); ok {
				return &memDefault{key: key, mib: n, kv: s.KV}
			}
		}
		return nil
	}
	// DefMemPerNode wins over DefMemPerCPU in the same line (read_config.c).
	// A partition's DefMemPerNode of 0 is the value slurmctld reads as
	// unset: the cluster's default applies (every release). So is its
	// DefMemPerCPU of 0 from 25.05 on (_get_def_mem skips a bare
	// MEM_PER_CPU); before, it is a default of its own (workload seed
	// 20262004 case 11: 26.05 gave a whole-node job the cluster's
	// DefMemPerCPU, 24.11 did not).
	partBase := fromPart("DefMemPerNode")
	switch {
	case partBase != nil && partBase.mib == 0:
		partBase = nil // and a DefMemPerCPU beside it is ignored
	case partBase == nil:
		partBase = fromPart("DefMemPerCPU")
		if partBase != nil && partBase.mib == 0 && e.v >= catalog.V2505 {
			partBase = nil
		}
	}
	base = partBase
	if base == nil {
		if base = fromGlobal("DefMemPerNode"); base == nil {
			base = fromGlobal("DefMemPerCPU")
		}
	}
	gpu = fromPart("DefMemPerGPU")
	if gpu == nil && partBase == nil {
		gpu = fromGlobal("DefMemPerGPU")
	}
	if base != nil && base.mib == 0 {
		base = nil
	}
	if gpu != nil && gpu.mib == 0 {
		gpu = nil
	}
	return base, gpu
}

// memNum reads a memory key's value as Slurm does (UNLIMITED included).
func memNum(scope catalog.Scope, key, value string) (uint64, bool) {
	if param, ok := catalog.Default().Lookup(scope, key); ok {
		if n, ok := catalog.ParseNumber(param, value); ok {
			return n, true
		}
	}
	n, ok := parseNum(value)
	return uint64(max(n, 0)), ok
}

// poolShapes returns the standard job shapes whose default memory does not
// fit a pool's node.
func poolShapes(part *ir.Partition, pool *ir.NodePool, avail uint64, cpus int64, gpus int, base, gpu *memDefault) []shapeFit {
	var out []shapeFit
	mt := pool.Machine.Type
	whole := wholeNodes(part) // every job takes whole nodes: the whole-node shapes are the smallest
	where := fmt.Sprintf("partition %q, pool %q (%s): ", part.ID.Value, pool.ID.Value, mt)
	node := fmt.Sprintf("a node offers %d MiB", avail)
	if base != nil {
		switch {
		case base.key == "DefMemPerNode" && base.mib > avail:
			out = append(out, shapeFit{def: base, small: true,
				msg:  where + fmt.Sprintf("no job without --mem fits its nodes: DefMemPerNode=%s MiB, %s", mibStr(base.mib), node),
				hint: fmt.Sprintf("set DefMemPerNode to at most %d, or jobs must pass --mem", avail)})
		case base.key == "DefMemPerCPU" && base.mib > avail:
			out = append(out, shapeFit{def: base, small: true,
				msg:  where + fmt.Sprintf("no job without --mem fits its nodes: DefMemPerCPU=%s MiB for one CPU, %s", mibStr(base.mib), node),
				hint: fmt.Sprintf("set DefMemPerCPU to at most %d (the node memory per CPU), or jobs must pass --mem", avail/uint64(cpus))})
		case base.key == "DefMemPerCPU" && base.ratio > uint64(cpus):
			// The raised CPUs per task do not fit a node: sbatch refuses
			// every job without --mem ("Requested node configuration is not
			// available", "CPU count per node can not be satisfied"; workload
			// seed 20261213, 22.05).
			out = append(out, shapeFit{def: base, small: true,
				msg: where + fmt.Sprintf("no job without --mem fits its nodes: DefMemPerCPU=%s MiB is above MaxMemPerCPU=%d MiB, so Slurm gives each task %d CPUs (%s ÷ %d, rounded up), more than the %d CPUs a node has for jobs",
					mibStr(base.mib), base.max, base.ratio, mibStr(base.mib), base.max, cpus),
				hint: fmt.Sprintf("set DefMemPerCPU to at most MaxMemPerCPU (%d), or jobs must pass --mem", base.max)})
		case base.key == "DefMemPerCPU" && mulOver(base.perCPU(), uint64(cpus), avail):
			what := "a whole-node job (--exclusive) without --mem does not fit"
			if whole {
				what = "every job here takes a whole node (OverSubscribe=EXCLUSIVE or Exclusive), and none without --mem fits"
			}
			out = append(out, shapeFit{def: base, small: whole,
				msg: where + fmt.Sprintf("%s: %s × %d CPUs = %s MiB, %s (%d MiB per CPU)",
					what, base.perCPUStr(), cpus, mibStr(mul(base.perCPU(), uint64(cpus))), node, avail/uint64(cpus)),
				hint: fmt.Sprintf("set DefMemPerCPU to at most %d (the node memory per CPU), or --exclusive jobs must pass --mem", avail/uint64(cpus))})
		}
	}
	if gpu != nil && gpus > 0 {
		per := avail / uint64(gpus)
		switch {
		case gpu.mib > avail:
			out = append(out, shapeFit{def: gpu, small: true,
				msg: where + fmt.Sprintf("no GPU job without --mem-per-gpu fits its nodes, with --mem too: DefMemPerGPU=%s MiB for one GPU, %s (%d MiB per GPU)",
					mibStr(gpu.mib), node, per),
				hint: fmt.Sprintf("set DefMemPerGPU to at most %d (the node memory per GPU), or jobs must pass --mem-per-gpu", per)})
		case gpus > 1 && mulOver(gpu.mib, uint64(gpus), avail):
			what := fmt.Sprintf("a job asking for all %d GPUs of a node without --mem-per-gpu does not fit", gpus)
			if whole {
				what = fmt.Sprintf("every GPU job here takes a whole node and its %d GPUs (OverSubscribe=EXCLUSIVE or Exclusive), and none without --mem-per-gpu fits", gpus)
			}
			out = append(out, shapeFit{def: gpu, small: whole,
				msg: where + fmt.Sprintf("%s, with --mem too: DefMemPerGPU=%s MiB × %d GPUs = %s MiB, %s (%d MiB per GPU)",
					what, mibStr(gpu.mib), gpus, mibStr(mul(gpu.mib, uint64(gpus))), node, per),
				hint: fmt.Sprintf("set DefMemPerGPU to at most %d (the node memory per GPU), or jobs must pass --mem-per-gpu", per)})
		}
	}
	return out
}

// mul multiplies, saturating at the largest uint64.
func mul(a, b uint64) uint64 {
	if b != 0 && a > math.MaxUint64/b {
		return math.MaxUint64
	}
	return a * b
}

// mulOver reports whether a × b exceeds limit.
func mulOver(a, b, limit uint64) bool { return mul(a, b) > limit }

// mibStr prints a MiB count; Slurm's INFINITE64 (UNLIMITED) as UNLIMITED.
func mibStr(n uint64) string {
	if n >= math.MaxUint64-1 {
		return "UNLIMITED"
	}
	return fmt.Sprint(n)
}
