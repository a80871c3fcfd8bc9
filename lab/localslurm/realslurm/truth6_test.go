package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// truthCases6 are node-set values where slurmctld parses a number from a
// string key (issue 26): a node's Port goes through atoi in node_conf.c
// expand_nodeline_info, and one outside 1..65535 is fatal on every release.
// The clean case runs accounting, as without it slurmctld logs "Job
// accounting information gathered, but not stored".
var truthCases6 = []truthCase{
	{name: "node Port NONE", partitions: withNodeSet("Port: NONE"), rule: "invalid-config-value", severity: diag.Error,
		refused: []string{"Invalid Port NONE"}},
	{name: "node Port 0", partitions: withNodeSet(`Port: "0"`), rule: "invalid-config-value", severity: diag.Error,
		refused: []string{"Invalid Port 0"}},
	{name: "node Port 65536", partitions: withNodeSet(`Port: "65536"`), rule: "invalid-config-value", severity: diag.Error,
		refused: []string{"Invalid Port 65536"}},
	{name: "node Port 6820", partitions: withNodeSet(`Port: "6820"`), accounting: true},
}

// TestLintAgreesWithSlurmctld6 runs each of truthCases6 (node-set Port
// values) on real slurmctld of every release.
func TestLintAgreesWithSlurmctld6(t *testing.T) {
	runTruthCases(t, truthCases6)
}
