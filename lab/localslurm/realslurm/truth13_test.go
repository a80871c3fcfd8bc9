package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases13 are the start oracle's false negatives of session 10
// (docs/fidelity.md) and their edges. Random seed 20265003 case 287 on
// 24.11: slurm.conf's integers are read with strtoul's base 0, so 0x10 is
// 16 and 060 is 48; slurmctld 24.11 and 26.05 log that an
// UnkillableStepTimeout of 16 is below 5 × MessageTimeout (10), and lint
// read the value as no number. Related seed 20265005 case 29 on 22.05:
// HealthCheckNodeState compares whole tokens and ignores ALLOC=-1 with an
// error line on every release; lint called it an option that takes no
// value, a warning. Random seed 20265004 case 387 on 22.05: slurmctld
// sizes its node table by MaxNodeCount and aborts at 4294967294 (and
// 2^31), where lint had only UNLIMITED; 2^24 starts.
var truthCases13 = []truthCase{
	{name: "UnkillableStepTimeout hex below 5×MessageTimeout", config: "UnkillableStepTimeout: \"0x10\"", accounting: true, only: []string{"24.11", "26.05"},
		rule: "message-timeout", severity: diag.Warning, logged: []string{"UnkillableStepTimeout must be at least 5 times greater than MessageTimeout"}},
	{name: "UnkillableStepTimeout octal below 5×MessageTimeout", config: "UnkillableStepTimeout: \"060\"", accounting: true, only: []string{"24.11", "26.05"},
		rule: "message-timeout", severity: diag.Warning, logged: []string{"UnkillableStepTimeout must be at least 5 times greater than MessageTimeout"}},
	{name: "UnkillableStepTimeout hex above 5×MessageTimeout", config: "UnkillableStepTimeout: \"0x40\"", accounting: true, only: []string{"24.11", "26.05"}},
	{name: "HealthCheckNodeState ALLOC=-1", config: "HealthCheckNodeState: ALLOC=-1", accounting: true,
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"Invalid HealthCheckNodeState value ALLOC=-1 ignored"}},
	{name: "MaxNodeCount 2^32-2", config: `MaxNodeCount: "4294967294"`, only: []string{"22.05"},
		rule: "max-node-count-select", severity: diag.Error, refused: []string{"signal: aborted"}},
	{name: "MaxNodeCount 2^31", config: `MaxNodeCount: "2147483648"`, only: []string{"22.05"},
		rule: "max-node-count-select", severity: diag.Error, refused: []string{"signal: aborted"}},
	{name: "MaxNodeCount 2^24", config: `MaxNodeCount: "16777216"`, only: []string{"22.05"}, accounting: true},
}

// TestLintAgreesWithSlurmctld13 runs each of truthCases13 on real Slurm of
// the releases it names.
func TestLintAgreesWithSlurmctld13(t *testing.T) {
	runTruthCases(t, truthCases13)
}
