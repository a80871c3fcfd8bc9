package cli

import (
	"io"
	"os"

	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// newPipeline checks the spec options of a command (exit 2 when they are
// wrong).
func newPipeline(opt pipeline.Options) (*pipeline.Pipeline, error) {
	p, err := pipeline.New(opt)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return p, nil
}

// formatFile is the format package's view of one result.
func formatFile(r *pipeline.Result) format.File {
	f := format.File{Name: r.Name(), Diags: r.Diags, Suppressed: r.Suppressed, Error: r.IOError}
	if r.Doc != nil {
		f.Source = r.Doc.Source
	}
	return f
}

// checkFailures are the checks that could not run on a spec: a rule or
// the schema that failed internally (an internal-error diagnostic). They
// make the report's run unsuccessful (format.Run.Failures); an unreadable
// file does so by itself.
func checkFailures(r *pipeline.Result) []string {
	var out []string
	for _, d := range r.Diags {
		if d.Rule == schema.RuleInternal {
			out = append(out, r.Name()+": "+d.Message)
		}
	}
	return out
}

// printResult prints one spec's diagnostics in the text format.
func printResult(w io.Writer, r *pipeline.Result) {
	_ = format.Text{Color: useColour(w)}.Format(w, format.Run{Files: []format.File{formatFile(r)}})
}

// useColour is --color auto for the diagnostics render and diff print on
// standard error.
func useColour(w io.Writer) bool { return autoColour(env{environ: os.Getenv}, w) }

// analyseOne runs the pipeline on one spec file (render): option and
// project config errors exit 2.
func analyseOne(opt pipeline.Options, file string, e env) (*pipeline.Result, error) {
	p, err := newPipeline(opt)
	if err != nil {
		return nil, err
	}
	r, err := p.Analyse(pipeline.File(file, e.stdin), pipeline.AnalyseOptions{})
	if err != nil {
		return nil, usageError("%v", err)
	}
	return r, nil
}

func newSchema() (*schema.Schema, error) {
	sch, err := schema.New()
	if err != nil {
		return nil, &exitError{code: exitUsage, msg: err.Error()}
	}
	return sch, nil
}
