package pipeline_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// rangeText returns the source text a diagnostic's range covers (columns
// count characters).
func rangeText(t *testing.T, src string, p diag.Pos) string {
	t.Helper()
	if !p.HasEnd() {
		t.Fatalf("%v has no end", p)
	}
	lines := strings.SplitAfter(src, "\n")
	off := func(line, col int) int {
		o := 0
		for _, l := range lines[:line-1] {
			o += len(l)
		}
		r := []rune(lines[line-1])
		return o + len(string(r[:col-1]))
	}
	return src[off(p.Line, p.Col):off(p.EndLine, p.EndCol)]
}

// TestDiagnosticsCarryRanges: the schema's, the compiler's and the lint
// rules' diagnostics carry the range of the value they are about, through
// the pipeline, across lines and with multi-byte characters.
func TestDiagnosticsCarryRanges(t *testing.T) {
	const pools = "nodePools:\n- id: cpu\n  machineSpec: {machineType: n2-standard-16}\n  scalingSpec: {minNodeCount: 2, maxNodeCount: 2}\n" +
		"- id: login\n  machineSpec: {machineType: n2-standard-8}\n  scalingSpec: {maxNodeCount: 1}\n"
	for _, tc := range []struct {
		name, src string
		opt       pipeline.Options
		want      map[string]string // rule -> the text its range covers
	}{{
		name: "schema",
		src: pools + "orchestratorSpec:\n  slurmSpec:\n    loginNodePoolId: login\n" +
			"    homeDirectoryStorage: [1,\n      2]\n    partitions:\n    - {id: cpu, nodePoolIds: [cpu]}\n",
		want: map[string]string{"schema-type": "[1,\n      2]"},
	}, {
		name: "compile and lint",
		src: "name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/demo\n" + pools +
			"orchestratorSpec:\n  slurmSpec:\n    loginNodePoolId: login\n" +
			"    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home\n" +
			"    partitions:\n    - {id: cpu, nodePoolIds: [cpu]}\n    config: {SuspendExcNodes: \"dé-cpu-[0-9\"}\n",
		opt: pipeline.Options{ClusterID: "other"},
		want: map[string]string{
			compiler.RuleIdentity: "projects/acme-prod/locations/us-central1/modelDevelopmentClusters/demo",
			"suspend-exc-unknown": `"dé-cpu-[0-9"`,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := pipeline.New(tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			sch, err := schema.New()
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Analyse(pipeline.Bytes("spec.yaml", []byte(tc.src)), pipeline.AnalyseOptions{Schema: sch, Settings: &pipeline.Settings{}})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, d := range r.Diags {
				want, ok := tc.want[d.Rule]
				if !ok {
					continue
				}
				seen[d.Rule] = true
				if got := rangeText(t, tc.src, d.Pos); got != want {
					t.Errorf("%s: range %v-%d:%d covers %q, want %q", d.Rule, d.Pos, d.Pos.EndLine, d.Pos.EndCol, got, want)
				}
			}
			for rule := range tc.want {
				if !seen[rule] {
					t.Errorf("no %s diagnostic in:\n%v", rule, r.Diags)
				}
			}
		})
	}
}
