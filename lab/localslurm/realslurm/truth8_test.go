package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases8 are the classes of issue 26 §6 (real-world configurations,
// round 3), each decided by the real daemons under the severity policy
// (docs/fidelity.md): a program slurmctld runs on the controller, which a
// spec cannot reach (the harness host lacks it as the service's controller
// does); a plugin whose companion file the service does not write; a flag a later release made the default, which Slurm ignores; a
// defunct key, which Slurm drops as it drops an unused one.
var truthCases8 = []truthCase{
	{name: "PrologSlurmctld outside the system", config: "PrologSlurmctld: /opt/site/bin/ctld-prolog", rule: "program-path", severity: diag.Error,
		only: []string{"24.11", "26.05"}, refused: []string{"/opt/site/bin/ctld-prolog"}},
	{name: "PrologSlurmctld outside the system, logged", config: "PrologSlurmctld: /opt/site/bin/ctld-prolog", rule: "program-path", severity: diag.Error,
		only: []string{"22.05"}, logged: []string{"/opt/site/bin/ctld-prolog"}},
	// A plugin with a companion file the service does not write.
	{name: "JobContainerType tmpfs without job_container.conf", config: "JobContainerType: job_container/tmpfs\nPrologFlags: Contain", standIn: "t-cpu-0", refusedBy: "slurmd",
		accounting: true, rule: "plugin-needs-file", severity: diag.Error, refused: []string{"No job_container.conf file"}},
	{name: "NamespaceType tmpfs without job_container.conf", config: "NamespaceType: namespace/tmpfs\nPrologFlags: Contain", standIn: "t-cpu-0", refusedBy: "slurmd",
		accounting: true, rule: "plugin-needs-file", severity: diag.Error, refused: []string{"No job_container.conf file"}, only: []string{"26.05"}},
	{name: "PriorityFlags FAIR_TREE", config: "PriorityType: priority/multifactor\nPriorityFlags: FAIR_TREE", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"24.11", "26.05"}},
	{name: "SchedulerParameters assoc_limit_continue", config: "SchedulerParameters: assoc_limit_continue", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning},
	{name: "LaunchParameters send_gids", config: "LaunchParameters: send_gids", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning},
	{name: "GetEnvTimeout defunct", config: `GetEnvTimeout: "2"`, accounting: true,
		rule: "config-key-version", severity: diag.Warning, only: []string{"26.05"}, logged: []string{"GetEnvTimeout"}},
	{name: "ExtSensorsFreq defunct", config: `ExtSensorsFreq: "30"`, accounting: true,
		rule: "config-key-version", severity: diag.Warning, only: []string{"24.11", "26.05"}, logged: []string{"ExtSensorsFreq"}},
	{name: "SchedulerAuth defunct", config: "SchedulerAuth: fidelity", accounting: true,
		rule: "config-key-version", severity: diag.Warning, only: []string{"22.05"}, logged: []string{"SchedulerAuth"}},
}

// TestLintAgreesWithSlurmctld8 runs each of truthCases8 on real Slurm of
// every release it concerns.
func TestLintAgreesWithSlurmctld8(t *testing.T) {
	runTruthCases(t, truthCases8)
}
