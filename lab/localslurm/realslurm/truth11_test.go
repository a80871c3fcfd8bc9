package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases11 are two false positives of the start oracle (issue 26,
// docs/fidelity.md) and a false negative found beside them, each decided
// by the real daemons: a partition's SelectTypeParameters is read by the
// unit name it begins with (_parse_partitionname: xstrncasecmp(value,
// "CR_Socket_Memory", 16)), the rest ignored; the global one token by
// token, whole (_parse_select_type_param); and 22.05 accepts
// CR_ALLOCATE_FULL_SOCKET without setting anything, so a value of nothing
// else runs cons_tres's default, CR_Core_Memory.
var truthCases11 = []truthCase{
	{name: "partition SelectTypeParameters tail", partitions: "- {id: debug, nodePoolIds: [cpu], config: {SelectTypeParameters: \"CR_Socket_Memory=-1\"}}",
		accounting: true, rule: "invalid-config-value", severity: diag.Warning, shown: []string{"SelectTypeParameters=CR_SOCKET_MEMORY"}},
	{name: "partition SelectTypeParameters list", partitions: "- {id: debug, nodePoolIds: [cpu], config: {SelectTypeParameters: \"CR_Core_Memory,CR_LLN\"}}",
		accounting: true, rule: "invalid-config-value", severity: diag.Warning, shown: []string{"SelectTypeParameters=CR_CORE_MEMORY"}},
	// CR_Core leads CR_Core_Memor: the partition runs without memory.
	{name: "partition SelectTypeParameters shorter unit", partitions: "- {id: debug, nodePoolIds: [cpu], config: {SelectTypeParameters: CR_Core_Memor}}",
		accounting: true, rule: "invalid-config-value", severity: diag.Warning, shown: []string{"SelectTypeParameters=CR_CORE "}},
	{name: "SelectTypeParameters token with an argument", config: `SelectTypeParameters: "CR_Core_Memory=-1"`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Bad SelectTypeParameter"}},
	{name: "CR_ALLOCATE_FULL_SOCKET alone", config: "SelectTypeParameters: CR_ALLOCATE_FULL_SOCKET", only: []string{"22.05"},
		accounting: true, rule: "select-params-no-unit", severity: diag.Warning, shown: []string{"SelectTypeParameters = CR_CORE_MEMORY"}},
	{name: "CR_ALLOCATE_FULL_SOCKET beside a unit", config: `SelectTypeParameters: "CR_Socket,CR_ALLOCATE_FULL_SOCKET"`, only: []string{"22.05"},
		accounting: true, rule: "invalid-config-value", severity: diag.Warning, shown: []string{"SelectTypeParameters = CR_SOCKET"}},
}

// TestLintAgreesWithSlurmctld11 runs each of truthCases11 on real Slurm of
// every release it concerns.
func TestLintAgreesWithSlurmctld11(t *testing.T) {
	runTruthCases(t, truthCases11)
}
