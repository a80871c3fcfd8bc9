package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// a4Static is an a4-highgpu-8g pool with one static node (t-a4-0), for a
// stand-in slurmd that presents the machine's eight GPUs.
const a4Static = "- {id: a4, machineSpec: {machineType: a4-highgpu-8g}, provisioningModel: SPOT, bootDisk: {bootDiskType: hyperdisk-balanced, bootDiskSizeGb: 200}, " +
	"scalingSpec: {minNodeCount: 1, maxNodeCount: 1}, zone: us-central1-a}"

// truthCases7 are the false negatives the start oracle found once its
// generator drew edges of every value type (issue 26, seeds 20261211 and
// 20261212), each decided by the real daemons of every release.
var truthCases7 = []truthCase{
	// Slurm's plugin loader takes the whole value as the plugin's name.
	{name: "ProctrackType plugin with an argument", config: `ProctrackType: "proctrack/pgid=-1"`, standIn: "t-cpu-0", refusedBy: "slurmd",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"proctrack/pgid=-1"}},
	{name: "TopologyPlugin plugin with an argument", config: `TopologyPlugin: "topology/default="`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"topology/default="}, only: []string{"26.05"}},
	{name: "SwitchType none with an argument", config: `SwitchType: "switch/none="`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"switch/none="}, only: []string{"22.05"}},
	// From 23.11 a plugin value holding none is dropped: a warning.
	{name: "SwitchType none with an argument, dropped", config: `SwitchType: "switch/none="`, accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"24.11", "26.05"}},
	// A single-value key compares the whole value.
	{name: "SlurmdSyslogDebug with an argument", config: `SlurmdSyslogDebug: "quiet="`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"SlurmdSyslogDebug quiet="}},
	{name: "PriorityUsageResetPeriod with an argument", config: `PriorityUsageResetPeriod: "NOW=-1"`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"NOW=-1"}},
	// Lists read token by token refuse a token with an argument.
	{name: "PropagateResourceLimits token with an argument", config: `PropagateResourceLimits: "STACK="`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Bad rlimit name: STACK="}},
	{name: "node CpuBind token with an argument", partitions: withNodeSet(`CpuBind: "threads="`),
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"CpuBind='threads=' is invalid, ignored"}},
	{name: "PrologFlags token with an argument", config: `PrologFlags: "X11="`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"X11="}},
	{name: "TaskPluginParam token with an argument", config: `TaskPluginParam: "Threads="`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Threads="}},
	{name: "DebugFlags token with an argument", config: `DebugFlags: "Backfill="`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Backfill="}},
	// xlate_cpu_bind_str: one binding type, and the same one twice is two.
	{name: "partition CpuBind core twice", partitions: "- {id: debug, nodePoolIds: [cpu], config: {CpuBind: \"core,core\"}}",
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"CpuBind='core,core' is invalid, ignored"}},
	{name: "partition SuspendTime token with an argument", partitions: "- {id: debug, nodePoolIds: [cpu], config: {SuspendTime: \"-1=\"}}",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{`Bad value "-1=" for SuspendTime`}},
	{name: "CliFilterPlugins none twice", config: `CliFilterPlugins: "cli_filter/none,,cli_filter/none"`, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"You can't have 'none' with another plugin"}},
	{name: "TaskPluginParam None twice", config: `TaskPluginParam: "None,None"`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Bad TaskPluginParam: None"}},
	{name: "ReconfigFlags token with an argument", config: `ReconfigFlags: "KeepPowerSaveSettings=-1"`, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"Invalid ReconfigFlag: KeepPowerSaveSettings=-1"}},
	{name: "partition PreemptMode token with an argument", partitions: "- {id: debug, nodePoolIds: [cpu], config: {PreemptMode: \"cluster=-1\"}}", only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"PreemptMode=GANG is a cluster-wide option"}},
	// parse_uint32: 0 to NO_VAL-1.
	{name: "partition SuspendTime past uint32", partitions: "- {id: debug, nodePoolIds: [cpu], config: {SuspendTime: \"99999999999\"}}",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{`Bad value "99999999999" for SuspendTime`}},
	// slurm_get_tres_weight_array: a number, then a unit of KMGTP.
	{name: "node TRESWeights not a number", partitions: withNodeSet(`TRESWeights: "CPU=abc"`),
		rule: "tres-weight-unknown", severity: diag.Error, refused: []string{"failed to parse tres weights str 'CPU=abc'"}},
	// The stand-in slurmd finds the machine's 8 GPUs; the line says 8192.
	{name: "node Gres above the machine's GPUs", pools: a4Static,
		partitions: "- {id: debug, nodePoolIds: [cpu]}\n- {id: gpu, nodePoolIds: [a4]}\nnodeSets:\n- {nodePoolId: a4, config: {Gres: \"gpu:8k\"}}",
		standIn:    "t-a4-0", refusedBy: "slurmd", rule: "rendered-key-override", severity: diag.Error,
		refused: []string{"count reported lower than configured"}},
	// A CPU range that runs backwards: slurmd cannot bind its CPUs.
	{name: "node CPUSpecList backwards", partitions: withNodeSet(`CPUSpecList: "1-0"`), standIn: "t-cpu-0",
		rule: "core-spec-conflict", severity: diag.Error, logged: []string{"unable to establish slurmd CPU affinity"}},
}

// TestLintAgreesWithSlurmctld7 runs each of truthCases7 on real Slurm of
// every release it concerns.
func TestLintAgreesWithSlurmctld7(t *testing.T) {
	runTruthCases(t, truthCases7)
}
