package rules

import (
	"fmt"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

// checkGPUCPUMemory reports, for memory-default-unfit, a GPU job whose
// DefCpuPerGPU CPUs, each given DefMemPerCPU, need more memory than a node
// of the partition offers. slurmctld gives a job without --mem the
// per-CPU default even when it passes --mem-per-gpu, so the sized GPU
// shapes are refused too ("Requested node configuration is not
// available"; workload seed 20262002 case 13, 22.05, 24.11 and 26.05). Only
// where no DefMemPerGPU applies, and the default is not lowered by a
// MaxMemPerCPU below it; a DefCpuPerGPU above the node's CPUs is
// shape-cpu-limit's.
func checkGPUCPUMemory(p *lint.Pass, e *conf, part *ir.Partition, base, gpu *memDefault) {
	if base == nil || base.key != "DefMemPerCPU" || base.per != 0 || gpu != nil {
		return
	}
	kv, per := partitionCPUsPerGPU(e, part)
	if kv == nil {
		return
	}
	for _, n := range partitionShapeNodes(p.Cluster, part) {
		free := uint64(max(n.Usable(), 0))
		if n.GPUs == 0 || per > free {
			continue
		}
		where := fmt.Sprintf("partition %q, pool %q (%s): ", part.ID.Value, n.pool.ID.Value, n.pool.Machine.Type)
		hint := fmt.Sprintf("set DefMemPerCPU to at most %d (the node's memory over DefCpuPerGPU's CPUs), or set DefMemPerGPU; jobs may pass --mem",
			n.avail()/per)
		all := per * uint64(n.GPUs)
		switch {
		case mulOver(per, base.mib, n.avail()):
			reportValueAs(p, diag.Warning, kv, hint,
				"%sa GPU job without --mem does not fit: it gets DefCpuPerGPU=%d CPUs per GPU, each given DefMemPerCPU=%s MiB: %s MiB for one GPU, a node offers %d MiB (--mem-per-gpu does not lift it)",
				where, per, mibStr(base.mib), mibStr(mul(per, base.mib)), n.avail())
		case all <= free && mulOver(all, base.mib, n.avail()):
			reportValueAs(p, diag.Warning, kv, fmt.Sprintf("set DefMemPerCPU to at most %d, or set DefMemPerGPU; jobs may pass --mem", n.avail()/all),
				"%sa job asking for all %d GPUs of a node without --mem does not fit: DefCpuPerGPU=%d × %d GPUs = %d CPUs, each given DefMemPerCPU=%s MiB: %s MiB, a node offers %d MiB (--mem-per-gpu does not lift it)",
				where, n.GPUs, per, n.GPUs, all, mibStr(base.mib), mibStr(mul(all, base.mib)), n.avail())
		}
	}
}
