package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases10 are the false negatives of the start oracle's fresh seeds
// of session 8 (issue 26), each decided by the real daemons of every
// release: a parser that allows one token of a kind counts each token as
// it reads, so the same token twice is two; a GRES type listed twice is
// loaded once, with an error line.
var truthCases10 = []truthCase{
	// _parse_select_type_param: param_cnt counts every unit written.
	{name: "SelectTypeParameters unit twice", config: `SelectTypeParameters: "CR_Core,CR_Core"`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Bad SelectTypeParameter"}},
	// preempt_mode_num: preempt_modes counts every base mode written (the
	// same class; preempt-mode-combination counted them already).
	{name: "PreemptMode base mode twice", config: "PreemptType: preempt/partition_prio\nPreemptMode: \"REQUEUE,REQUEUE\"",
		rule: "preempt-mode-combination", severity: diag.Error, refused: []string{"PreemptMode=REQUEUE,REQUEUE invalid"}},
	{name: "partition PreemptMode base mode twice", config: "PreemptType: preempt/partition_prio\nPreemptMode: REQUEUE",
		partitions: "- {id: debug, nodePoolIds: [cpu], config: {PreemptMode: \"CANCEL,CANCEL\"}}", only: []string{"22.05"},
		rule: "preempt-mode-combination", severity: diag.Error, refused: []string{`Bad value "CANCEL,CANCEL" for PreemptMode`}},
	// 24.11 and 26.05 keep NO_VAL16, every mode bit: GANG is stripped with
	// an error line and the partition runs PreemptMode=WITHIN,UNKNOWN.
	{name: "partition PreemptMode base mode twice, kept", config: "PreemptType: preempt/partition_prio\nPreemptMode: REQUEUE",
		partitions: "- {id: debug, nodePoolIds: [cpu], config: {PreemptMode: \"CANCEL,CANCEL\"}}", only: []string{"24.11", "26.05"},
		rule: "preempt-mode-combination", severity: diag.Error, logged: []string{"PreemptMode=GANG is a cluster-wide option"}},
	// gres.c loads a GRES type's plugin once: the duplicate is logged and
	// ignored, and the cluster runs the value as written (-mode doubled).
	{name: "GresTypes type twice", config: `GresTypes: "gpu,gpu"`, accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, logged: []string{"Duplicate plugin gres/gpu ignored"}},
	// jobcomp/script stats its program, JobCompLoc, when slurmctld starts:
	// a program of the controller, which a spec cannot reach (related seed
	// 20261221, 24.11).
	{name: "jobcomp script relative", config: "JobCompType: jobcomp/script\nJobCompLoc: ALL",
		rule: "program-path", severity: diag.Error, refused: []string{"failed to stat ALL"}, only: []string{"24.11", "26.05"}},
	// 22.05 starts with an error line, and the plugin runs nothing.
	{name: "jobcomp script relative, logged", config: "JobCompType: jobcomp/script\nJobCompLoc: ALL", accounting: true,
		rule: "program-path", severity: diag.Error, only: []string{"22.05"}, logged: []string{"jobcomp/script: failed to stat ALL"}},
	{name: "jobcomp script outside the system", config: "JobCompType: jobcomp/script\nJobCompLoc: /home/admin/jobcomp.sh",
		rule: "program-path", severity: diag.Error, refused: []string{"failed to stat /home/admin/jobcomp.sh"}, only: []string{"24.11", "26.05"}},
	// A false positive of seed 20261224: 22.05 reads MaxNodeCount=0 as
	// unset and counts the nodes (scontrol: MaxNodeCount = 2), the spec
	// runs as without it (a warning); 24.11 and 26.05 exit.
	{name: "MaxNodeCount zero", config: `MaxNodeCount: "0"`, accounting: true, only: []string{"22.05"},
		rule: "max-node-count-select", severity: diag.Warning},
	{name: "MaxNodeCount zero, refused", config: `MaxNodeCount: "0"`, only: []string{"24.11", "26.05"},
		rule: "max-node-count-select", severity: diag.Error, refused: []string{"Attempting to create node record past MaxNodeCount:0"}},
	// Not a false negative but a candidate judged: parse_uint32 takes
	// NO_VAL (4294967294) and the partition keeps it as "unset", running
	// the global SuspendTime (scontrol on 24.11 and 26.05: SuspendTime=GLOBAL) without an error
	// line. Another value than the one written: an error by the policy.
	{name: "partition SuspendTime NO_VAL", partitions: "- {id: debug, nodePoolIds: [cpu], config: {SuspendTime: \"4294967294\"}}",
		accounting: true, serviceLines: powerSaving, rule: "invalid-config-value", severity: diag.Error},
}

// TestLintAgreesWithSlurmctld10 runs each of truthCases10 on real Slurm of
// every release it concerns.
func TestLintAgreesWithSlurmctld10(t *testing.T) {
	runTruthCases(t, truthCases10)
}
