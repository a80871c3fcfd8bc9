package fidelity

import (
	"math/rand/v2"
	"strconv"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// workloadWideDraws widen the workload generator (issue 26, session 9) the
// way an outside corpus of random settings would: CPUs per GPU and the
// limits they meet, the cluster-wide memory limits and defaults, 0 and
// UNLIMITED where a limit takes them, node topologies and GRES counts of
// the node set's own, a partition's state and access flags, MaxNodes 0 and
// MinNodes above the pool, DefaultTime above MaxTime, MaxTime in every
// format, partition-level SelectTypeParameters and CR_ONE_TASK_PER_CORE,
// EnforcePartLimits, DisableRootJobs, a job_submit plugin, GresTypes and
// AccountingStorageTRES without gres/gpu. TestWorkloadWideDrawsLint
// checks that every value is one the schema lets a spec set.
var workloadWideDraws = []workloadDraw{
	// A GPU job without --cpus-per-gpu gets DefCPUPerGPU CPUs per GPU:
	// at, just above and far above the node's CPUs per GPU, alone or
	// beside a CPU or memory limit it meets.
	{scope: catalog.ScopePartition, key: "DefCPUPerGPU", value: wlPerGPU(func(z wlSizes) []int64 {
		per := z.cpus / z.gpus
		return []int64{1, per / 2, per, per + 1}
	}), more: wlPerGPUCompanion},
	{scope: catalog.ScopeGlobal, key: "DefCPUPerGPU", value: wlPerGPU(func(z wlSizes) []int64 {
		return []int64{z.cpus / z.gpus, z.cpus/z.gpus + 1}
	})},
	// DefMemPerGPU beside MaxMemPerNode or MaxMemPerCPU.
	{scope: catalog.ScopePartition, key: "DefMemPerGPU", value: wlPerGPU(func(z wlSizes) []int64 {
		per := z.mem / z.gpus
		return []int64{per / 2, per}
	}), more: func(r *rand.Rand, z wlSizes, _ string) [][2]string {
		return wlPick(r, [][][2]string{
			{{"MaxMemPerNode", wlInt(z.mem / 2)}},
			{{"MaxMemPerNode", wlInt(z.mem - 1)}},
			{{"MaxMemPerCPU", wlInt(z.mem / z.cpus / 2)}},
			{{"DefMemPerCPU", wlInt(z.mem / z.cpus)}},
		})
	}},
	// The cluster-wide memory limits and defaults.
	wlSized(catalog.ScopeGlobal, "MaxMemPerCPU", func(z wlSizes) []int64 { return []int64{z.mem / z.cpus / 4, z.mem / z.cpus, 0} }),
	wlSized(catalog.ScopeGlobal, "MaxMemPerNode", func(z wlSizes) []int64 { return []int64{z.mem / 2, z.mem, 0} }),
	wlSized(catalog.ScopeGlobal, "DefMemPerNode", func(z wlSizes) []int64 { return []int64{z.mem / 2, z.mem, z.mem + 1} }),
	// 0 and UNLIMITED, which Slurm reads as no limit (or no default).
	wlOf(catalog.ScopePartition, "MaxMemPerCPU", "0", "UNLIMITED"),
	wlOf(catalog.ScopePartition, "MaxMemPerNode", "0", "UNLIMITED"),
	wlOf(catalog.ScopePartition, "DefMemPerCPU", "0", "UNLIMITED"),
	wlOf(catalog.ScopePartition, "MaxCPUsPerNode", "0", "UNLIMITED"),
	// A topology of the node set's own that matches the machine's CPUs
	// (Sockets × CoresPerSocket × ThreadsPerCore), sometimes on one board.
	{scope: catalog.ScopeNode, key: "ThreadsPerCore", value: func(r *rand.Rand, z wlSizes) string {
		if z.cpus%2 == 0 && r.IntN(3) > 0 {
			return "2"
		}
		return "1"
	}, more: func(r *rand.Rand, z wlSizes, value string) [][2]string {
		t, _ := strconv.ParseInt(value, 10, 64)
		s := int64(1)
		if (z.cpus/t)%2 == 0 && r.IntN(2) == 0 {
			s = 2
		}
		out := [][2]string{{"Sockets", wlInt(s)}, {"CoresPerSocket", wlInt(z.cpus / t / s)}}
		if r.IntN(3) == 0 {
			out = append(out, [2]string{"Boards", "1"})
		}
		return out
	}},
	wlSized(catalog.ScopeNode, "CPUs", func(z wlSizes) []int64 { return []int64{z.cpus / 2, z.cpus} }),
	// Fewer GPUs than the machine has, and all of them.
	{scope: catalog.ScopeNode, key: "Gres", value: func(r *rand.Rand, z wlSizes) string {
		if z.gpus == 0 {
			return ""
		}
		n := z.gpus
		if z.gpus >= 2 && r.IntN(2) == 0 {
			n = z.gpus / 2
		}
		return "gpu:" + wlInt(n)
	}},
	wlOf(catalog.ScopePartition, "State", "UP", "DOWN", "DRAIN", "INACTIVE"),
	wlOf(catalog.ScopePartition, "Hidden", "YES"),
	wlOf(catalog.ScopePartition, "RootOnly", "YES", "NO"),
	wlOf(catalog.ScopePartition, "ReqResv", "YES", "NO"),
	wlOf(catalog.ScopePartition, "MaxNodes", "0"),
	wlOf(catalog.ScopePartition, "MinNodes", "3"),
	{scope: catalog.ScopePartition, key: "DefaultTime", value: func(r *rand.Rand, _ wlSizes) string {
		return wlPick(r, []string{"2-00:00:00", "UNLIMITED", "90"})
	}, more: func(r *rand.Rand, _ wlSizes, _ string) [][2]string {
		return [][2]string{{"MaxTime", wlPick(r, []string{"60", "1:00:00"})}}
	}},
	wlOf(catalog.ScopePartition, "MaxTime", "1:00", "2-00", "INFINITE", "60:00", "1-0", "00:30:00"),
	wlOf(catalog.ScopePartition, "OverSubscribe", "FORCE", "EXCLUSIVE", "YES:4"),
	wlOf(catalog.ScopePartition, "SelectTypeParameters", "CR_Core", "CR_Core_Memory", "CR_Socket", "CR_Socket_Memory"),
	wlOf(catalog.ScopeGlobal, "SelectTypeParameters", "CR_Core_Memory,CR_ONE_TASK_PER_CORE", "CR_Socket", "CR_Core,CR_ONE_TASK_PER_CORE", "CR_Socket_Memory"),
	wlOf(catalog.ScopeGlobal, "EnforcePartLimits", "ALL", "ANY", "NO"),
	wlOf(catalog.ScopeGlobal, "DisableRootJobs", "YES"),
	wlOf(catalog.ScopePartition, "DisableRootJobs", "YES"),
	wlOf(catalog.ScopeGlobal, "JobSubmitPlugins", "require_timelimit"),
	wlOf(catalog.ScopeGlobal, "GresTypes", "gpu"),
	wlOf(catalog.ScopeGlobal, "AccountingStorageTRES", "cpu,mem", "cpu,mem,node,billing"),
}

// wlPerGPU returns a value maker for a GPU key: one of f's numbers, or ""
// (not drawn) on a pool without GPUs.
func wlPerGPU(f func(z wlSizes) []int64) func(r *rand.Rand, z wlSizes) string {
	return func(r *rand.Rand, z wlSizes) string {
		if z.gpus == 0 {
			return ""
		}
		return wlInt(max(wlPick(r, f(z)), 0))
	}
}

// wlPerGPUCompanion is what DefCPUPerGPU may meet in its partition: a
// CPU limit below the node's, or memory per CPU that its CPUs multiply.
func wlPerGPUCompanion(r *rand.Rand, z wlSizes, _ string) [][2]string {
	return wlPick(r, [][][2]string{
		nil,
		{{"MaxCPUsPerNode", wlInt(max(z.cpus/2, 1))}},
		{{"MaxCPUsPerNode", wlInt(max(z.cpus-1, 1))}},
		{{"DefMemPerCPU", wlInt(z.mem / z.cpus)}},
		{{"MaxMemPerNode", wlInt(z.mem / 2)}},
	})
}

func wlInt(v int64) string { return strconv.FormatInt(v, 10) }
