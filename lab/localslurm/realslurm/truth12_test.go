package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases12 are the start oracle's false positive of session 9
// (docs/fidelity.md, random seed 20263001 cases 380 and 499) and its
// edges, decided by the real daemons. On 22.05 the loaders of
// JobContainerType (slurmd), PowerPlugin (slurmctld), CoreSpecPlugin and
// CliFilterPlugins strip a leading "<type>/" and prepend it again
// (job_container_init, power_g_init: xstrdup_printf("power/%s", type)),
// so a bare none loads the none plugin 22.05 ships; a value that is not
// a plugin name after the prefix (none/none, NONE: plugin names are
// case-sensitive) is still refused. From 23.11 read_config.c drops any
// value containing none, so the same values start there too.
var truthCases12 = []truthCase{
	{name: "PowerPlugin none", config: "PowerPlugin: none", accounting: true, only: []string{"22.05"},
		shown: []string{"PowerPlugin             = none"}},
	{name: "JobContainerType none", config: "JobContainerType: none", accounting: true, standIn: "t-cpu-0"},
	{name: "CoreSpecPlugin none", config: "CoreSpecPlugin: none", accounting: true, only: []string{"22.05"}, standIn: "t-cpu-0"},
	{name: "PowerPlugin none/none", config: "PowerPlugin: none/none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"power/none/none"}},
	{name: "JobContainerType none/none", config: "JobContainerType: none/none", only: []string{"22.05"}, standIn: "t-cpu-0", refusedBy: "slurmd",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"job_container/none/none"}},
	{name: "JobContainerType NONE", config: "JobContainerType: NONE", only: []string{"22.05"}, standIn: "t-cpu-0", refusedBy: "slurmd",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"job_container/NONE"}},
}

// TestLintAgreesWithSlurmctld12 runs each of truthCases12 on real Slurm of
// every release it concerns.
func TestLintAgreesWithSlurmctld12(t *testing.T) {
	runTruthCases(t, truthCases12)
}
