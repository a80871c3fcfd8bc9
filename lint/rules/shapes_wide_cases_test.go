package rules_test

// wideShapeCases are the cases of the classes the widened workload
// generator found (issue 26, session 9; docs/fidelity.md items 12 on).
var wideShapeCases = []ruleCase{
	{rule: "shape-time-limit", name: "JobSubmitPlugins require_timelimit", spec: spec{Config: "JobSubmitPlugins: »require_timelimit"}},
	{rule: "shape-time-limit", name: "JobSubmitPlugins job_submit/require_timelimit among others", spec: spec{Config: "JobSubmitPlugins: »\"job_submit/all_partitions,job_submit/require_timelimit\""}},
	{rule: "shape-time-limit", name: "JobSubmitPlugins without require_timelimit", spec: spec{Config: "JobSubmitPlugins: all_partitions"}},

	{rule: "shape-partition-closed", name: "State=DOWN", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {State: »DOWN}}"}},
	{rule: "shape-partition-closed", name: "State=DRAIN", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {State: »DRAIN}}"}},
	{rule: "shape-partition-closed", name: "State=INACTIVE", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {State: »INACTIVE}}"}},
	{rule: "shape-partition-closed", name: "RootOnly=YES", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {RootOnly: »\"YES\"}}"}},
	{rule: "shape-partition-closed", name: "ReqResv=YES", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {ReqResv: »\"YES\"}}"}},
	{rule: "shape-partition-closed", name: "State=UP, RootOnly=NO, ReqResv=NO", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {State: UP, RootOnly: \"NO\", ReqResv: \"NO\", Hidden: \"YES\"}}"}},

	// 0 is no limit (workload seed 20262001).
	{rule: "shape-mem-limit", name: "MaxMemPerCPU=0", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxMemPerCPU: \"0\"}}"}},
	{rule: "shape-mem-limit", name: "MaxMemPerNode=0", spec: spec{Config: "MaxMemPerNode: \"0\""}},

	// DefMemPerNode above MaxMemPerCPU × the node's CPUs (workload seed
	// 20264001 case 54): an n2-standard-8 has 8 CPUs, 2000 × 8 = 16000.
	{rule: "shape-mem-limit", name: "DefMemPerNode above MaxMemPerCPU × CPUs", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerNode: »\"16001\", MaxMemPerCPU: \"2000\"}}"}},
	{rule: "shape-mem-limit", name: "DefMemPerNode at MaxMemPerCPU × CPUs", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerNode: \"16000\", MaxMemPerCPU: \"2000\"}}"}},
}

// a1Pool is a pool of two n2-standard-8 nodes whose names (…-a1-0) sort
// before an a4Pool's (…-a4-0).
const a1Pool = "- id: a1\n  machineSpec: {machineType: n2-standard-8}\n  scalingSpec: {minNodeCount: 0, maxNodeCount: 2}\n  zone: us-central1-a"

// A job without --mem is checked with the memory of the partition's first
// node by name (workload seed 20262002).
var firstNodeCases = []ruleCase{
	{rule: "shape-mem-limit", name: "MaxMemPerNode: the first node by name is the A4's", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [cpu, a4], config: {MaxMemPerNode: »»\"100000\"}}"}},
	{rule: "shape-mem-limit", name: "MaxMemPerNode: the first node by name fits", spec: spec{Pools: cpuAndA4 + "\n" + a1Pool,
		Partitions: "- {id: gpu, nodePoolIds: [a4, a1], config: {MaxMemPerNode: \"100000\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
}

func init() { wideShapeCases = append(wideShapeCases, firstNodeCases...) }

// MaxCPUsPerNode=0, and DefCpuPerGPU × DefMemPerCPU above a node (workload
// seed 20262002 case 13). An a4-highgpu-8g node has 224 CPUs and 3943792
// MiB, 17606 MiB per CPU.
var cpuCases = []ruleCase{
	{rule: "shape-cpu-limit", name: "MaxCPUsPerNode=0", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxCPUsPerNode: »\"0\"}}"}},
	{rule: "memory-default-unfit", name: "DefCpuPerGPU × DefMemPerCPU for all GPUs", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: »\"28\", DefMemPerCPU: »\"17607\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "memory-default-unfit", name: "DefCpuPerGPU × DefMemPerCPU for one GPU", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: »\"224\", DefMemPerCPU: »\"17607\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "memory-default-unfit", name: "DefCpuPerGPU × DefMemPerCPU within the node", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"28\", DefMemPerCPU: \"17606\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
	{rule: "memory-default-unfit", name: "DefCpuPerGPU × DefMemPerCPU beside DefMemPerGPU", spec: spec{Pools: cpuAndA4,
		Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"28\", DefMemPerCPU: \"17606\", DefMemPerGPU: \"400000\"}}\n- {id: debug, nodePoolIds: [cpu]}"}},
}

func init() { wideShapeCases = append(wideShapeCases, cpuCases...) }

// A partition's DefMemPerNode of 0, and from 25.05 on its DefMemPerCPU of
// 0, leave the cluster's default to its jobs (workload seed 20262004):
// 8 × 3927 MiB is above an n2-standard-8 node's 31408.
var zeroDefaultCases = []ruleCase{
	{rule: "memory-default-unfit", name: "partition DefMemPerCPU=0 under the cluster's, 26.05", spec: spec{Config: "DefMemPerCPU: »\"3927\"",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: \"0\"}}"}},
	{rule: "memory-default-unfit", name: "partition DefMemPerCPU=0 under the cluster's, 24.11", version: "24.11", spec: spec{Config: "DefMemPerCPU: \"3927\"",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: \"0\"}}"}},
	{rule: "memory-default-unfit", name: "partition DefMemPerNode=0 under the cluster's, 22.05", version: "22.05", spec: spec{Config: "DefMemPerCPU: »\"3927\"",
		Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerNode: \"0\"}}"}},
}

func init() { wideShapeCases = append(wideShapeCases, zeroDefaultCases...) }
