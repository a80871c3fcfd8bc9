package jobmix

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/output"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// analyse lints a spec for a release as `slurmspec lint --slurm-version
// V --build debian` does and returns the compiled cluster and every
// finding.
func analyse(t *testing.T, name, data, release string) (*ir.Cluster, diag.List) {
	t.Helper()
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{SlurmVersion: release, Build: catalog.BuildDebian.String()})
	if err != nil {
		t.Fatal(err)
	}
	s := &pipeline.Settings{Lint: lint.Config{Options: lint.Options{SlurmVersion: release, Build: catalog.BuildDebian.String()}}}
	r, err := p.Analyse(pipeline.Bytes(name, []byte(data)), pipeline.AnalyseOptions{Schema: sch, Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	if r.Cluster == nil {
		t.Fatalf("%s does not compile: %v", name, r.Diags)
	}
	return r.Cluster, r.Diags
}

// renderDir renders a cluster for a release into a new directory.
func renderDir(t *testing.T, c *ir.Cluster, release string) string {
	t.Helper()
	set, l := render.Render(c, render.Options{SlurmVersion: release})
	if l.HasErrors() {
		t.Fatalf("render: %v", l)
	}
	dir := t.TempDir()
	if err := output.Write(dir, set); err != nil {
		t.Fatal(err)
	}
	return dir
}

// judgeClass runs the rendered cluster's job mix on the release and
// checks that exactly the shapes in fail fail, none undecided, and that
// lint's findings predicted every verdict.
func judgeClass(t *testing.T, c *ir.Cluster, diags diag.List, rel string, fail []string) {
	t.Helper()
	dir := renderDir(t, c, rel)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	verdicts, err := Run(ctx, Options{Dir: dir, Cluster: c, Release: rel})
	if err != nil {
		t.Fatal(err)
	}
	if len(verdicts) == 0 {
		t.Fatal("no shape judged")
	}
	for _, v := range verdicts {
		wantFail := slices.Contains(fail, v.Shape.ID())
		if v.Outcome.Fails() != wantFail || v.Outcome == Undecided {
			t.Errorf("%s: %s %s, want it to %s", v.Shape, v.Outcome, v.Reason, map[bool]string{true: "fail", false: "run"}[wantFail])
			continue
		}
		if wantFail {
			t.Logf("%s: %s: %s", v.Shape.ID(), v.Outcome, v.Reason)
		}
	}
	for _, j := range Compare(verdicts, Predict(Predictors(), c, diags, shapesOf(verdicts))) {
		if j.Class != Agree {
			t.Errorf("%s: %s (%s %s; predicted by %v)", j.Shape.ID(), j.Class, j.Outcome, j.Reason, j.Predicted)
		}
	}
}
