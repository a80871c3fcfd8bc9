package jobmix

import (
	"testing"

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
