package rules_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// TestShapeLimitsSkipRefusedNodeSets checks that shape-cpu-limit and
// shape-mem-limit, like memory-default-unfit, say nothing when the schema
// refused a node set: its CoreSpecCount and MemSpecLimit, which leave the
// partition's limits room, are then unread, and the rules would count the
// whole node. Without the node set both rules report (the spec is one
// where the node set matters); with it, valid, neither does.
func TestShapeLimitsSkipRefusedNodeSets(t *testing.T) {
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rules := []string{"shape-cpu-limit", "shape-mem-limit"}
	const config = `CoreSpecCount: "2", MemSpecLimit: "12000"`
	for _, tc := range []struct {
		name, nodeSets string
		want           int // findings of each rule
	}{
		{"no node set", "", 1},
		{"valid node set", "- {nodePoolId: cpu, config: {" + config + "}}", 0},
		{"nodePoolId of the wrong type", "- {nodePoolId: 5, config: {" + config + "}}", 0},
		{"nodePoolId misspelt", "- {nodePoolIds: cpu, config: {" + config + "}}", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := spec{
				Partitions: `- {id: debug, nodePoolIds: [cpu], config: {MaxCPUsPerNode: "6", MaxMemPerNode: "20000"}}`,
				NodeSets:   tc.nodeSets,
			}.YAML()
			s := &pipeline.Settings{Lint: lint.Config{Options: lint.Options{SlurmVersion: "26.05"}}}
			r, err := p.Analyse(pipeline.Bytes("spec.yaml", []byte(text)), pipeline.AnalyseOptions{Schema: sch, Settings: s})
			if err != nil {
				t.Fatal(err)
			}
			for _, rule := range rules {
				n := 0
				for _, d := range r.Diags {
					if d.Rule == rule {
						n++
					}
				}
				if n != tc.want {
					t.Errorf("%d findings of %s, want %d:\n%s", n, rule, tc.want, show(diag.List(r.Diags), ""))
				}
			}
			schemaErr := false
			for _, d := range r.Diags {
				schemaErr = schemaErr || strings.HasPrefix(d.Rule, "schema-")
			}
			if refused := strings.Contains(tc.nodeSets, "nodePoolIds") || strings.Contains(tc.nodeSets, ": 5"); refused != schemaErr {
				t.Errorf("the schema refused the spec: %v, want %v:\n%s", schemaErr, refused, show(diag.List(r.Diags), ""))
			}
		})
	}
}
