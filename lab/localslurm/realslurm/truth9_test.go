package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases9 are what the wider slurm.conf corpus (testdata/slurmconf,
// issue 26 §6) found, each decided by the real daemons: GpuFreqDef's
// documented default, a list, was an error (false positive);
// JobAcctGatherParams=NoOverMemoryKill, the default since 19.05 that
// Slurm ignores, was an unknown word (false positive); a jobcomp/filetxt
// file outside the controller's log directory and a jobcomp/script
// program outside the system's directories linted clean while slurmctld
// exits or runs nothing (false negatives); and words a release removed from keys
// Slurm reads with xstrcasestr, which it ignores, were errors (false
// positives).
var truthCases9 = []truthCase{
	{name: "GpuFreqDef high,memory=high", config: "GpuFreqDef: high,memory=high", standIn: "t-cpu-0", accounting: true},
	{name: "JobAcctGatherParams NoOverMemoryKill", config: "JobAcctGatherParams: NoOverMemoryKill", standIn: "t-cpu-0", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning},
	{name: "JobCompLoc outside the log directory", config: "JobCompType: jobcomp/filetxt\nJobCompLoc: /var/log/slurm-llnl/jobcomp.log",
		rule: "program-path", severity: diag.Error, refused: []string{"No such file or directory"}},
	// Words of keys Slurm reads with xstrcasestr that a release removed:
	// it starts and logs nothing (they were errors; now warnings). A
	// sweep of every removed token found them; the others it tried
	// (DebugFlags=FrontEnd, ReconfigFlags=KeepNodeStateFuture on 26.05,
	// SelectTypeParameters=OTHER_CONS_RES on 24.11) are refused or
	// logged, and stay errors.
	{name: "LaunchParameters mem_sort", config: "LaunchParameters: mem_sort", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"26.05"}},
	{name: "SchedulerParameters no_env_cache", config: "SchedulerParameters: no_env_cache,requeue_setup_env_fail,enable_job_state_cache", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"26.05"}},
	{name: "CommunicationParameters CheckGhalQuiesce", config: "CommunicationParameters: CheckGhalQuiesce", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"24.11", "26.05"}},
	{name: "LogTimeFormat format_stderr", config: "LogTimeFormat: iso8601,format_stderr", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"26.05"}},
	{name: "RoutePlugin route/topology", config: "RoutePlugin: route/topology", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"24.11", "26.05"}},
	{name: "RoutePlugin route/default", config: "RoutePlugin: route/default", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, only: []string{"24.11", "26.05"}},
	// jobcomp/script runs JobCompLoc on the controller: 22.05 logs and
	// runs no script, 24.11 and 26.05 exit.
	{name: "jobcomp/script on the controller, logged", config: "JobCompType: jobcomp/script\nJobCompLoc: /usr/local/sbin/jobcomp.sh", accounting: true,
		rule: "program-path", severity: diag.Error, only: []string{"22.05"}, logged: []string{"jobcomp/script: failed to stat /usr/local/sbin/jobcomp.sh"}},
	{name: "jobcomp/script on the controller", config: "JobCompType: jobcomp/script\nJobCompLoc: /usr/local/sbin/jobcomp.sh", accounting: true,
		rule: "program-path", severity: diag.Error, only: []string{"24.11", "26.05"}, refused: []string{"Failed to initialize jobcomp plugin"}},
	{name: "JobCompLoc in the log directory", config: "JobCompType: jobcomp/filetxt\nJobCompLoc: /var/log/slurm/jobcomp.log", accounting: true},
}

// TestLintAgreesWithSlurmctld9 runs each of truthCases9 on real Slurm of
// every release.
func TestLintAgreesWithSlurmctld9(t *testing.T) {
	runTruthCases(t, truthCases9)
}
