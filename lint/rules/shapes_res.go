package rules

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
	"github.com/slurmspec/slurmspec/schema/noderes"
)

// CPU and memory limits of a partition against the standard job shapes
// (see shapes.go).

// ShapeCPULimit reports MaxCPUsPerNode and DefCpuPerGPU values that leave
// a standard job shape no node.
var ShapeCPULimit = &lint.Rule{
	ID:       "shape-cpu-limit",
	Severity: diag.Error,
	Summary:  "MaxCPUsPerNode or DefCpuPerGPU leaves a whole-node or GPU job no node of a partition",
	Doc: doc("A whole-node job (--exclusive) takes every CPU of its node; with MaxCPUsPerNode below the node's "+
		"CPUs it is refused at submit (\"Requested node configuration is not available\"), with or without "+
		"sizes; in a partition with OverSubscribe=EXCLUSIVE every job is such a job, and none runs. A GPU job that gives no --cpus-per-gpu gets DefCpuPerGPU CPUs per GPU: one GPU needs DefCpuPerGPU "+
		"CPUs, every GPU of a node DefCpuPerGPU × GPUs, within the node's CPUs less those a node set's "+
		"CoreSpecCount keeps for the system; otherwise the job is refused "+
		"the same way (22.05, 24.11, 26.05). MaxCPUsPerNode does not refuse it: a job asking for 8 GPUs at "+
		"DefCpuPerGPU=4 runs with MaxCPUsPerNode=16. An error when no job of the shape can run on any "+
		"pool of the partition (a whole node, or one GPU); a warning when only the all-GPU job fails, or only "+
		"on some pools: those jobs must pass --cpus-per-gpu. MaxCPUsPerNode=0 admits no job at all (refused at "+
		"submit, or pending with reason PartitionConfig; 22.05, 24.11, 26.05). "+
		"MaxCPUsPerSocket stops no shape on the nodes "+
		"slurmspec renders (CPUs= only, so one CPU per socket).",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"64\"}}  # 8 × 64 > 224 CPUs",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"28\"}}"),
	Check: func(p *lint.Pass) {
		if nodeSetsUnknown(p.Cluster) {
			return // a node set's CoreSpecCount or CPUSpecList may be unread
		}
		e := effective(p)
		for _, part := range p.Cluster.Slurm.Partitions {
			if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
				continue
			}
			nodes := partitionShapeNodes(p.Cluster, part)
			if len(nodes) == 0 {
				continue
			}
			capKV, capN, capOK := partUint(part, "MaxCPUsPerNode")
			if capOK && infinite(capN) {
				capOK = false
			}
			switch {
			case capOK && capN == 0:
				reportValue(p, capKV, "remove MaxCPUsPerNode (no limit), or set it to the CPUs a job may take on a node",
					"partition %q: MaxCPUsPerNode=0 admits no job: every job is refused at submit (\"Requested node configuration is not available\") or pends for ever (PartitionConfig)",
					part.ID.Value)
			case capOK:
				checkExclusiveCPUs(p, part, nodes, capKV, int64(capN))
			}
			checkCPUsPerGPU(p, e, part, nodes)
		}
	},
}

// checkExclusiveCPUs reports a MaxCPUsPerNode below the CPUs of the
// partition's nodes: no --exclusive job fits them.
func checkExclusiveCPUs(p *lint.Pass, part *ir.Partition, nodes []shapeNode, kv *ir.KV, limit int64) {
	var over []string
	for _, n := range nodes {
		if free := n.Usable(); free > limit {
			over = append(over, fmt.Sprintf("pool %q (%s) has %d", n.pool.ID.Value, n.pool.Machine.Type, free))
		}
	}
	if len(over) == 0 {
		return
	}
	sev := diag.Warning
	if len(over) == len(nodes) {
		sev = diag.Error
	}
	what := "a whole-node job (--exclusive) is refused at submit"
	if wholeNodes(part) {
		what = "every job takes a whole node here (OverSubscribe=EXCLUSIVE or Exclusive) and is refused at submit"
	}
	reportValueAs(p, sev, kv, "raise MaxCPUsPerNode to the node's CPUs, or run whole-node jobs in another partition over these nodes",
		"partition %q: %s: MaxCPUsPerNode=%d, and a node of %s CPUs",
		part.ID.Value, what, limit, strings.Join(over, ", a node of "))
}

