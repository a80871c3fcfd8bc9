package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/diff"
	"github.com/slurmspec/slurmspec/schema"
)

const diffHelp = `Compare what two versions of a spec render to, and say what the change
does to the running cluster.

Each side is a spec file or REV:PATH, read from git (origin/main:cluster.yaml).
Both are rendered, then compared semantically: slurm.conf key by key (case
and order are not changes), per partition, node set and node line; prolog
and epilog scripts as unified diffs; node pools and cluster fields by field.

Every change is classified: applied in place through the API's update mask,
needs scontrol reconfigure, needs a slurmctld restart, replaces a node pool,
or replaces the whole cluster; changes that hurt running or pending jobs are
flagged.

Exit status: 0 no change, 1 changes, 2 error. With --fail-on IMPACT, exit 1
only when a change has at least that impact (in-place, reconfigure, restart,
replace (any replacement), replace-pool, replace-cluster).`

func newDiffCmd(e env) *cobra.Command {
	var (
		f       specFlags
		outFmt  string
		failOn  string
		oldName string
		newName string
	)
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Show what a spec change does to slurm.conf and the cluster",
		Long:  diffHelp,
		Example: `  slurmspec diff origin/main:cluster.yaml cluster.yaml
  slurmspec diff --format markdown --fail-on replace origin/main:cluster.yaml cluster.yaml`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(cmd); err != nil {
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
			write := map[string]func(*diff.Report) error{
				"text":     func(r *diff.Report) error { return r.Text(e.stdout) },
				"markdown": func(r *diff.Report) error { return r.Markdown(e.stdout) },
				"json":     func(r *diff.Report) error { return r.JSON(e.stdout) },
			}[outFmt]
			if write == nil {
				return usageError("--format must be text, markdown or json, not %q", outFmt)
			}
			sch, err := schema.New()
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			var sets [2]render.Set
			var names [2]string
			for i, arg := range args {
				set, name, err := renderSide(sch, arg, &f, e)
				if err != nil {
					return err
				}
				sets[i], names[i] = set, name
			}
			opt := diff.Options{SlurmVersion: f.slurmVersion, OldName: names[0], NewName: names[1]}
			if oldName != "" {
				opt.OldName = oldName
			}
			if newName != "" {
				opt.NewName = newName
			}
			report, err := diff.CompareWith(sets[0], sets[1], opt)
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			if err := write(report); err != nil {
				return &exitError{code: exitUsage, msg: fmt.Sprintf("writing output: %v", err)}
			}
			switch {
			case !report.HasChanges():
				return nil
			case failOn != "" && report.MaxImpact() < threshold:
				return nil
			}
			return &exitError{code: exitFindings}
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().StringVar(&outFmt, "format", "text", "output format: text, markdown (a PR comment) or json")
	cmd.Flags().StringVar(&failOn, "fail-on", "", "exit 1 only for changes with at least this impact (e.g. replace)")
	cmd.Flags().StringVar(&oldName, "old-name", "", "resource name of the old cluster, when its spec has none")
	cmd.Flags().StringVar(&newName, "new-name", "", "resource name of the new cluster, when its spec has none")
	return cmd
}

// renderSide reads one side of a diff (a file, or REV:PATH from git),
// checks it and renders it. It returns the rendered set and the cluster's
// resource name when the spec states one.
func renderSide(sch *schema.Schema, arg string, f *specFlags, e env) (render.Set, string, error) {
	var a analysis
	if rev, path, ok := gitRef(arg); ok {
		data, err := gitShow(rev, path)
		if err != nil {
			return nil, "", &exitError{code: exitUsage, msg: err.Error()}
		}
		a = analyseBytes(sch, arg, data, f)
	} else {
		a = analyse(sch, arg, f, e)
	}
	if a.ioError || a.cluster == nil {
		printDiags(e.stderr, a)
		return nil, "", &exitError{code: exitUsage, msg: fmt.Sprintf("%s: cannot be compared: %s", arg, summary(a.diags))}
	}
	if a.diags.HasErrors() {
		// Still comparable: a rule may have become stricter since OLD.
		printDiags(e.stderr, a)
	}
	set, l := render.Render(a.cluster, render.Options{SlurmVersion: f.slurmVersion})
	if len(l) > 0 {
		a.diags = l
		printDiags(e.stderr, a)
		return nil, "", &exitError{code: exitUsage, msg: arg + ": not rendered"}
	}
	name := ""
	if c := a.cluster; c.Project.Value != "" && c.Region.Value != "" && c.ID.Value != "" {
		name = fmt.Sprintf("projects/%s/locations/%s/modelDevelopmentClusters/%s", c.Project.Value, c.Region.Value, c.ID.Value)
	}
	return set, name, nil
}

// gitRef splits REV:PATH when arg is not an existing file.
func gitRef(arg string) (rev, path string, ok bool) {
	if _, err := os.Stat(arg); err == nil {
		return "", "", false
	}
	rev, path, ok = strings.Cut(arg, ":")
	return rev, path, ok && rev != "" && path != ""
}

func gitShow(rev, path string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("git", "show", rev+":"+strings.TrimPrefix(path, "./"))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("reading %s:%s from git: %v: %s", rev, path, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
