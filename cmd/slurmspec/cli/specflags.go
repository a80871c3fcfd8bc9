package cli

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// specFlags adapts pipeline.Options to the shape sandbox.go reads (its
// orchestration is moving to deploy/sandbox; then this file goes). Every
// other command uses package pipeline directly.
type specFlags struct {
	opt pipeline.Options
	p   *pipeline.Pipeline
	// After validate: the resolved Slurm version (sandbox may change it
	// before analyse), --strict and the project config in force.
	slurmVersion  string
	strict        bool
	projectConfig lint.ProjectConfig
	settings      *pipeline.Settings
}

func (f *specFlags) register(fs *pflag.FlagSet) { f.opt.RegisterFlags(fs) }

// validate checks the options and resolves the settings of the spec (the
// first of specs; without one, a spec in the working directory).
func (f *specFlags) validate(_ *cobra.Command, specs ...string) error {
	p, err := newPipeline(f.opt)
	if err != nil {
		return err
	}
	file := "-"
	if len(specs) > 0 {
		file = specs[0]
	}
	s, err := p.SettingsFor(file)
	if err != nil {
		return usageError("%v", err)
	}
	f.p, f.settings = p, s
	f.slurmVersion, f.strict, f.projectConfig = s.SlurmVersion(), s.Strict, s.Project
	return nil
}

// analysis is a pipeline result in sandbox.go's shape.
type analysis struct {
	file    string
	doc     *load.Document
	cluster *ir.Cluster
	diags   diag.List
	ioError bool
}

// analyse runs the pipeline on file with f's settings, linting for
// f.slurmVersion.
func analyse(sch *schema.Schema, file string, f *specFlags, e env) analysis {
	s := *f.settings
	s.Lint.SlurmVersion = f.slurmVersion
	r := f.p.AnalyseFileWith(sch, file, e.stdin, &s)
	return analysis{file: r.File, doc: r.Doc, cluster: r.Cluster, diags: r.Diags, ioError: r.IOError}
}

func printDiags(w io.Writer, a analysis) {
	printResult(w, &pipeline.Result{File: a.file, Doc: a.doc, Diags: a.diags, IOError: a.ioError})
}

func failed(l diag.List, strict bool) bool {
	r := pipeline.Result{Diags: l, Settings: &pipeline.Settings{Strict: strict}}
	return r.Failed()
}

func summary(l diag.List) string { return l.Summary() }