// checkCPUsPerGPU reports a DefCpuPerGPU whose CPUs for one GPU, or for
// every GPU of a node, exceed the node's CPUs.
func checkCPUsPerGPU(p *lint.Pass, e *conf, part *ir.Partition, nodes []shapeNode) {
	kv, per := partitionCPUsPerGPU(e, part)
	if kv == nil {
		return
	}
	gpuPools, oneFails := 0, 0
	type miss struct {
		n   shapeNode
		cpu int64
		one bool
	}
	var misses []miss
	for _, n := range nodes {
		if n.GPUs == 0 {
			continue
		}
		gpuPools++
		limit := n.Usable()
		switch {
		case per > uint64(limit):
			oneFails++
			misses = append(misses, miss{n, limit, true})
		case mulOver(per, uint64(n.GPUs), uint64(limit)):
			misses = append(misses, miss{n, limit, false})
		}
	}
	for _, m := range misses {
		where := fmt.Sprintf("partition %q, pool %q (%s): ", part.ID.Value, m.n.pool.ID.Value, m.n.pool.Machine.Type)
		of := fmt.Sprintf("a node has %d CPUs", m.cpu)
		if m.n.Spec > 0 {
			of = fmt.Sprintf("a node has %d CPUs for jobs (%d less %d specialized)", m.cpu, m.n.CPUs, m.n.Spec)
		}
		hint := fmt.Sprintf("set DefCpuPerGPU to at most %d (the CPUs per GPU), or jobs must pass --cpus-per-gpu", m.cpu/int64(m.n.GPUs))
		if m.one {
			sev := diag.Warning
			if oneFails == gpuPools {
				sev = diag.Error
			}
			reportValueAs(p, sev, kv, hint, "%sno GPU job without --cpus-per-gpu fits its nodes: DefCpuPerGPU=%d CPUs for one GPU, %s", where, per, of)
			continue
		}
		reportValueAs(p, diag.Warning, kv, hint,
			"%sa job asking for all %d GPUs of a node without --cpus-per-gpu is refused at submit: DefCpuPerGPU=%d × %d GPUs = %d CPUs, %s",
			where, m.n.GPUs, per, m.n.GPUs, per*uint64(m.n.GPUs), of)
	}
}

// ShapeMemLimit reports MaxMemPerNode and MaxMemPerCPU values below the
// memory a job without --mem is given.
var ShapeMemLimit = &lint.Rule{
	ID:       "shape-mem-limit",
	Severity: diag.Warning,
	Summary:  "MaxMemPerNode or MaxMemPerCPU is below the memory a job without --mem is given",
	Doc: doc("A job that gives no --mem gets the partition's (else the cluster's) DefMemPerNode, or with no "+
		"memory default all of its node's memory. Slurm checks that against MaxMemPerNode (the partition's, "+
		"else the cluster's): above it, the job pends for ever (reason MaxMemPerLimit; PartitionConfig on "+
		"22.05), and so does every GPU job that gives --mem-per-gpu instead of --mem. Against MaxMemPerCPU, a "+
		"job with no memory default is given more CPUs to cover the node's memory, and is refused at submit "+
		"(\"Requested node configuration is not available\") when the node's CPUs cannot. A warning: jobs run "+
		"when they pass --mem within the limit (22.05, 24.11, 26.05). The CPUs counted are those a whole-node job "+
		"gets: the node's less those a node set's CPUSpecList or CoreSpecCount keeps. The check of a job with no memory default "+
		"is made with SelectTypeParameters CR_Core too, which otherwise tracks no memory (22.05, 26.05). A "+
		"DefMemPerCPU above MaxMemPerCPU stops no job: Slurm gives it more CPUs. A DefMemPerCPU is given per CPU the "+
		"job gets on a node: one for a one-task job (and for each node of a job of one task per node), every CPU "+
		"less the specialized ones for a whole-node job (--exclusive, or any job of an OverSubscribe=EXCLUSIVE "+
		"partition); above MaxMemPerNode, that job pends for ever too (MaxMemPerLimit; PartitionConfig on 22.05). "+
		"A job with no memory default is checked with the memory of the partition's first node by name (slurmctld "+
		"sorts its nodes by name), whatever node it runs on: in a partition of several pools, that node's pool "+
		"decides for all of them. A limit of 0 is no limit, as UNLIMITED is. A DefMemPerNode above MaxMemPerCPU times "+
		"a node's CPUs refuses every job without --mem at submit (\"CPU count per node can not be satisfied\"; "+
		"22.05, 24.11, 26.05): Slurm would need more CPUs than the node has to hold it.",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MaxMemPerNode: \"100000\"}}",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MaxMemPerNode: \"100000\", DefMemPerNode: \"60000\"}}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if !pluginIs(e.val("SelectType"), "select/cons_tres") || nodeSetsUnknown(p.Cluster) {
			return // a node set's MemSpecLimit or specialized CPUs may be unread
		}
		tracked := e.memoryTracked()
		for _, part := range p.Cluster.Slurm.Partitions {
			if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
				continue
			}
			partTracked := partMemoryTracked(e, part, tracked)
			// 0, like UNLIMITED, is no limit: slurmctld checks no job
			// against it (workload seed 20262001).
			limit := partitionMemLimit(e, part)
			if limit == nil || infinite(limit.mib) || limit.mib == 0 {
				continue
			}
			base, gpu := partitionMemDefaults(e, part)
			checkMemLimit(p, part, partitionShapeNodes(p.Cluster, part), limit, base, partTracked, gpu != nil)
		}
	},
}

