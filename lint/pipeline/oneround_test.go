package pipeline_test

import (
	"path/filepath"
	"strings"
	"testing"

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
			base, err := p.Analyse(sch, file, nil)
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
