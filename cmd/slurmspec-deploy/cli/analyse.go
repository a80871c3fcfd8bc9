package cli

import (
	"github.com/slurmspec/slurmspec/deploy/pulumi/policy"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// analyse checks the spec in file exactly as `slurmspec lint` does, with
// the docs' placeholders as errors (a placeholder's cluster names no
// cluster: deploy/pulumi/policy), and prints its findings to stderr. The
// caller decides what a spec with errors means for its command.
func analyse(e env, file string, spec pipeline.Options) (*pipeline.Result, error) {
	p, err := pipeline.New(spec)
	if err != nil {
		return nil, failed("%v", err)
	}
	res, err := p.Analyse(pipeline.File(file, e.stdin), pipeline.AnalyseOptions{})
	if err != nil {
		return nil, failed("%v", err)
	}
	policy.StrictPlaceholders(res)
	if len(res.Diags) > 0 {
		_ = format.Text{}.Format(e.stderr, format.Run{Files: []format.File{{Name: res.Name(), Source: source(res), Diags: res.Diags}}})
	}
	return res, nil
}