// checkMemLimit reports, per pool, a memory limit that the memory a job
// without --mem gets exceeds. gpuDef is set when a DefMemPerGPU applies to
// the partition's GPU jobs.
func checkMemLimit(p *lint.Pass, part *ir.Partition, nodes []shapeNode, limit, base *memDefault, tracked, gpuDef bool) {
	report := func(n shapeNode, at *memDefault, hint, format string, args ...any) {
		where := fmt.Sprintf("partition %q, pool %q (%s): ", part.ID.Value, n.pool.ID.Value, n.pool.Machine.Type)
		if at.kv != nil {
			reportValueAs(p, diag.Warning, at.kv, hint, where+format, args...)
			return
		}
		p.ReportAs(diag.Warning, part.ID.Pos, part.ID.Path, hint, where+format, args...)
	}
	// A job without a memory default is checked with the memory of the
	// partition's first node by name, whatever node it runs on.
	first, firstMem, firstOK := firstNode(p.Cluster, part)
	for _, n := range nodes {
		checked, given := n.avail(), "a job without --mem is given the node's %d MiB"
		if firstOK && firstMem != n.avail() {
			checked, given = firstMem, "a job without --mem is checked with the node's memory of "+first+", the partition's first node by name: %d MiB"
		}
		switch {
		case limit.key == "MaxMemPerNode" && base == nil && !firstOK:
			// The first node's memory is unknown: nothing to say.
		case limit.key == "MaxMemPerNode" && base == nil && checked > limit.mib:
			also := ", and so does a GPU job with --mem-per-gpu"
			if !tracked {
				also = " (SelectTypeParameters tracks no memory, but slurmctld makes this check)"
			}
			report(n, limit, fmt.Sprintf("set DefMemPerNode to at most %d, or jobs must pass --mem", limit.mib),
				given+", above MaxMemPerNode=%d MiB: it pends for ever (MaxMemPerLimit)%s",
				checked, limit.mib, also)
		case limit.key == "MaxMemPerNode" && base != nil && base.key == "DefMemPerNode" && base.mib > limit.mib:
			// With CR_Core too (22.05, 24.11, 26.05: TestWideClasses).
			report(n, base, fmt.Sprintf("set DefMemPerNode to at most %d", limit.mib),
				"a job without --mem is given DefMemPerNode=%d MiB, above MaxMemPerNode=%d MiB: it pends for ever (MaxMemPerLimit)",
				base.mib, limit.mib)
		case limit.key == "MaxMemPerNode" && base != nil && base.key == "DefMemPerCPU":
			// With CR_Core too (22.05, 24.11, 26.05: TestWideClasses).
			if msg, hint := perCPUOverNode(part, n, base, limit, gpuDef); msg != "" {
				report(n, base, hint, "%s", msg)
			}
		case limit.key == "MaxMemPerCPU" && base != nil && base.key == "DefMemPerNode" &&
			base.mib <= n.avail() && base.mib > mul(limit.mib, uint64(n.Usable())) && n.Usable() > 0:
			// slurmctld turns the node's memory into MaxMemPerCPU's CPUs,
			// more than the node has, with CR_Core too (workload seed 20264001 case 54,
			// 22.05 and 24.11, 26.05 in TestWideClasses: "CPU count per node can
			// not be satisfied").
			cpus := fmt.Sprintf("%d CPUs", n.CPUs)
			if n.Spec > 0 {
				cpus = fmt.Sprintf("%d CPUs (%d less %d specialized)", n.Usable(), n.CPUs, n.Spec)
			}
			gpuJobs := ""
			if n.GPUs > 0 && gpuDef {
				gpuJobs = " (GPU jobs get DefMemPerGPU instead)"
			}
			report(n, base, fmt.Sprintf("set DefMemPerNode to at most %d (MaxMemPerCPU × CPUs), or jobs must pass --mem", mul(limit.mib, uint64(n.Usable()))),
				"a job without --mem is given DefMemPerNode=%d MiB, more than MaxMemPerCPU=%d MiB × %s = %d MiB: it needs %d CPUs on a node and is refused at submit (\"CPU count per node can not be satisfied\")%s",
				base.mib, limit.mib, cpus, mul(limit.mib, uint64(n.Usable())), (base.mib+limit.mib-1)/limit.mib, gpuJobs)
		case limit.key == "MaxMemPerCPU" && base == nil && firstOK && checked > mul(limit.mib, uint64(n.Usable())):
			cpus := fmt.Sprintf("%d CPUs", n.CPUs)
			if n.Spec > 0 {
				cpus = fmt.Sprintf("%d CPUs (%d less %d specialized)", n.Usable(), n.CPUs, n.Spec)
			}
			report(n, limit, fmt.Sprintf("set DefMemPerCPU (at most %d), or jobs must pass --mem", limit.mib),
				given+", more than MaxMemPerCPU=%d MiB × %s = %d MiB: it is refused at submit",
				checked, limit.mib, cpus, mul(limit.mib, uint64(n.Usable())))
		}
	}
}

