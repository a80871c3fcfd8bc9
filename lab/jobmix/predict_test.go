package jobmix

import (
	"slices"
	"strings"
	"testing"
)

// TestPredictShapeRules: each shape-* rule's findings predict the shapes
// its message says fail, and no other (on classSpec's two n2-standard-16
// nodes, or runSpec's A4 partition for DefCpuPerGPU).
func TestPredictShapeRules(t *testing.T) {
	gpuSpec := func(config string) string {
		return strings.Replace(runSpec, `{DefMemPerGPU: "600000", MaxTime: "60"}`, config, 1)
	}
	for _, tc := range []struct {
		name, spec, rule string
		want             []string
	}{
		{"MaxNodes 0", classSpec(`{MaxNodes: "0"}`), "shape-node-limits",
			[]string{"cpu/cpu/one-task", "cpu/cpu/one-task+sized", "cpu/cpu/whole-node", "cpu/cpu/whole-node+sized"}},
		{"MaxTime 0", classSpec(`{MaxTime: "0"}`), "shape-time-limit",
			[]string{"cpu/cpu/one-task+sized", "cpu/cpu/whole-node+sized", "cpu/cpu/two-nodes+sized", "cpu/cpu/max-time"}},
		{"MaxCPUsPerNode 1", classSpec(`{MaxCPUsPerNode: "1"}`), "shape-cpu-limit",
			[]string{"cpu/cpu/whole-node", "cpu/cpu/whole-node+sized"}},
		{"MaxCPUsPerNode below two pools", classSpecWith(`{MaxCPUsPerNode: "4"}`, true, "", ""), "shape-cpu-limit",
			[]string{"cpu/cpu/whole-node", "cpu/cpu/whole-node+sized", "cpu/cpu8/whole-node", "cpu/cpu8/whole-node+sized"}},
		{"MaxCPUsPerNode 1, exclusive", classSpec(`{MaxCPUsPerNode: "1", OverSubscribe: EXCLUSIVE}`), "shape-cpu-limit",
			[]string{"cpu/cpu/one-task", "cpu/cpu/one-task+sized", "cpu/cpu/whole-node", "cpu/cpu/whole-node+sized",
				"cpu/cpu/two-nodes", "cpu/cpu/two-nodes+sized"}},
		{"MaxMemPerNode below the node", classSpec(`{MaxMemPerNode: "30000"}`), "shape-mem-limit",
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"MaxMemPerCPU below the node per CPU", classSpec(`{MaxMemPerCPU: "1000"}`), "shape-mem-limit",
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"DefMemPerNode above MaxMemPerNode", classSpec(`{MaxMemPerNode: "30000", DefMemPerNode: "40000"}`), "shape-mem-limit",
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"DefMemPerCPU × CPUs above MaxMemPerNode", classSpec(`{DefMemPerCPU: "3926", MaxMemPerNode: "15704"}`), "shape-mem-limit",
			[]string{"cpu/cpu/whole-node"}},
		{"DefMemPerCPU above MaxMemPerNode", classSpec(`{DefMemPerCPU: "3000", MaxMemPerNode: "2000"}`), "shape-mem-limit",
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"DefMemPerCPU × CPUs above MaxMemPerNode, exclusive", classSpec(`{DefMemPerCPU: "3926", MaxMemPerNode: "15704", OverSubscribe: EXCLUSIVE}`), "shape-mem-limit",
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"DefCpuPerGPU above a node's CPUs per GPU", gpuSpec(`{DefCpuPerGPU: "64"}`), "shape-cpu-limit",
			[]string{"gpu/a4/all-gpus", "gpu/a4/all-gpus+sized"}},
		{"DefCpuPerGPU above a node's CPUs", gpuSpec(`{DefCpuPerGPU: "300"}`), "shape-cpu-limit",
			[]string{"gpu/a4/one-gpu", "gpu/a4/one-gpu+sized", "gpu/a4/all-gpus", "gpu/a4/all-gpus+sized"}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			c, diags := analyse(t, "p.yaml", tc.spec, "24.11")
			shapes := Derive(c, map[string][]string{"cpu": {"n-0", "n-1"}, "cpu8": {"e-0", "e-1"}, "a4": {"a-0", "a-1"}})
			var got []string
			for _, cl := range Predict(Predictors(), c, diags, shapes) {
				if !strings.HasPrefix(cl.Finding, tc.rule+": ") {
					continue
				}
				got = append(got, cl.ShapeID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s predicts %v, want %v\nfindings:\n%v", tc.rule, got, tc.want, diags)
			}
		})
	}
}

// TestDeriveMinNodes: a partition's MinNodes leaves out the shapes of
// fewer nodes (it is for larger jobs: lint rightly says nothing); one
// above the pool's nodes leaves none (shape-node-limits reports it).
func TestDeriveMinNodes(t *testing.T) {
	for config, want := range map[string][]string{
		`{MinNodes: "1"}`: {"cpu/cpu/one-task", "cpu/cpu/one-task+sized", "cpu/cpu/whole-node", "cpu/cpu/whole-node+sized",
			"cpu/cpu/two-nodes", "cpu/cpu/two-nodes+sized"},
		`{MinNodes: "2"}`: {"cpu/cpu/two-nodes", "cpu/cpu/two-nodes+sized"},
		`{MinNodes: "3"}`: nil,
	} {
		c, _ := analyse(t, "min.yaml", classSpec(config), "24.11")
		var got []string
		for _, s := range Derive(c, map[string][]string{"cpu": {"n-0", "n-1"}}) {
			got = append(got, s.ID())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: shapes %v, want %v", config, got, want)
		}
	}
}
