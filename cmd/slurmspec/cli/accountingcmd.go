package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/outformat"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

const accountingPlanHelp = `Compare the spec's accounting file (docs/accounting.md) with the database a
capture of sacctmgr's output shows, and list what applying the file adds,
modifies (each field, old and new, and what tightens) and removes.

Capture the database on the login node, as a Slurm administrator:

` + sacctmgr.CaptureCommand + `

The capture holds those four tables, in any order, with any of sacctmgr's
columns (a field the file declares needs its column). The output of
sacctmgr dump CLUSTER file=FILE is a capture too; before 26.05 it holds no
QOS, so append the first command above to it. A line that is neither is
refused at its position, and nothing is planned.

A field the file leaves out is left as the database holds it; a QOS,
account, user or association the database holds and the file does not
declare is removed (never root, its association, or the normal QOS).
slurmdbd refuses to remove an account, user or association while it has
jobs ("Job(s) active, cancel job(s) before remove"), so a plan with
removals is refused unless --allow-removals is given; the plan is printed
either way.

--script FILE writes the sacctmgr -i script that applies exactly the plan
(replaced atomically, mode 0755). Exit status: 0 the plan is empty, 1 it
changes something (or removals were refused, or the spec has errors), 2
usage or I/O error.`

func newAccountingCmd(e env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "accounting",
		Short: "Plan the accounting file's changes to slurmdbd",
		Long:  "Work with the spec's accounting file: the QOS, accounts and users slurmdbd holds (docs/accounting.md).",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newAccountingPlanCmd(e))
	return cmd
}

func newAccountingPlanCmd(e env) *cobra.Command {
	var (
		opt           pipeline.Options
		current       string
		scriptPath    string
		outFmt        string
		allowRemovals bool
		links         linkFlag
	)
	cmd := &cobra.Command{
		Use:   "plan SPEC --current FILE",
		Short: "List what applying the accounting file adds, modifies and removes",
		Long:  accountingPlanHelp,
		Example: `  slurmspec accounting plan a4.yaml --current current.txt
  slurmspec accounting plan a4.yaml --current current.txt --script apply-plan.sh`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if current == "" {
				return usageError("accounting plan needs the database: --current FILE (capture it with sacctmgr show … -P; see --help)")
			}
			write, err := lookupFormat(planFormats(), outFmt)
			if err != nil {
				return err
			}
			for _, p := range [][2]string{{"", args[0]}, {"--current", current}, {"--config", opt.ConfigFile}} {
				if err := links.file(p[0], p[1]); err != nil {
					return err
				}
			}
			if scriptPath != "" {
				if err := notAnInput(scriptPath, []string{args[0], current}); err != nil {
					return usageError("%v", err)
				}
			}
			r, err := analyseOne(opt, args[0], e)
			if err != nil {
				return err
			}
			printResult(e.stderr, r)
			switch {
			case r.IOError:
				return &exitError{code: exitUsage}
			case r.Failed() || r.Cluster == nil:
				return &exitError{code: exitFindings, msg: "not planned: " + r.Summary()}
			case r.Accounting == nil:
				return usageError("%s has no accounting file: name it in .slurmspec.yaml (accounting:) or put it beside the spec (docs/accounting.md)", escape.Text(args[0]))
			}
			if scriptPath != "" {
				if err := notAnInput(scriptPath, []string{r.Accounting.Name, opt.ConfigFile}); err != nil {
					return usageError("--script %s: is an input (the accounting file or the config); write the script elsewhere", escape.Text(scriptPath))
				}
			}
			data, err := load.ReadFile(current, load.MaxFileSize)
			if err != nil {
				return usageError("--current: %v", err)
			}
			cur, err := sacctmgr.ParseCapture(current, data)
			if err != nil {
				return usageError("%v", err)
			}
			plan, err := sacctmgr.Compare(cur, sacctmgr.Declared(r.Accounting))
			if err != nil {
				return usageError("%s: %v", escape.Text(current), err)
			}
			if err := write(e.stdout, plan); err != nil {
				return err
			}
			if rm := plan.Removals(); len(rm) > 0 && !allowRemovals {
				names := make([]string, len(rm))
				for i, op := range rm {
					names[i] = op.Entity
				}
				return &exitError{code: exitFindings, msg: fmt.Sprintf("refused: the plan removes %s, which slurmdbd refuses while they have jobs; declare them in %s to keep them, or pass --allow-removals once their jobs are done (no script written)",
					escape.Text(strings.Join(names, ", ")), escape.Text(r.Accounting.Name))}
			}
			if scriptPath != "" {
				if err := writeScript(scriptPath, plan.Script(path.Base(r.Accounting.Name))); err != nil {
					return err
				}
			}
			if !plan.Empty() {
				return &exitError{code: exitFindings}
			}
			return nil
		},
	}
	opt.RegisterFlags(cmd.Flags())
	cmd.Flags().StringVar(&current, "current", "", "the capture of the database: sacctmgr show qos, account, user and association -P output, or sacctmgr dump output (see --help)")
	_ = cmd.MarkFlagFilename("current")
	cmd.Flags().StringVar(&scriptPath, "script", "", "write the sacctmgr script that applies exactly the plan to `FILE`")
	_ = cmd.MarkFlagFilename("script")
	cmd.Flags().BoolVar(&allowRemovals, "allow-removals", false, "plan removals (slurmdbd refuses them while the entity has jobs)")
	formatFlag(cmd, &outFmt, planFormats())
	links.register(cmd.Flags())
	return cmd
}

// planWriter writes an accounting plan in one format.
type planWriter func(w io.Writer, p *sacctmgr.Plan) error

// planFormats are the formats of slurmspec accounting plan --format, the
// default first.
func planFormats() *outformat.Registry[planWriter] {
	return outformat.MustNew(
		outformat.Format[planWriter]{Name: "text", Writer: func(w io.Writer, p *sacctmgr.Plan) error { return p.Text(w) }},
		outformat.Format[planWriter]{Name: "json", Writer: writePlanJSON},
	)
}

// writePlanJSON writes the plan as JSON.
func writePlanJSON(w io.Writer, p *sacctmgr.Plan) error {
	a, m, r := p.Count()
	out := struct {
		Version int           `json:"version"`
		Summary string        `json:"summary"`
		Add     int           `json:"add"`
		Modify  int           `json:"modify"`
		Remove  int           `json:"remove"`
		Ops     []sacctmgr.Op `json:"ops"`
	}{1, p.Summary(), a, m, r, p.Ops}
	if out.Ops == nil {
		out.Ops = []sacctmgr.Op{}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return &exitError{code: exitUsage, msg: fmt.Sprintf("encoding the plan: %v", err)}
	}
	_, err = w.Write(escape.JSON(append(b, '\n')))
	return err
}

// writeScript writes the plan's script atomically, mode 0755.
func writeScript(name string, data []byte) error {
	f, err := createReport(name)
	if err != nil {
		return usageError("--script: %v", strings.TrimPrefix(err.Error(), "--output "))
	}
	defer f.abort()
	if _, err := f.Write(data); err != nil {
		return &exitError{code: exitUsage, msg: fmt.Sprintf("--script: %v", err)}
	}
	if err := f.commit(); err != nil {
		return &exitError{code: exitUsage, msg: fmt.Sprintf("--script: %v", err)}
	}
	if err := os.Chmod(name, 0o755); err != nil {
		return &exitError{code: exitUsage, msg: fmt.Sprintf("--script: %v", err)}
	}
	return nil
}