// partitionMemLimit is the memory limit of a partition's jobs: its own
// MaxMemPerNode or MaxMemPerCPU (MaxMemPerNode wins in one line), else the
// cluster's; nil when none.
func partitionMemLimit(e *conf, part *ir.Partition) *memDefault {
	for _, key := range []string{"MaxMemPerNode", "MaxMemPerCPU"} {
		if kv := lookupKV(part.Config, key); kv != nil {
			if n, ok := memNum(catalog.ScopePartition, key, kv.Value.Value); ok {
				return &memDefault{key: key, mib: n, kv: kv}
			}
		}
	}
	for _, key := range []string{"MaxMemPerNode", "MaxMemPerCPU"} {
		if s, ok := e.get(key); ok {
			if n, ok := memNum(catalog.ScopeGlobal, key, s.Value); ok {
				return &memDefault{key: key, mib: n, kv: s.KV}
			}
		}
	}
	return nil
}

// perCPUOverNode returns the finding (and its hint) when a DefMemPerCPU
// times the CPUs a standard shape gets on a node of n's pool exceeds
// MaxMemPerNode, or "": one CPU (one task, two nodes of one task each, a
// GPU job without DefCpuPerGPU), or every CPU less the specialized ones
// (--exclusive, or every job of an OverSubscribe=EXCLUSIVE partition).
// slurmctld holds such a job pending for ever (MaxMemPerLimit; 22.05:
// PartitionConfig). A GPU job without --mem-per-gpu gets DefMemPerGPU
// instead where one applies (gpuDef), so the message then leaves it out.
func perCPUOverNode(part *ir.Partition, n shapeNode, base, limit *memDefault, gpuDef bool) (msg, hint string) {
	cpus := n.Usable()
	if cpus <= 0 {
		return "", ""
	}
	of := fmt.Sprintf("%d CPUs", cpus)
	if n.Spec > 0 {
		of = fmt.Sprintf("%d CPUs (%d less %d specialized)", cpus, n.CPUs, n.Spec)
	}
	gpuJobs := ""
	switch {
	case n.GPUs > 0 && gpuDef:
		gpuJobs = " (GPU jobs get DefMemPerGPU instead)"
	case n.GPUs > 0:
		gpuJobs = ", GPU jobs without --mem-per-gpu too"
	}
	perNode := limit.mib / uint64(cpus)
	switch {
	case base.mib > limit.mib:
		return fmt.Sprintf("a job without --mem is given DefMemPerCPU=%s MiB for one CPU, above MaxMemPerNode=%d MiB: no job without --mem runs, it pends for ever (MaxMemPerLimit)%s",
				mibStr(base.mib), limit.mib, gpuJobs),
			fmt.Sprintf("set DefMemPerCPU to at most %d (MaxMemPerNode over a node's %d CPUs), or jobs must pass --mem", perNode, cpus)
	case mulOver(base.mib, uint64(cpus), limit.mib):
		what := "a whole-node job (--exclusive) without --mem is given"
		if wholeNodes(part) {
			what = "every job here takes a whole node (OverSubscribe=EXCLUSIVE or Exclusive), and one without --mem is given"
		} else {
			gpuJobs = ""
		}
		return fmt.Sprintf("%s DefMemPerCPU=%s MiB × %s = %s MiB per node, above MaxMemPerNode=%d MiB: it pends for ever (MaxMemPerLimit)%s",
				what, mibStr(base.mib), of, mibStr(mul(base.mib, uint64(cpus))), limit.mib, gpuJobs),
			fmt.Sprintf("set DefMemPerCPU to at most %d (MaxMemPerNode over a node's %d CPUs), or --exclusive jobs must pass --mem", perNode, cpus)
	}
	return "", ""
}

