package cli

import (
	"fmt"
	"io"
	"path"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/output"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

const renderHelp = `Render the files a cluster runs with into an output directory:

  slurm.conf            managed baseline, your config, nodes and partitions
  prolog.d/NN-prolog.sh one file per prologBashScripts entry, in list order
  epilog.d/NN-epilog.sh one file per epilogBashScripts entry
  cluster.json          the canonical API request body
  pulumi/Pulumi.yaml    a Pulumi YAML project deploying it (when project and
                        region are known: from the spec's name or flags)
  accounting/apply.sh   the sacctmgr script of the spec's accounting file
                        (docs/accounting.md), when it has one

Nothing is written unless the spec has no errors. The output directory is
replaced as a whole and atomically; slurmspec refuses a directory holding
files it did not write. With --check nothing is written: the command exits 1
and prints a unified diff when the directory is not what the spec renders.
--check prints none of the spec's findings, which are lint's to report: a
spec with errors gives one line, "not checked: FILE has N errors".`

func newRenderCmd(e env) *cobra.Command {
	var (
		opt   pipeline.Options
		out   string
		check bool
		dopt  pulumimodel.Options
		links linkFlag
	)
	cmd := &cobra.Command{
		Use:   "render FILE -o DIR",
		Short: "Render slurm.conf, prolog/epilog scripts and cluster.json",
		Long:  renderHelp,
		Example: `  slurmspec render examples/seed.jsonc -o out/
  slurmspec render examples/seed.jsonc -o out/ --check   # in CI: fail when out/ is stale`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError("render needs an output directory: -o DIR")
			}
			if err := links.file("", args[0]); err != nil {
				return err
			}
			if err := links.file("--config", opt.ConfigFile); err != nil {
				return err
			}
			r, err := analyseOne(opt, args[0], e)
			if err != nil {
				return err
			}
			// --check leaves the spec's findings to lint, which runs beside it
			// (the pre-commit hooks, the CI workflow): one line instead of the
			// same findings twice.
			if !check || r.IOError {
				printResult(e.stderr, r)
			}
			switch {
			case r.IOError:
				return &exitError{code: exitUsage}
			case check && (r.Failed() || r.Cluster == nil):
				return &exitError{code: exitFindings, msg: "not checked: " + args[0] + " has " + r.Summary() + " (slurmspec lint lists them)"}
			case r.Failed() || r.Cluster == nil:
				return &exitError{code: exitFindings, msg: "not rendered: " + r.Summary()}
			}
			set, l := render.Render(r.Cluster, render.Options{SlurmVersion: r.Settings.SlurmVersion(), Build: r.Settings.Target().Build.String(), Deploy: dopt})
			if len(l) > 0 {
				r.Diags = l
				printResult(e.stderr, r)
				return &exitError{code: exitFindings, msg: "not rendered"}
			}
			if r.Accounting != nil {
				set = sacctmgr.With(set, r.Accounting)
			}
			if check {
				diff, err := output.Check(out, set)
				if err != nil {
					return &exitError{code: exitUsage, msg: err.Error()}
				}
				if len(diff) > 0 {
					// The diff shows the rendered scripts, from the spec: no line
					// may read as a workflow command (escape.Block).
					_, _ = io.WriteString(e.stdout, escape.Block(string(diff)))
					return &exitError{code: exitFindings, msg: out + " is stale: run " + rerunCommand(cmd, args[0], out)}
				}
				fmt.Fprintf(e.stdout, "%s is up to date\n", escape.Text(out))
				return nil
			}
			if err := output.Write(out, set); err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			for _, a := range set {
				fmt.Fprintf(e.stdout, "wrote %s\n", escape.Text(path.Join(out, a.Path)))
			}
			return nil
		},
	}
	opt.RegisterFlags(cmd.Flags())
	cmd.Flags().StringVarP(&out, "output", "o", "", "output directory (replaced as a whole)")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 1 with a diff if the output directory is stale")
	dopt.RegisterFlags(cmd.Flags())
	links.register(cmd.Flags())
	return cmd
}
