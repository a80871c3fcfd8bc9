package realslurm

import (
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/deploy/localslurm"
)

// truthCases4 are settings of related keys (keys one constraints.md row,
// one key's scopes or one name prefix ties together) that the differential
// oracle's related mode (deploy/fidelity.GenerateRelated, -mode related)
// found lint-clean but slurmctld refused or logged as errors, with the
// severity decided from Slurm's code as for truthCases2 (docs/fidelity.md,
// "Warnings slurmctld logs as errors"). only names the releases measured.
var truthCases4 = []truthCase{
	// read_config.c: Contain (X11 implies it) with a proctrack other than
	// cgroup (or cray_aries on 22.05) only logs; slurmctld runs as
	// written: a warning (related seed 20261206, 22.05).
	{name: "PrologFlags X11 with proctrack/pgid", config: "PrologFlags: X11\nProctrackType: proctrack/pgid",
		rule: "prolog-contain-proctrack", severity: diag.Warning, only: []string{"22.05"},
		logged: []string{"If using PrologFlags=Contain for pam_slurm_adopt"}},
	// _parse_partitionname (26.05): USER is dropped with an error when
	// TOPO is set too, whatever Exclusive= says after them (related seed
	// 20261206, 26.05); 24.11 has no check and runs both as written.
	{name: "ExclusiveUser with ExclusiveTopo", partitions: "- {id: debug, nodePoolIds: [cpu], config: {ExclusiveUser: \"YES\", ExclusiveTopo: \"YES\"}}",
		rule: "exclusive-user-topo", severity: diag.Error, only: []string{"26.05"},
		logged: []string{"Exclusive=USER ignored, since it's mutually exclusive with Exclusive=TOPO"}},
	{name: "ExclusiveUser with ExclusiveTopo before 26.05", partitions: "- {id: debug, nodePoolIds: [cpu], config: {ExclusiveUser: \"YES\", ExclusiveTopo: \"YES\"}}",
		only: []string{"24.11"}, accounting: true},
}

// TestLintAgreesWithSlurmctld4 runs each of truthCases4 on real slurmctld
// of the releases it names, as TestLintAgreesWithSlurmctld2 runs
// truthCases2.
func TestLintAgreesWithSlurmctld4(t *testing.T) {
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			requirePrereqsFor(t, release)
			for _, c := range truthCases4 {
				if len(c.only) > 0 && !slices.Contains(c.only, release) {
					continue
				}
				t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) { testTruth(t, c, release) })
			}
		})
	}
}
