package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

const lintHelp = `Check specs against the schema and every lint rule.

Arguments are spec files or directories; directories are searched
recursively for .json, .jsonc, .yaml, .yml and .cue files (hidden
directories are skipped). "-" reads standard input. Files are linted
concurrently and reported in a stable order.

Each finding is printed as "file:line:col: severity: message [rule-id]"
with the source line, the spec path and a hint. Exit status: 0 clean,
1 errors (or warnings with --strict), 2 usage or I/O errors.`

func newLintCmd(e env) *cobra.Command {
	var (
		opt       pipeline.Options
		outFormat string
		onl       onlineFlags
	)
	cmd := &cobra.Command{
		Use:   "lint FILE|DIR...",
		Short: "Check specs and report every problem",
		Long:  lintHelp,
		Example: `  slurmspec lint examples/seed.jsonc
  slurmspec lint --strict --disable placeholder clusters/
  cat cluster.json | slurmspec lint -
  slurmspec lint --format sarif clusters/ > slurmspec.sarif
  slurmspec lint --online cluster.yaml   # also check the Filestore instances with the API`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := newPipeline(opt)
			if err != nil {
				return err
			}
			formatter, err := format.New(outFormat, format.Options{Color: outFormat == "text" && useColour(e.stdout), FileSummary: true})
			if err != nil {
				return usageError("--format: %v", err)
			}
			files, err := expandArgs(args)
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			// Every spec's project config is read before any output, so a
			// bad one is a usage error, not half a report.
			for _, file := range files {
				if _, err := p.SettingsFor(file); err != nil {
					return usageError("%v", err)
				}
			}
			if e.sizedRun != nil {
				e.sizedRun(pipeline.TotalSize(files))
			}
			run := format.Run{Rules: format.RuleInfos(pipeline.Rules()), ToolVersion: toolVersion()}
			// Text and GitHub annotations print file by file, so each
			// result is printed as soon as it and its predecessors are
			// done and then dropped; JSON and SARIF are one document, for
			// which only each file's diagnostics are kept.
			perFile := outFormat == "text" || outFormat == "github"
			code := exitOK
			var onlineErr error
			var tally format.GitHubTally // GitHub shows only so many annotations
			err = p.Stream(files, e.stdin, func(r *pipeline.Result) error {
				if onl.enabled && onlineErr == nil && r.Cluster != nil {
					onlineErr = onl.check(cmd.Context(), r, opt)
				}
				switch {
				case r.IOError:
					code = max(code, exitUsage)
				case r.Failed():
					code = max(code, exitFindings)
				}
				f := formatFile(r)
				tally.Add(f.Diags)
				if !perFile {
					f.Source = nil // JSON and SARIF print no excerpts
					run.Files = append(run.Files, f)
					return nil
				}
				one := run
				one.Files = []format.File{f}
				if err := formatter.Format(e.stdout, one); err != nil {
					return fmt.Errorf("writing output: %w", err)
				}
				return nil
			})
			if err == nil && !perFile {
				if err = formatter.Format(e.stdout, run); err != nil {
					err = fmt.Errorf("writing output: %w", err)
				}
			}
			if note := tally.Note(); err == nil && outFormat == "github" && note != "" {
				if _, err = fmt.Fprint(e.stdout, note); err != nil {
					err = fmt.Errorf("writing output: %w", err)
				}
			}
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			if onlineErr != nil {
				return &exitError{code: exitUsage, msg: "--online: " + onlineErr.Error()}
			}
			if code != exitOK {
				return &exitError{code: code}
			}
			return nil
		},
	}
	opt.RegisterFlags(cmd.Flags())
	cmd.Flags().StringVar(&outFormat, "format", "text", "output format: "+strings.Join(format.Names(), ", "))
	onl.register(cmd)
	return cmd
}

// expandArgs turns file and directory arguments into the list of files to
// lint: files as given, directories searched for spec files in lexical
// order. Only regular files are taken from a directory: a FIFO, device or
// symbolic link found in the walk is skipped (a file named on the command
// line is the loader's to refuse).
func expandArgs(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
		st, err := os.Stat(arg)
		if arg == "-" || err != nil || !st.IsDir() {
			files = append(files, arg) // errors are reported per file
			continue
		}
		var found []string
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != arg && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			// Regular files only: a symbolic link, FIFO or device in a
			// checkout is skipped, never opened.
			if d.Type().IsRegular() && load.IsSpecFile(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", arg, err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}
