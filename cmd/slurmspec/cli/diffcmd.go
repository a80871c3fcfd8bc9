package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/load/gitrev"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/diff"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

const diffHelp = `Compare what two versions of a spec render to, and say what the change
does to the running cluster.

Each side is a spec file or REV:PATH, read from git (origin/main:cluster.yaml);
PATH follows git's rules: relative to the repository root, or to the current
directory when it begins with ./ or ../. A REV beginning with - is refused.
Both are rendered, then compared semantically: slurm.conf key by key (case
and order are not changes), per partition, node set and node line; prolog
and epilog scripts as unified diffs; node pools and cluster fields by field.
The accounting files beside the specs (docs/accounting.md; for REV:PATH the
one at that revision) are compared too: QOS, accounts, users and
associations added, removed or changed, with who loses access and which
limits tighten, listed apart since sacctmgr applies them.

Every change is classified: applied in place through the API's update mask,
needs scontrol reconfigure, needs a slurmctld restart, replaces a node pool,
or replaces the whole cluster; changes that hurt running or pending jobs are
flagged. A partition key that falls back to the global one is compared by
the value Slurm uses (partition, global, Slurm's default).

A spec with errors is not compared: its findings are printed on standard
error and diff exits 2 (with --strict, warnings too). Only an OLD side
that still compiles is compared despite errors (a rule may have become
stricter since it was committed); its findings are printed.

Exit status, as diff(1)'s: 0 no change, 1 changes (the report says which),
2 trouble: a spec with errors, usage or I/O error. Exit 1 never comes
with an empty report. With --fail-on IMPACT, changes exit 1 only when one has at least
that impact (in-place, reconfigure, restart, replace (any replacement),
replace-pool, replace-cluster).

--detailed-exitcode gives terraform plan's convention instead: 0 no
change, 2 changes (with --fail-on, changes of at least that impact), 1
any error (a spec with errors, usage, I/O), which is always explained on
standard error. Give it before any mistake on the command line: an
option that cannot be parsed stops the parsing there.

--output FILE writes the report to FILE instead of standard output, with
lint's rules: FILE is replaced atomically once the report is complete
(also when diff exits 1 for changes), and refused when it is a symlink,
passes through one below the working directory, is one of the specs, or
lies inside a directory render writes.`

