package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load/discover"
	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render/output"
)

const lintHelp = `Check specs against the schema and every lint rule.

Arguments are spec files or directories; with none, the current directory
(as golangci-lint and tflint do). A file named is linted as a
spec. A directory is searched for specs: .json, .jsonc, .yaml, .yml and
.cue files with a top-level nodePools or orchestratorSpec key (the
loader decides when the first 64 KiB do not show one), skipping hidden
directories, symbolic links, FIFOs and devices, what .gitignore ignores
(unless git tracks it), .slurmspec.yaml, directories slurmspec rendered,
and what .slurmspec.yaml's exclude patterns name; its include patterns
name specs the content test misses. How many files were skipped as not
specs, and how many entries as not regular files, is said on standard
error; --verbose names each. A directory with no spec is an error.
With --only-specs, named files that are not specs by the same tests are
skipped (the pre-commit hook passes every changed file). "-" reads
standard input: JSON when it begins with "{" (after a byte order mark
and comments), else give --input-format. Files are linted concurrently
and reported in a stable order.

No path given (an argument, --config) may pass through a symbolic link
below the working directory or inside a repository's work tree (a link
in a pull request can point outside the checkout): name the real path,
or pass --follow-symlinks. A spec file that is itself a link is never
read; name the file it points to.

Each finding is printed as "file:line:col: severity: message [rule-id]"
with the source line, the spec path and a hint, and each file ends with
"file: N errors, M warnings[, K notes]" (--quiet leaves that line out).
--output FILE writes the report to FILE instead of standard output: FILE
is replaced atomically once the report is complete, and refused when it
is a symlink, is one of the specs, or lies inside a directory render
writes.

Exit status: 0 clean, 1 findings of at least the --fail-on severity
(error by default; warning with --strict), 2 usage or I/O errors, or a
check that could not run.`

