package rules_test

// shapeCases are the cases of the shape-* rules. An a4-highgpu-8g node has
// 224 CPUs, 8 GPUs and 3943792 MiB; a4Pool has 4 nodes, defaultPools one
// n2-standard-8 node (8 CPUs, 31408 MiB).
var shapeCases = []ruleCase{
	{rule: "shape-node-limits", name: "MaxNodes=0", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxNodes: »\"0\"}}"}},
	{rule: "shape-node-limits", name: "MinNodes above MaxNodes", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MinNodes: »\"3\", MaxNodes: \"2\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-node-limits", name: "MinNodes above the pools' nodes", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4, cpu], config: {MinNodes: »\"6\"}}"}},
	{rule: "shape-node-limits", name: "MinNodes the pools meet", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4, cpu], config: {MinNodes: \"5\", MaxNodes: UNLIMITED}}"}},
	{rule: "shape-node-limits", name: "MaxNodes=1", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxNodes: \"1\"}}"}},

	{rule: "shape-time-limit", name: "MaxTime=0", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxTime: »\"0\"}}"}},
	{rule: "shape-time-limit", name: "MaxTime=00:00:00", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxTime: »\"00:00:00\"}}"}},
	{rule: "shape-time-limit", name: "DefaultTime above MaxTime", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxTime: \"60\", DefaultTime: \"120\"}}"}},
	{rule: "shape-time-limit", name: "UNLIMITED", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxTime: UNLIMITED}}"}},

	{rule: "shape-cpu-limit", name: "MaxCPUsPerNode below the node's CPUs", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxCPUsPerNode: »\"8\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-cpu-limit", name: "MaxCPUsPerNode at the node's CPUs", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxCPUsPerNode: \"224\"}}\n- {id: debug, nodePoolIds: [cpu], config: {MaxCPUsPerNode: UNLIMITED}}"}},
	{rule: "shape-cpu-limit", name: "DefCpuPerGPU for all GPUs", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: »\"64\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-cpu-limit", name: "DefCpuPerGPU above MaxCPUsPerNode, within the node", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxCPUsPerNode: »\"16\", DefCpuPerGPU: \"4\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-cpu-limit", name: "whole-node partition", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {OverSubscribe: EXCLUSIVE, MaxCPUsPerNode: »\"8\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-cpu-limit", name: "CoreSpecCount leaves too few CPUs for all GPUs", spec: spec{Pools: cpuAndA4,
		NodeSets:   "- {nodePoolId: a4, config: {CoreSpecCount: \"220\"}}",
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: »\"1\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-cpu-limit", name: "CoreSpecCount with a topology of its own", spec: spec{Pools: cpuAndA4,
		NodeSets:   "- {nodePoolId: a4, config: {CoreSpecCount: \"100\", Sockets: \"2\", CoresPerSocket: \"56\", ThreadsPerCore: \"2\"}}",
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"1\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-cpu-limit", name: "global DefCpuPerGPU for one GPU", spec: spec{Pools: cpuAndA4, Config: "DefCpuPerGPU: »\"300\"",
		Partitions: "- {id: gpu, nodePoolIds: [a4]}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-cpu-limit", name: "DefCpuPerGPU within the node", spec: spec{Pools: cpuAndA4, Config: "DefCpuPerGPU: \"28\"",
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxCPUsPerSocket: \"4\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},

	{rule: "shape-mem-limit", name: "MaxMemPerNode without a default", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxMemPerNode: »\"100000\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "shape-mem-limit", name: "DefMemPerNode above the global MaxMemPerNode", spec: spec{Pools: cpuAndA4, Config: "MaxMemPerNode: \"40000\"",
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefMemPerNode: »\"50000\"}}\n- {id: debug, nodePoolIds: [cpu], config: {DefMemPerNode: \"30000\"}}"}},
	{rule: "shape-mem-limit", name: "MaxMemPerCPU without a default", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxMemPerCPU: »\"2000\"}}\n- {id: debug, nodePoolIds: [cpu], config: {MaxMemPerCPU: \"4000\"}}"}},
	{rule: "shape-mem-limit", name: "limits that stop no job", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefMemPerCPU: \"8000\", MaxMemPerCPU: \"4000\"}}\n- {id: debug, nodePoolIds: [cpu], config: {MaxMemPerNode: \"40000\"}}"}},
	// With CR_Core, slurmctld still checks a job's memory, its default's
	// included, against the limits (lab/jobmix TestWideClasses).
	{rule: "shape-mem-limit", name: "memory not tracked: still checked, with a default too", spec: spec{Pools: cpuAndA4, Config: "SelectTypeParameters: CR_Core",
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxMemPerNode: »\"100000\"}}\n- {id: debug, nodePoolIds: [cpu], config: {DefMemPerNode: »\"50000\", MaxMemPerNode: \"40000\"}}"}},
	// MaxMemPerCPU times the CPUs a whole-node job gets: 6 × 3926 < 31408.
	{rule: "shape-mem-limit", name: "CPUSpecList: MaxMemPerCPU times the other CPUs", spec: spec{NodeSets: "- {nodePoolId: cpu, config: {CPUSpecList: \"0-1\"}}",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxMemPerCPU: »\"3926\"}}"}},
	{rule: "shape-mem-limit", name: "CoreSpecCount: MaxMemPerCPU times the other CPUs", spec: spec{NodeSets: "- {nodePoolId: cpu, config: {CoreSpecCount: \"2\"}}",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxMemPerCPU: »\"3926\"}}"}},
	{rule: "shape-mem-limit", name: "MaxMemPerCPU times every CPU", spec: spec{
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxMemPerCPU: \"3926\"}}"}},
	// DefMemPerCPU × 8 CPUs = 31408 MiB, above MaxMemPerNode (workload seed 20261212 case 10).
	{rule: "shape-mem-limit", name: "DefMemPerCPU × CPUs above MaxMemPerNode", spec: spec{
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: »\"3926\", MaxMemPerNode: \"15704\"}}"}},
	{rule: "shape-mem-limit", name: "DefMemPerCPU above MaxMemPerNode", spec: spec{Config: "MaxMemPerNode: \"2000\"",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: »\"3000\"}}"}},
	{rule: "shape-mem-limit", name: "DefMemPerCPU × CPUs in an OverSubscribe=EXCLUSIVE partition", spec: spec{
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {OverSubscribe: EXCLUSIVE, DefMemPerCPU: »\"3926\", MaxMemPerNode: \"15704\"}}"}},
	// CPUSpecList leaves 6 CPUs: 6 × 2600 = 15600 MiB fits.
	{rule: "shape-mem-limit", name: "DefMemPerCPU × the CPUs CPUSpecList leaves", spec: spec{NodeSets: "- {nodePoolId: cpu, config: {CPUSpecList: \"0-1\"}}",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: \"2600\", MaxMemPerNode: \"15704\"}}"}},
	{rule: "shape-mem-limit", name: "DefMemPerCPU × CPUs within MaxMemPerNode", spec: spec{
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: \"1963\", MaxMemPerNode: \"15704\"}}"}},
	{rule: "shape-mem-limit", name: "MemSpecLimit: the node offers less", spec: spec{NodeSets: "- {nodePoolId: cpu, config: {MemSpecLimit: \"2048\"}}",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxMemPerNode: \"30000\"}}"}},
}
