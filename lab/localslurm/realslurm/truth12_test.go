package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases12 are the start oracle's false positive of session 9
// (docs/fidelity.md, random seed 20263001 cases 380 and 499) and its
// edges, decided by the real daemons. On 22.05 the loaders of
// JobContainerType (slurmd), PowerPlugin, CoreSpecPlugin,
// AcctGatherEnergyType, AcctGatherInterconnectType and CliFilterPlugins
// strip a leading "<type>/" and prepend it again (power_g_init:
// xstrdup_printf("power/%s", type)), so a bare none loads the none plugin
// 22.05 ships; a value that is no plugin name after the prefix
// (none/none; NONE, plugin names being case-sensitive) is still refused.
// The other plugin keys hand the value to plugin_context_create as it is,
// so a bare none is no plugin there (fatal, or an error line for
// JobCompType and, under priority/multifactor, PrioritySiteFactorPlugin).
// From 23.11 read_config.c drops any value containing none, so the
// values that load the none plugin on 22.05 start there too.
var truthCases12 = []truthCase{
	{name: "PowerPlugin none", config: "PowerPlugin: none", accounting: true, only: []string{"22.05"},
		shown: []string{"PowerPlugin             = none"}},
	{name: "JobContainerType none", config: "JobContainerType: none", accounting: true, standIn: "t-cpu-0"},
	{name: "CoreSpecPlugin none", config: "CoreSpecPlugin: none", accounting: true, only: []string{"22.05"}, standIn: "t-cpu-0"},
	{name: "AcctGatherEnergyType none", config: "AcctGatherEnergyType: none", accounting: true, standIn: "t-cpu-0"},
	{name: "AcctGatherInterconnectType none", config: "AcctGatherInterconnectType: none", accounting: true, standIn: "t-cpu-0"},
	{name: "PowerPlugin none/none", config: "PowerPlugin: none/none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"power/none/none"}},
	{name: "JobContainerType none/none", config: "JobContainerType: none/none", only: []string{"22.05"}, standIn: "t-cpu-0", refusedBy: "slurmd",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"job_container/none/none"}},
	{name: "JobContainerType NONE", config: "JobContainerType: NONE", only: []string{"22.05"}, standIn: "t-cpu-0", refusedBy: "slurmd",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"job_container/NONE"}},
	{name: "AcctGatherEnergyType none/none", config: "AcctGatherEnergyType: none/none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"acct_gather_energy/none/none"}},
	{name: "AcctGatherInterconnectType NONE", config: "AcctGatherInterconnectType: NONE", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"acct_gather_interconnect/NONE"}},
	// Keys whose loader takes the value whole: none is no plugin on 22.05.
	{name: "SwitchType none", config: "SwitchType: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Can't find plugin for none"}},
	{name: "MCSPlugin none", config: "MCSPlugin: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"cannot create mcs context for none"}},
	{name: "PreemptType none", config: "PreemptType: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"cannot create preempt context for none"}},
	{name: "TopologyPlugin none", config: "TopologyPlugin: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"cannot create topo context for none"}},
	{name: "JobAcctGatherType none", config: "JobAcctGatherType: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"cannot create jobacct_gather context for none"}},
	{name: "AcctGatherProfileType none", config: "AcctGatherProfileType: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"cannot create acct_gather_profile context for none"}},
	{name: "AcctGatherFilesystemType none", config: "AcctGatherFilesystemType: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"cannot create acct_gather_filesystem context for none"}},
	{name: "ExtSensorsType none", config: "ExtSensorsType: none", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"cannot create ext_sensors context for none"}},
	{name: "JobCompType none", config: "JobCompType: none", accounting: true, only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"cannot create jobcomp context for none"}},
	{name: "PrioritySiteFactorPlugin none", config: "PrioritySiteFactorPlugin: none\nPriorityType: priority/multifactor", accounting: true, only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"cannot create site_factor context for none"}},
}

// TestLintAgreesWithSlurmctld12 runs each of truthCases12 on real Slurm of
// every release it concerns.
func TestLintAgreesWithSlurmctld12(t *testing.T) {
	runTruthCases(t, truthCases12)
}
