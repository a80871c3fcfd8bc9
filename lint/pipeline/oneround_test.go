package pipeline_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/schema"
)

// TestSchemaErrorsAddNoLintNoise breaks every value of the bundled
// examples in every way the schema refuses, one at a time, and checks that
// the lint rules report nothing new (pipelinetest.SchemaNoise) and that no
// broken spec is left a Cluster to render. lint/rules does the same on
// every rule's cases.
func TestSchemaErrorsAddNoLintNoise(t *testing.T) {
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"../../examples/a4-training.yaml", "../../examples/seed.jsonc"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			base, err := p.Analyse(pipeline.File(file, nil), pipeline.AnalyseOptions{Schema: sch})
			if err != nil {
				t.Fatal(err)
			}
			if base.Doc == nil || base.Diags.HasErrors() {
				t.Fatalf("%s is not a valid spec:\n%v", file, base.Diags)
			}
			rep := pipelinetest.SchemaNoise(p, sch, base, 1, 0)
			if rep.Tried < 100 {
				t.Errorf("only %d mutations were schema errors", rep.Tried)
			}
			if len(rep.Problems) > 0 {
				t.Errorf("%d of %d schema errors:\n%s", len(rep.Problems), rep.Tried, strings.Join(rep.Problems, "\n"))
			}
		})
	}
}

// TestOneRoundIsForLintOnly: a spec with a schema error and a Slurm mistake
// reports both, but has no Cluster to render, and the compile-only path
// refuses it.
func TestOneRoundIsForLintOnly(t *testing.T) {
	src := []byte(`name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/train
nodePools:
- {id: cpu, machineSpec: {machineType: TODO-choose}, scalingSpec: {minNodeCount: 1, maxNodeCount: 1}}
- {id: login, machineSpec: {machineType: n2-standard-4}, scalingSpec: {minNodeCount: 1, maxNodeCount: 1}}
orchestratorSpec:
  slurmSpec:
    partitions: [{id: debug, nodePoolIds: [cpu], config: {MaxTim: "60"}}]
    loginNodePoolId: login
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
`)
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.SettingsIn(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.Bytes("s.yaml", src), pipeline.AnalyseOptions{Schema: sch, Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, d := range r.Diags {
		rules = append(rules, d.Rule)
	}
	if got := strings.Join(rules, " "); got != "schema-pattern unknown-config-key" {
		t.Errorf("findings %q, want the schema error and the unknown key", got)
	}
	if r.Cluster != nil || !r.Failed() {
		t.Errorf("a spec with a schema error has a Cluster (%v) or does not fail (%v)", r.Cluster != nil, r.Failed())
	}
	if _, _, err := pipeline.Compile(sch, "s.yaml", src, load.FormatAuto, compiler.Identity{}); !errors.Is(err, pipeline.ErrInvalid) {
		t.Errorf("Compile: %v, want ErrInvalid", err)
	}
}
