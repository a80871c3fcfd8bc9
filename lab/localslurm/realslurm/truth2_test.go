package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// withNodeSet is the partitions field of a truthCase that also gives the
// cpu pool (n2-standard-8: 8 vCPUs, rendered as CPUs=8) a nodeSets entry
// with config: the lines after the partition land beside it in slurmSpec.
func withNodeSet(config string) string {
	return "- {id: debug, nodePoolIds: [cpu]}\nnodeSets:\n- {nodePoolId: cpu, config: {" + config + "}}"
}

// truthCases2 are the settings the differential oracle (lab/fidelity)
// found lint-clean but slurmctld refused or logged as errors, with the
// severity decided from Slurm's code: an error when slurmctld refuses the
// setting or runs with another value than the one written, a warning when
// it runs with the value as written and only logs (docs/fidelity.md,
// "Warnings slurmctld logs as errors").
var truthCases2 = []truthCase{
	// Reset with an error line: the value written is not the one used.
	{name: "MinJobAge 0", config: `MinJobAge: "0"`, rule: "min-job-age", severity: diag.Error,
		logged: []string{"MinJobAge must be at least 2"}},
	{name: "TreeWidth 0", config: `TreeWidth: "0"`, rule: "tree-width-zero", severity: diag.Error,
		logged: []string{"TreeWidth=0 is invalid"}},
	{name: "MaxJobId UNLIMITED", config: "MaxJobId: UNLIMITED", rule: "job-id-range", severity: diag.Error,
		logged: []string{"MaxJobId can not exceed MAX_JOB_ID"}},
	{name: "SchedulerTimeSlice 0", config: `SchedulerTimeSlice: "0"`,
		rule: "gang-time-slice", severity: diag.Error, logged: []string{"SchedulerTimeSlice must be at least 5 seconds"}},
	{name: "KeepAliveTime UNLIMITED", config: "KeepAliveTime: UNLIMITED", rule: "keepalive-time-conflict", severity: diag.Error,
		logged: []string{"KeepAliveTime 4294967295 invalid, ignoring it"}},
	{name: "KeepAliveTime 0", config: `KeepAliveTime: "0"`, rule: "keepalive-time-conflict", severity: diag.Error,
		logged: []string{"Unable to set keepalive socket time"}, only: []string{"24.11", "26.05"}},
	{name: "KeepAliveTime above Linux's 32767", config: `KeepAliveTime: "40000"`, rule: "keepalive-time-conflict", severity: diag.Error,
		logged: []string{"Unable to set keepalive socket time"}, only: []string{"24.11", "26.05"}},
	{name: "RequeueExit not a range", config: "RequeueExit: fidelity", rule: "requeue-exit-values", severity: diag.Error,
		logged: []string{"exit values: fidelity"}},
	{name: "CoresPerSocket not dividing CPUs", partitions: withNodeSet(`CoresPerSocket: "35"`), rule: "node-cpu-topology", severity: diag.Error,
		logged: []string{"match no Sockets, Sockets*CoresPerSocket or Sockets*CoresPerSocket*ThreadsPerCore. Resetting CPUs."}},
	{name: "Boards above the sockets", partitions: withNodeSet(`Boards: "9"`), rule: "node-cpu-topology", severity: diag.Error,
		logged: []string{"Sockets(8) < Boards(9) resetting Boards=1"}},
	{name: "SlurmdParameters l3cache and numa as socket", config: `SlurmdParameters: "numa_node_as_socket,l3cache_as_socket"`,
		rule: "invalid-config-value", severity: diag.Error, only: []string{"24.11", "26.05"},
		logged: []string{"l3cache_as_socket and numa_node_as_socket are mutually exclusive. Ignoring numa_node_as_socket."}},
	{name: "MemSpecLimit UNLIMITED", partitions: withNodeSet(`MemSpecLimit: UNLIMITED`), rule: "mem-spec-limit", severity: diag.Error,
		logged: []string{"MemSpecLimit=18446744073709551615 is invalid, reset to 0"}},
	{name: "CoresPerSocket dividing CPUs", partitions: withNodeSet(`CoresPerSocket: "4"`), accounting: true},
	// Refused.
	{name: "MaxJobId below FirstJobId", config: `MaxJobId: "0"`, rule: "job-id-range", severity: diag.Error,
		refused: []string{"FirstJobId > MaxJobId"}},
	{name: "BcastAddr list of another length", partitions: withNodeSet(`BcastAddr: "yes,,no"`), rule: "node-address-set", severity: diag.Error,
		refused: []string{"BcastAddr count must equal that of NodeName records"}},
	{name: "MaxNodeCount UNLIMITED", config: "MaxNodeCount: UNLIMITED", rule: "max-node-count-select", severity: diag.Error,
		only: []string{"24.11", "26.05"}, refused: []string{"is higher than the maximum allowed (65536)"}},
	{name: "AccountingStorageTRES unknown type", config: "AccountingStorageTRES: fidelity", rule: "accounting-tres-type", severity: diag.Error,
		refused: []string{"Unknown tres type 'fidelity'"}},
	{name: "PropagateResourceLimitsExcept NONE in a list", config: `PropagateResourceLimitsExcept: "NONE,AS"`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Bad rlimit name: NONE"}},
	{name: "PropagatePrioProcess UNLIMITED", config: "PropagatePrioProcess: UNLIMITED",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Bad PropagatePrioProcess"}},
	{name: "SlurmctldPlugstack", config: "SlurmctldPlugstack: fidelity", rule: "slurmctld-plugstack", severity: diag.Error, only: []string{"22.05"},
		refused: []string{"cannot find slurmctld_plugstack plugin"}},
	{name: "SelectTypeParameters default dist block is no unit", config: `SelectTypeParameters: "CR_LLN,CR_CORE_DEFAULT_DIST_BLOCK"`,
		rule: "select-params-no-unit", severity: diag.Error, refused: []string{"You need at least CR_(CPU|CORE|SOCKET)*"}},
	{name: "PrologFlags RunInJob with NoHold", config: `PrologFlags: "RunInJob,NoHold"`, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"NoHold cannot be combined with Contain"}},
	{name: "PrologSlurmctld relative", config: "PrologSlurmctld: fidelity", only: []string{"26.05"},
		rule: "program-path", severity: diag.Error, refused: []string{"Invalid PrologSlurmctld(`fidelity`)"}},
	{name: "PrologSlurmctld relative", config: "PrologSlurmctld: fidelity", only: []string{"22.05"},
		rule: "program-path", severity: diag.Error, logged: []string{"Invalid PrologSlurmctld(`fidelity`)"}},
	// Used as written, logged as an error: warnings.
	{name: "MessageTimeout above 100", config: `MessageTimeout: "120"`, rule: "message-timeout", severity: diag.Warning,
		logged: []string{"MessageTimeout is too high for effective fault-tolerance"}},
	{name: "AllowGroups unknown", partitions: "- {id: debug, nodePoolIds: [cpu], config: {AllowGroups: fidelity}}",
		rule: "partition-groups", severity: diag.Warning, logged: []string{"Could not find configured group fidelity"}},
}

// TestLintAgreesWithSlurmctld2 runs each of truthCases2 on real slurmctld
// of every release, as TestLintAgreesWithSlurmctld runs truthCases.
func TestLintAgreesWithSlurmctld2(t *testing.T) {
	runTruthCases(t, truthCases2)
}