func newLintCmd(e env) *cobra.Command {
	var (
		opt       pipeline.Options
		rf        reportFlags
		onl       onlineFlags
		onlySpecs bool
		verbose   bool
		links     linkFlag
	)
	cmd := &cobra.Command{
		Use:   "lint [FILE|DIR...]",
		Short: "Check specs and report every problem",
		Long:  lintHelp,
		Example: `  slurmspec lint                      # the specs under the current directory
  slurmspec lint examples/seed.jsonc
  slurmspec lint --strict --disable placeholder clusters/
  cat cluster.json | slurmspec lint -
  slurmspec lint --format sarif --output slurmspec.sarif clusters/
  slurmspec lint --quiet --fail-on warning clusters/
  slurmspec lint --online cluster.yaml   # also check the Filestore instances with the API`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := links.file("--config", opt.ConfigFile); err != nil {
				return err
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			p, err := newPipeline(opt)
			if err != nil {
				return err
			}
			threshold, err := rf.threshold(opt.Strict)
			if err != nil {
				return err
			}
			if err := checkFormat(format.Formats(), rf.format); err != nil {
				return err
			}
			if _, err := rf.colour(e, e.stdout); err != nil {
				return err
			}
			files, err := expandArgs(p, args, expandOptions{onlySpecs: onlySpecs, verbose: verbose, links: links, notes: e.stderr})
			if err != nil {
				return err
			}
			// Every spec's project config is read before any output, so a
			// bad one is a usage error, not half a report.
			for _, file := range files {
				if _, err := p.SettingsFor(file); err != nil {
					return usageError("%v", err)
				}
			}
			out := e.stdout
			var report *reportFile
			if cmd.Flags().Changed("output") {
				if err := notAnInput(rf.output, files); err != nil {
					return usageError("%v", err)
				}
				if report, err = createReport(rf.output); err != nil {
					return usageError("%v", err)
				}
				defer report.abort() // a no-op after commit
				out = report
			}
			colour, _ := rf.colour(e, out)
			formatter, err := format.New(rf.format, format.Options{Color: rf.format == "text" && colour, FileSummary: !rf.quiet})
			if err != nil {
				return usageError("--format: %v", err)
			}
			if e.sizedRun != nil {
				e.sizedRun(pipeline.TotalSize(files))
			}
			run := format.Run{Rules: format.RuleInfos(diagCatalog().Entries()), ToolVersion: toolVersion()}
			// Text and GitHub annotations print file by file, so each
			// result is printed as soon as it and its predecessors are
			// done and then dropped; JSON and SARIF are one document, for
			// which only each file's diagnostics are kept.
			perFile := rf.format == "text" || rf.format == "github"
			code := exitOK
			var onlineErr error
			var tally format.GitHubTally // GitHub shows only so many annotations
			err = p.Stream(files, e.stdin, func(r *pipeline.Result) error {
				if onl.enabled && onlineErr == nil && r.Cluster != nil {
					onlineErr = onl.check(cmd.Context(), r, opt, links)
				}
				switch {
				case r.IOError:
					code = max(code, exitUsage)
				case r.Failed() || r.Diags.Count(threshold) > 0:
					code = max(code, exitFindings)
				}
				run.Failures = append(run.Failures, checkFailures(r)...)
				f := formatFile(r)
				tally.Add(f.Diags)
				if !perFile {
					f.Source = nil // JSON and SARIF print no excerpts
					run.Files = append(run.Files, f)
					return nil
				}
				one := run
				one.Files, one.Failures = []format.File{f}, nil
				if err := formatter.Format(out, one); err != nil {
					return fmt.Errorf("writing output: %w", err)
				}
				return nil
			})
			if onlineErr != nil {
				run.Failures = append(run.Failures, "--online: "+onlineErr.Error())
			}
			if err == nil && (!perFile || len(run.Failures) > 0) {
				// The whole document, or after the files printed one by
				// one, the checks that could not run (as annotations in
				// the github format; the text format has printed them).
				if perFile {
					run.Files = nil
				}
				if err = formatter.Format(out, run); err != nil {
					err = fmt.Errorf("writing output: %w", err)
				}
			}
			if note := tally.Note(); err == nil && rf.format == "github" && note != "" {
				if _, err = fmt.Fprint(out, note); err != nil {
					err = fmt.Errorf("writing output: %w", err)
				}
			}
			if err == nil && report != nil {
				err = report.commit()
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
	rf.register(cmd)
	links.register(cmd.Flags())
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "name each file a directory search skipped (not a spec, or not a regular file)")
	cmd.Flags().BoolVar(&onlySpecs, "only-specs", false, "skip named files that are not specs instead of linting them (for the pre-commit hook, which passes every changed YAML and JSON file)")
	onl.register(cmd)
	return cmd
}

// expandOptions are what expandArgs needs besides the arguments.
type expandOptions struct {
	onlySpecs bool      // the pre-commit hook's --only-specs
	verbose   bool      // name each file skipped, not only count them
	links     linkFlag  // --follow-symlinks
	notes     io.Writer // standard error, for what was skipped
}

// expandArgs turns file and directory arguments into the list of files to
// lint (compiler/load/discover decides which files are specs): a file
// named on the command line is linted as given, unless onlySpecs (the
// pre-commit hook's --only-specs) lets discover.Keep drop it; a directory
// yields the specs under it, in lexical order, and none is a usage error.
// No argument may pass through a symbolic link (linkFlag): an argument
// that is itself a link to a directory is refused, one to anything else
// is linted as a file, which the loader refuses, naming it (with
// --follow-symlinks a linked directory is searched). What was skipped is said on
// notes: how many files were not specs and how many entries were not
// regular files, or with verbose each of them.
func expandArgs(p *pipeline.Pipeline, args []string, eo expandOptions) ([]string, error) {
	opt := discover.Options{
		ConfigName:   lint.ProjectConfigFile,
		OutputMarker: output.Manifest,
		Patterns: func(dir string) (discover.Patterns, error) {
			s, err := p.SettingsIn(dir)
			if err != nil || s.Project.Path == "" {
				return discover.Patterns{}, err
			}
			pc := s.Project
			return discover.Patterns{Dir: filepath.Dir(pc.Path), Include: pc.Include, Exclude: pc.Exclude}, nil
		},
	}
	var files, skippedNamed []string
	for _, arg := range args {
		if arg == "-" {
			files = append(files, arg)
			continue
		}
		if err := eo.links.file("", arg); err != nil {
			return nil, err
		}
		st, err := os.Stat(arg)
		if lst, lerr := os.Lstat(arg); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 && !eo.links.Follow {
			if err == nil && st.IsDir() {
				return nil, asUsage(&linkflag.Error{Path: arg, Link: arg}) // in scope or not: it would be searched
			}
			st, err = lst, nil // never searched: the loader refuses it
		}
		if err != nil || !st.IsDir() {
			if eo.onlySpecs {
				keep, err := discover.Keep(arg, opt)
				if err != nil {
					return nil, &exitError{code: exitUsage, msg: err.Error()}
				}
				if !keep {
					skippedNamed = append(skippedNamed, arg)
					continue
				}
			}
			files = append(files, arg) // errors are reported per file
			continue
		}
		res, err := discover.Dir(arg, opt)
		if err != nil {
			return nil, &exitError{code: exitUsage, msg: err.Error()}
		}
		for _, n := range res.Notes {
			fmt.Fprintf(eo.notes, "slurmspec: note: %s\n", escape.Text(n))
		}
		if len(res.Specs) == 0 {
			if eo.verbose {
				skippedNotes(eo, arg, res)
			}
			return nil, &exitError{code: exitUsage, msg: noSpecsError(arg, res).Error()}
		}
		skippedNotes(eo, arg, res)
		files = append(files, res.Specs...)
	}
	switch {
	case len(skippedNamed) == 0:
	case eo.verbose:
		for _, f := range skippedNamed {
			fmt.Fprintf(eo.notes, "slurmspec: note: %s: skipped: not a spec\n", escape.Text(f))
		}
	default:
		n := len(skippedNamed)
		fmt.Fprintf(eo.notes, "slurmspec: note: %s skipped as %s (--verbose names them)\n", plural(n, "named file"), pick(n, "not a spec", "not specs"))
	}
	return files, nil
}

// skippedNotes says what a directory search skipped.
func skippedNotes(eo expandOptions, dir string, res discover.Result) {
	if eo.verbose {
		for _, f := range res.NotSpecs {
			fmt.Fprintf(eo.notes, "slurmspec: note: %s: skipped: not a spec (no top-level nodePools or orchestratorSpec key)\n", escape.Text(f))
		}
		for _, s := range res.NotRegular {
			fmt.Fprintf(eo.notes, "slurmspec: note: %s: skipped: %s, not a regular file\n", escape.Text(s.Path), s.Kind)
		}
		return
	}
	if n := len(res.NotSpecs); n > 0 {
		fmt.Fprintf(eo.notes, "slurmspec: note: %s: %s skipped as %s (--verbose names them)\n", escape.Text(dir), plural(n, "file"), pick(n, "not a spec", "not specs"))
	}
	if n := len(res.NotRegular); n > 0 {
		fmt.Fprintf(eo.notes, "slurmspec: note: %s: %s skipped as %s: links, FIFOs and devices are not opened (--verbose names them)\n", escape.Text(dir), plural(n, "entry", "entries"), pick(n, "not a regular file", "not regular files"))
	}
}

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// plural is "1 file", "2 files" (or the plural form given).
func plural(n int, one string, many ...string) string {
	if n == 1 {
		return "1 " + one
	}
	if len(many) > 0 {
		return fmt.Sprintf("%d %s", n, many[0])
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// noSpecsError says why a directory yielded no spec.
func noSpecsError(dir string, res discover.Result) error {
	why := res.Why
	switch {
	case why != "":
	case res.Candidates == 0:
		why = "it holds no .json, .jsonc, .yaml, .yml or .cue file that is not hidden or ignored"
	default:
		why = fmt.Sprintf("no .json, .jsonc, .yaml, .yml or .cue file under it (%d looked at) has a top-level nodePools or orchestratorSpec key", res.Candidates)
	}
	return fmt.Errorf("no specs found under %s: %s\n  hint: name the spec file, or list it under include: in %s", dir, why, lint.ProjectConfigFile)
}
