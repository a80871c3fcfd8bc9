package rules_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestSchemaErrorsAddNoNoise breaks the spec of every rule case with
// schema errors (pipelinetest.Mutations: misspelt keys, dropped fields,
// refused map keys, wrong types, malformed strings; one at a time) and
// checks that no rule then reports anything the valid spec did not: a
// rule runs on the sound rest of a partly invalid spec, and skips the
// objects whose values the schema refused instead of misreading them.
// By default every third mutation of a case is tried, from an offset
// that differs by case (about 8 s; 35 s under -race); ONEROUND_STEP=1
// tries every one (about 20 s), ONEROUND_STEP=N every Nth.
func TestSchemaErrorsAddNoNoise(t *testing.T) {
	step := 3
	if n, err := strconv.Atoi(os.Getenv("ONEROUND_STEP")); err == nil && n > 0 {
		step = n
	}
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	pipelines := map[string]*pipeline.Pipeline{}
	tried := 0
	for i, c := range cases {
		p := pipelines[c.version]
		if p == nil {
			if p, err = pipeline.New(pipeline.Options{SlurmVersion: c.version}); err != nil {
				t.Fatal(err)
			}
			pipelines[c.version] = p
		}
		file := c.file
		if file == "" {
			file = "spec.yaml"
		}
		text, _ := stripMarkers(caseText(c))
		s := &pipeline.Settings{Lint: lint.Config{Options: lint.Options{SlurmVersion: orVersion(c.version)}}}
		base, err := p.Analyse(pipeline.Bytes(file, []byte(text)), pipeline.AnalyseOptions{Schema: sch, Settings: s})
		if err != nil {
			t.Fatal(err)
		}
		if base.Doc == nil || base.Cluster == nil {
			t.Fatalf("%s: not a valid spec:\n%s", caseName(c, i), base.Diags)
		}
		// Offset the sample by the case, so that cases built alike try
		// different values.
		rep := pipelinetest.SchemaNoise(p, sch, base, step, i)
		tried += rep.Tried
		if len(rep.Problems) > 0 {
			t.Errorf("%s:\n%s\n%s", caseName(c, i), strings.Join(rep.Problems, "\n"), numbered(text))
		}
	}
	if tried < len(cases)*3 {
		t.Errorf("only %d mutations were schema errors", tried)
	}
	t.Logf("%d schema errors tried", tried)
}

func orVersion(v string) string {
	if v == "" {
		return catalog.Newest().String()
	}
	return v
}
