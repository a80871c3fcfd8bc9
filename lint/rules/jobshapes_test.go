package rules_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
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
		{"per CPU lowered by MaxMemPerCPU", spec{
			Partitions: "- {id: debug, nodePoolIds: [cpu], config: {DefMemPerCPU: \"12000\", MaxMemPerCPU: \"5000\"}}"},
			[]diag.Severity{diag.Warning}, []string{"DefMemPerCPU=12000 MiB (lowered to 4000 MiB per CPU under MaxMemPerCPU=5000) × 8 CPUs = 32000 MiB, a node offers 31408 MiB"}},
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

// TestEveryMachineTypeDefaultsFit runs memory-default-unfit on a partition
// of every machine type of the catalog (issue 26, section 5): with no
// memory default every shape fits; a default of the node's memory per GPU
// (memory-default-missing's hint) or per CPU fits every shape, one MiB
// more does not (a warning when it still fits one GPU or one CPU, an error
// when the node has one).
func TestEveryMachineTypeDefaultsFit(t *testing.T) {
	base := func(config string) *ir.Cluster {
		return compile(t, "spec.yaml", spec{Pools: cpuAndA4,
			Partitions: "- {id: gpu, nodePoolIds: [a4]" + config + "}\n- {id: debug, nodePoolIds: [cpu]}"}.YAML())
	}
	none, perGPU, perCPU := base(""), base(", config: {DefMemPerGPU: \"1\"}"), base(", config: {DefMemPerCPU: \"1\"}")
	unfit := func(c *ir.Cluster, m *machines.Machine, def int) diag.List {
		pool := c.Pool("a4")
		pool.MachineType.Value, pool.Machine = m.Type, m
		if len(c.Slurm.Partitions[0].Config) > 0 {
			c.Slurm.Partitions[0].Config[0].Value.Value = strconv.Itoa(def)
		}
		var out diag.List
		for _, d := range lint.Run(c, []*lint.Rule{rules.MemoryDefaultUnfit}, lint.Config{}) {
			if d.Rule == "memory-default-unfit" {
				out = append(out, d)
			}
		}
		return out
	}
	cat := machines.Default()
	checked := 0
	for _, typ := range cat.Types() {
		m, _ := cat.Lookup(typ)
		mem := m.RealMemoryMiB()
		if !m.Known() {
			continue
		}
		checked++
		if l := unfit(none, m, 0); len(l) > 0 {
			t.Errorf("%s without memory defaults: %v", typ, l)
		}
		want := func(l diag.List, sev diag.Severity, what string) {
			if len(l) != 1 || l[0].Severity != sev {
				t.Errorf("%s, %s: want one %v, got %v", typ, what, sev, l)
			}
		}
		if gpus, whole := m.WholeGPUs(); m.HasGPU() && whole {
			if l := unfit(perGPU, m, mem/gpus); len(l) > 0 {
				t.Errorf("%s, DefMemPerGPU=%d (the node memory per GPU): %v", typ, mem/gpus, l)
			}
			sev := diag.Warning
			if gpus == 1 {
				sev = diag.Error
			}
			want(unfit(perGPU, m, mem/gpus+1), sev, "DefMemPerGPU one MiB above the memory per GPU")
		}
		if l := unfit(perCPU, m, mem/m.VCPUs); len(l) > 0 {
			t.Errorf("%s, DefMemPerCPU=%d (the node memory per CPU): %v", typ, mem/m.VCPUs, l)
		}
		sev := diag.Warning
		if m.VCPUs == 1 {
			sev = diag.Error
		}
		want(unfit(perCPU, m, mem/m.VCPUs+1), sev, "DefMemPerCPU one MiB above the memory per CPU")
	}
	if checked < 300 {
		t.Errorf("only %d machine types checked", checked)
	}
}