func newDiffCmd(e env) *cobra.Command {
	var (
		opt     pipeline.Options
		outFmt  string
		failOn  string
		oldName string
		newName string
		links   linkFlag
		// detailed is --detailed-exitcode: 0 no change, 2 changes, 1 error.
		detailed bool
		outPath  string
	)
	// changed is what diff returns for changes, mapped to 2 when detailed.
	changed := &exitError{code: exitFindings}
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Show what a spec change does to slurm.conf and the cluster",
		Long:  diffHelp,
		Example: `  slurmspec diff origin/main:cluster.yaml cluster.yaml
  slurmspec diff --format markdown --fail-on replace origin/main:cluster.yaml cluster.yaml
  slurmspec diff --format markdown --output "$RUNNER_TEMP/diff.md" origin/main:cluster.yaml cluster.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.ExactArgs(2)(cmd, args); err != nil {
				return detailedExit(&exitError{code: exitUsage, msg: err.Error()}, nil, detailed)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			defer func() { err = detailedExit(err, changed, detailed) }()
			if err := links.file("--config", opt.ConfigFile); err != nil {
				return err
			}
			p, err := newPipeline(opt)
			if err != nil {
				return err
			}
			threshold := diff.Impact(0)
			if failOn != "" {
				t, err := diff.ParseImpact(failOn)
				if err != nil {
					return usageError("--fail-on: %v", err)
				}
				threshold = t
			}
			write, err := lookupFormat(diff.Formats(), outFmt)
			if err != nil {
				return err
			}
			for _, arg := range args {
				if _, isRef := gitRef(arg); !isRef {
					if err := links.file("", arg); err != nil {
						return err
					}
				}
			}
			var out io.Writer = e.stdout
			var report *reportFile
			if cmd.Flags().Changed("output") {
				if err := notAnInput(outPath, args); err != nil {
					return usageError("%v", err)
				}
				if report, err = createReport(outPath); err != nil {
					return usageError("%v", err)
				}
				defer report.abort() // a no-op after commit
				out = report
			}
			sch, err := newSchema()
			if err != nil {
				return err
			}
			// Both sides render for the new side's target (Slurm
			// version and build), the one the change is meant for.
			newSettings, err := settingsOf(cmd.Context(), p, args[1])
			if err != nil {
				return err
			}
			version := newSettings.SlurmVersion()
			var sets [2]render.Set
			var names [2]string
			var accts [2]*accounting.File
			for i, arg := range args {
				r, err := readSide(cmd.Context(), p, sch, arg, e)
				if err != nil {
					return err
				}
				if sets[i], names[i], err = renderSide(arg, r, version, i == 1, e); err != nil {
					return err
				}
				accts[i] = sideAccounting(cmd.Context(), arg, r, r.Settings, e)
			}
			dopt := diff.Options{SlurmVersion: version, Target: newSettings.Target().String(), OldName: names[0], NewName: names[1],
				OldAccounting: accts[0], NewAccounting: accts[1]}
			if oldName != "" {
				dopt.OldName = oldName
			}
			if newName != "" {
				dopt.NewName = newName
			}
			result, err := diff.CompareWith(sets[0], sets[1], dopt)
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			if err := write(result, out); err != nil {
				return &exitError{code: exitUsage, msg: fmt.Sprintf("writing output: %v", err)}
			}
			if report != nil {
				if err := report.commit(); err != nil {
					return &exitError{code: exitUsage, msg: err.Error()}
				}
			}
			switch {
			case !result.HasChanges():
				return nil
			case failOn != "" && result.MaxImpact() < threshold:
				return nil
			}
			return changed
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return detailedExit(&exitError{code: exitUsage, msg: err.Error()}, nil, detailed)
	})
	cmd.Flags().BoolVar(&detailed, "detailed-exitcode", false, "exit as terraform plan -detailed-exitcode does: 0 no change, 2 changes, 1 error")
	opt.RegisterFlags(cmd.Flags())
	formatFlag(cmd, &outFmt, diff.Formats())
	cmd.Flags().StringVar(&outPath, "output", "", "write the report to `FILE` (replaced atomically; never through a symlink) instead of standard output")
	_ = cmd.MarkFlagFilename("output")
	cmd.Flags().StringVar(&failOn, "fail-on", "", "exit 1 only for changes with at least this impact (e.g. replace)")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", fixedCompletion(impacts()...))
	cmd.Flags().StringVar(&oldName, "old-name", "", "resource name of the old cluster, when its spec has none")
	cmd.Flags().StringVar(&newName, "new-name", "", "resource name of the new cluster, when its spec has none")
	links.register(cmd.Flags())
	return cmd
}

// detailedExit maps diff's result to --detailed-exitcode's convention
// when detailed is set: changes (the error changed) exit 2, and every
// other error exits 1 with its message; without it, err is returned as
// it is.
func detailedExit(err error, changed *exitError, detailed bool) error {
	switch {
	case !detailed || err == nil:
		return err
	case changed != nil && err == changed:
		return &exitError{code: 2}
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return &exitError{code: 1, msg: ee.msg}
	}
	return &exitError{code: 1, msg: err.Error()}
}

// settingsOf returns the settings of one side of a diff: those of the
// spec's directory (for REV:PATH, the directory PATH names in the working
// tree, by git's path rules).
func settingsOf(ctx context.Context, p *pipeline.Pipeline, arg string) (*pipeline.Settings, error) {
	dir := ""
	if ref, isRef := gitRef(arg); isRef {
		if err := ref.Check(); err != nil {
			return nil, usageError("%s: %v", arg, err)
		}
		d, err := gitrev.Dir(ctx, "", ref)
		if err != nil {
			return nil, &exitError{code: exitUsage, msg: err.Error()}
		}
		dir = d
	}
	var s *pipeline.Settings
	var err error
	if dir != "" {
		s, err = p.SettingsIn(dir)
	} else {
		s, err = p.SettingsFor(arg)
	}
	if err != nil {
		return nil, usageError("%v", err)
	}
	return s, nil
}

// readSide reads one side of a diff (a file, or REV:PATH from git) and
// runs the pipeline on it with its settings (settingsOf).
func readSide(ctx context.Context, p *pipeline.Pipeline, sch *schema.Schema, arg string, e env) (*pipeline.Result, error) {
	s, err := settingsOf(ctx, p, arg)
	if err != nil {
		return nil, err
	}
	src := pipeline.File(arg, e.stdin)
	if ref, isRef := gitRef(arg); isRef {
		data, err := gitrev.Read(ctx, "", ref)
		if err != nil {
			return nil, &exitError{code: exitUsage, msg: err.Error()}
		}
		src = pipeline.Bytes(arg, data)
	}
	r, err := p.Analyse(src, pipeline.AnalyseOptions{Schema: sch, Settings: s})
	if err != nil {
		return nil, usageError("%v", err)
	}
	return r, nil
}

// renderSide checks one side and renders it for version. It returns the
// rendered set and the cluster's resource name when the spec states one.
// A side that cannot be read is a usage error (exit 2). A side with errors
// is not compared: its findings are printed and diff exits 2, as for any
// trouble (1 is for changes). The one exception is an old side that still
// compiles: a rule may have become stricter since it was written, and the
// change that fixes it deserves its diff; its findings are printed.
func renderSide(arg string, r *pipeline.Result, version string, isNew bool, e env) (render.Set, string, error) {
	switch {
	case r.IOError:
		printResult(e.stderr, r)
		return nil, "", &exitError{code: exitUsage, msg: fmt.Sprintf("%s: cannot be compared: %s", arg, r.Summary())}
	case r.Cluster == nil || isNew && r.Failed():
		printResult(e.stderr, r)
		// Not exitFindings: diff's 1 means changes, shown in the report.
		return nil, "", &exitError{code: exitUsage, msg: fmt.Sprintf("%s: not compared: %s (see slurmspec lint)", arg, r.Summary())}
	case r.Diags.HasErrors():
		printResult(e.stderr, r)
	}
	set, l := render.Render(r.Cluster, render.Options{SlurmVersion: version})
	if len(l) > 0 {
		r.Diags = l
		printResult(e.stderr, r)
		return nil, "", &exitError{code: exitUsage, msg: arg + ": not rendered"}
	}
	name := ""
	if c := r.Cluster; c.Project.Value != "" && c.Region.Value != "" && c.ID.Value != "" {
		name = fmt.Sprintf("projects/%s/locations/%s/modelDevelopmentClusters/%s", c.Project.Value, c.Region.Value, c.ID.Value)
	}
	return set, name, nil
}

// gitRef reads arg as REV:PATH when it is not an existing file.
func gitRef(arg string) (gitrev.Ref, bool) {
	if _, err := os.Lstat(arg); err == nil {
		return gitrev.Ref{}, false
	}
	return gitrev.Parse(arg)
}