// firstNode is the node whose memory slurmctld checks a job without a
// memory default against MaxMemPerNode and MaxMemPerCPU: _mem_per_node_part
// takes the partition's first node in the node table, which slurmctld sorts
// by name in natural order (read_config.c, _sort_nodes_by_name; 22.05 to
// 26.05), so in a partition of several pools one pool's node decides for
// every job (workload seed 20262002). ok is false when that node's memory
// is unknown.
func firstNode(c *ir.Cluster, part *ir.Partition) (name string, mem uint64, ok bool) {
	var first *ir.NodePool
	for _, id := range part.NodePoolIDs {
		pool := c.Pool(id.Value)
		if pool == nil || pool.MaxNodeCount.Value < 1 {
			continue
		}
		n := managed.NodeName(c.ID.Value, pool.ID.Value, 0)
		if first == nil || natLess(n, name) {
			first, name = pool, n
		}
	}
	if first == nil || first.Machine == nil || !first.Machine.Known() {
		return "", 0, false
	}
	avail := noderes.Of(c, first).Memory
	return name, uint64(max(avail, 0)), avail > 0
}

// natLess orders two names as strnatcmp does: runs of digits by their
// value, other bytes one by one.
func natLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			da, db := digitRun(a), digitRun(b)
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// partitionCPUsPerGPU is the DefCpuPerGPU a GPU job of the partition gets
// without --cpus-per-gpu: the partition's, else the cluster's. kv is nil
// when there is none, or it is 0, INFINITE or not a number.
func partitionCPUsPerGPU(e *conf, part *ir.Partition) (kv *ir.KV, per uint64) {
	kv = lookupKV(part.Config, "DefCpuPerGPU")
	scope := catalog.ScopePartition
	if kv == nil {
		kv, scope = e.user("DefCpuPerGPU"), catalog.ScopeGlobal
	}
	if kv == nil {
		return nil, 0
	}
	param, ok := catalog.Default().Lookup(scope, "DefCpuPerGPU")
	if !ok {
		return nil, 0
	}
	per, ok = catalog.ParseNumber(param, kv.Value.Value)
	if !ok || per == 0 || infinite(per) {
		return nil, 0
	}
	return kv, per
}
