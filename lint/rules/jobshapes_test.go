package rules_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// TestMemoryDefaultUnfitSeverity checks memory-default-unfit's severities
// and numbers: an error when the default fails the smallest job of its
// kind on every pool of the partition, a warning when it fails only larger
// shapes or only some pools, with the node's memory per GPU and the
// product in the message.
func TestMemoryDefaultUnfitSeverity(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  spec
		want  []diag.Severity
		parts []string // substrings of the messages, in order
	}{
		{"issue 26: 8 x 600000 MiB on an A4 node", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefMemPerGPU: \"600000\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Warning}, []string{"DefMemPerGPU=600000 MiB × 8 GPUs = 4800000 MiB, a node offers 3943792 MiB (492974 MiB per GPU)"}},
		{"one GPU does not fit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefMemPerGPU: \"4000000\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Error}, []string{"no GPU job without --mem-per-gpu fits its nodes, with --mem too"}},
		{"per CPU: one task fails on one pool of two", spec{Pools: cpuAndA4,
			Partitions: "- {id: mixed, nodePoolIds: [cpu, a4], config: {DefMemPerCPU: \"40000\"}}"},
			// cpu: 40000 > 31408 (one task); a4: 224 x 40000 > 3943792 (--exclusive)
			[]diag.Severity{diag.Warning, diag.Warning}, []string{`pool "a4" (a4-highgpu-8g): a whole-node job (--exclusive)`, `pool "cpu" (n2-standard-8): no job without --mem fits its nodes: DefMemPerCPU=40000`}},
		{"per CPU: one task fails on the only pool", spec{
			Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: \"40000\"}}"},
			[]diag.Severity{diag.Error}, []string{"DefMemPerCPU=40000 MiB for one CPU, a node offers 31408 MiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := lintText(t, "spec.yaml", tc.spec.YAML(), "")
			var got []diag.Diagnostic
			for _, d := range l {
				if d.Rule == "memory-default-unfit" {
					got = append(got, d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d findings, want %d:\n%s", len(got), len(tc.want), show(l, "memory-default-unfit"))
			}
			for i, d := range got {
				if d.Severity != tc.want[i] || !strings.Contains(d.Message, tc.parts[i]) || d.Hint == "" {
					t.Errorf("finding %d = %v %q (hint %q), want %v containing %q", i, d.Severity, d.Message, d.Hint, tc.want[i], tc.parts[i])
				}
			}
		})
	}
}
