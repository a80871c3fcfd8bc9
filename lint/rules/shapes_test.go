package rules_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// TestShapeSeverity checks the shape-* rules' severities and numbers (and
// memory-default-unfit's in whole-node partitions): an
// error when no job of the shape can run on any pool of the partition, a
// warning when only jobs that rely on a default fail, or only some pools.
func TestShapeSeverity(t *testing.T) {
	for _, tc := range []struct {
		name, rule string
		spec       spec
		want       []diag.Severity
		parts      []string // substrings of the messages, in order
	}{
		{"MaxCPUsPerNode below every pool", "shape-cpu-limit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxCPUsPerNode: \"8\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Error}, []string{`MaxCPUsPerNode=8, and a node of pool "a4" (a4-highgpu-8g) has 224 CPUs`}},
		{"MaxCPUsPerNode below one pool of two", "shape-cpu-limit", spec{Pools: cpuAndA4,
			Partitions: "- {id: mixed, nodePoolIds: [cpu, a4], config: {MaxCPUsPerNode: \"8\"}}"},
			[]diag.Severity{diag.Warning}, []string{`a whole-node job (--exclusive) is refused at submit`}},
		{"whole-node partition", "shape-cpu-limit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {OverSubscribe: EXCLUSIVE, MaxCPUsPerNode: \"8\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Error}, []string{"every job takes a whole node here"}},
		{"CoreSpecCount", "shape-cpu-limit", spec{Pools: cpuAndA4, NodeSets: "- {nodePoolId: a4, config: {CoreSpecCount: \"220\"}}",
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"1\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Warning}, []string{"DefCpuPerGPU=1 × 8 GPUs = 8 CPUs, a node has 4 CPUs for jobs (224 less 220 specialized)"}},
		{"whole-node partition: DefMemPerCPU", "memory-default-unfit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {OverSubscribe: EXCLUSIVE, DefMemPerCPU: \"20000\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Error}, []string{"every job here takes a whole node (OverSubscribe=EXCLUSIVE or Exclusive), and none without --mem fits: DefMemPerCPU=20000 MiB × 224 CPUs"}},
		{"whole-node partition: DefMemPerGPU", "memory-default-unfit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {OverSubscribe: EXCLUSIVE, DefMemPerGPU: \"600000\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Error}, []string{"every GPU job here takes a whole node and its 8 GPUs"}},
		{"DefCpuPerGPU: all GPUs", "shape-cpu-limit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"64\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Warning}, []string{"DefCpuPerGPU=64 × 8 GPUs = 512 CPUs, a node has 224 CPUs"}},
		{"DefCpuPerGPU: one GPU", "shape-cpu-limit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {DefCpuPerGPU: \"300\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Error}, []string{"no GPU job without --cpus-per-gpu fits its nodes: DefCpuPerGPU=300 CPUs for one GPU"}},
		{"MaxMemPerCPU: the product", "shape-mem-limit", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MaxMemPerCPU: \"2000\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Warning}, []string{"MaxMemPerCPU=2000 MiB × 224 CPUs = 448000 MiB"}},
		{"MinNodes above the pool", "shape-node-limits", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4], config: {MinNodes: \"5\"}}\n- {id: debug, nodePoolIds: [cpu]}"},
			[]diag.Severity{diag.Error}, []string{"MinNodes=5 but its pools have 4 nodes in all"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := lintText(t, "spec.yaml", tc.spec.YAML(), "")
			var got []diag.Diagnostic
			for _, d := range l {
				if d.Rule == tc.rule {
					got = append(got, d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d findings, want %d:\n%s", len(got), len(tc.want), show(l, tc.rule))
			}
			for i, d := range got {
				if d.Severity != tc.want[i] || !strings.Contains(d.Message, tc.parts[i]) || d.Hint == "" {
					t.Errorf("finding %d = %v %q (hint %q), want %v containing %q", i, d.Severity, d.Message, d.Hint, tc.want[i], tc.parts[i])
				}
			}
		})
	}
}
