package rules_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// TestSelectTypeParametersAsSlurmReadsThem checks the rules that read
// SelectTypeParameters against what Slurm makes of odd values (truth11):
// 22.05 accepts CR_ALLOCATE_FULL_SOCKET and sets nothing for it, so a
// value of nothing else runs the default CR_Core_Memory (a warning, and
// memory is tracked); a partition's value is read by its leading unit
// name, the rest ignored.
func TestSelectTypeParametersAsSlurmReadsThem(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		spec          spec
		rule          string
		want          []diag.Severity
		parts         []string // substrings of the messages, in order
	}{
		{"22.05 runs the default", "22.05", spec{Config: "SelectTypeParameters: CR_ALLOCATE_FULL_SOCKET"}, "select-params-no-unit",
			[]diag.Severity{diag.Warning}, []string{"sets nothing (Slurm 22.05 ignores CR_ALLOCATE_FULL_SOCKET), so select/cons_tres runs its default, CR_Core_Memory"}},
		{"22.05, twice", "22.05", spec{Config: `SelectTypeParameters: "CR_ALLOCATE_FULL_SOCKET,cr_allocate_full_socket"`}, "select-params-no-unit",
			[]diag.Severity{diag.Warning}, []string{"runs its default, CR_Core_Memory"}},
		{"22.05 with CR_LLN exits", "22.05", spec{Config: `SelectTypeParameters: "CR_LLN,CR_ALLOCATE_FULL_SOCKET"`}, "select-params-no-unit",
			[]diag.Severity{diag.Error}, []string{"slurmctld exits"}},
		{"24.11 exits", "24.11", spec{Config: "SelectTypeParameters: CR_ALLOCATE_FULL_SOCKET"}, "select-params-no-unit",
			[]diag.Severity{diag.Error}, []string{"slurmctld exits"}},
		{"22.05 tracks memory", "22.05", spec{Config: "SelectTypeParameters: CR_ALLOCATE_FULL_SOCKET\nDefMemPerCPU: \"1000\""}, "memory-not-tracked",
			nil, nil},
		// memory-default-missing speaks only where the partition's unit
		// tracks memory (shape-mem-limit's checks hold with CR_Core too).
		{"partition unit read by its leading name", "26.05", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {SelectTypeParameters: CR_Core_MemoryX}}"},
			"memory-default-missing", []diag.Severity{diag.Info}, []string{"is given the whole memory"}},
		{"partition unit without memory", "26.05", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {SelectTypeParameters: CR_Core_Memor}}"},
			"memory-default-missing", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := lintText(t, "spec.yaml", tc.spec.YAML(), tc.version)
			var got []diag.Diagnostic
			for _, d := range l {
				if d.Rule == tc.rule {
					got = append(got, d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d findings of %s, want %d:\n%s", len(got), tc.rule, len(tc.want), show(l, ""))
			}
			for i, d := range got {
				if d.Severity != tc.want[i] || !strings.Contains(d.Message, tc.parts[i]) || d.Hint == "" {
					t.Errorf("finding %d = %v %q (hint %q), want %v containing %q", i, d.Severity, d.Message, d.Hint, tc.want[i], tc.parts[i])
				}
			}
		})
	}
}
