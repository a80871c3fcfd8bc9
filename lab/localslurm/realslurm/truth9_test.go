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
// file outside the controller's log directory linted clean while
// slurmctld exits (false negative).
var truthCases9 = []truthCase{
	{name: "GpuFreqDef high,memory=high", config: "GpuFreqDef: high,memory=high", standIn: "t-cpu-0", accounting: true},
	{name: "JobAcctGatherParams NoOverMemoryKill", config: "JobAcctGatherParams: NoOverMemoryKill", standIn: "t-cpu-0", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning},
	{name: "JobCompLoc outside the log directory", config: "JobCompType: jobcomp/filetxt\nJobCompLoc: /var/log/slurm-llnl/jobcomp.log",
		rule: "program-path", severity: diag.Error, refused: []string{"No such file or directory"}},
	{name: "JobCompLoc in the log directory", config: "JobCompType: jobcomp/filetxt\nJobCompLoc: /var/log/slurm/jobcomp.log", accounting: true},
}

// TestLintAgreesWithSlurmctld9 runs each of truthCases9 on real Slurm of
// every release.
func TestLintAgreesWithSlurmctld9(t *testing.T) {
	runTruthCases(t, truthCases9)
}
