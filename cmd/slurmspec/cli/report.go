package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/render/output"
)

// reportFlags are lint's output flags: the format, where the report goes,
// how much of it is printed, its colours and the severity that fails the
// run. They are the CLI's, not pipeline options: render and diff print no
// report.
type reportFlags struct {
	format string
	output string
	quiet  bool
	color  string
	failOn string
}

// Values of --color.
var colorModes = []string{"auto", "always", "never"}

// Values of --fail-on, most severe first ("note" is accepted for info,
// the name SARIF and the summaries use).
var failOnLevels = []string{"error", "warning", "info"}

func (f *reportFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	formatFlag(cmd, &f.format, format.Formats())
	fl.StringVar(&f.output, "output", "", "write the report to `FILE` (replaced atomically; never through a symlink) instead of standard output")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print only the findings: no per-file summary line")
	fl.StringVar(&f.color, "color", "auto", "colour the text report: auto (on a terminal, unless NO_COLOR is set or TERM=dumb; FORCE_COLOR forces it), always or never")
	fl.StringVar(&f.failOn, "fail-on", "", "lowest severity that makes lint exit 1: error (the default), warning (as --strict) or info")
	_ = cmd.RegisterFlagCompletionFunc("color", fixedCompletion(colorModes...))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", fixedCompletion(failOnLevels...))
	_ = cmd.MarkFlagFilename("output")
}

// threshold is the lowest severity that fails the run: --fail-on, else
// warning with --strict, else error. --strict with another --fail-on is
// a usage error.
func (f *reportFlags) threshold(strict bool) (diag.Severity, error) {
	if f.failOn == "" {
		if strict {
			return diag.Warning, nil
		}
		return diag.Error, nil
	}
	name := strings.ToLower(f.failOn)
	if name == "note" {
		name = "info"
	}
	if !slices.Contains(failOnLevels, name) {
		return 0, usageError("--fail-on: unknown severity %q (%s)", f.failOn,
			diag.DidYouMean(f.failOn, failOnLevels, "want error, warning or info"))
	}
	s, err := diag.ParseSeverity(name)
	if err != nil {
		return 0, usageError("--fail-on: %v", err)
	}
	if strict && s != diag.Warning {
		return 0, usageError("--strict means --fail-on warning; it cannot be combined with --fail-on %s", f.failOn)
	}
	return s, nil
}

// colour decides whether the text report written to w is coloured.
// --color always and never win; auto colours a terminal, unless NO_COLOR
// is set to a value or TERM is dumb, and FORCE_COLOR set to a value other
// than 0 or false colours any writer (no-color.org, force-color.org).
func (f *reportFlags) colour(e env, w io.Writer) (bool, error) {
	switch f.color {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		return autoColour(e, w), nil
	}
	return false, usageError("--color: unknown mode %q (%s)", f.color,
		diag.DidYouMean(f.color, colorModes, "want auto, always or never"))
}

// autoColour is --color auto.
func autoColour(e env, w io.Writer) bool {
	if e.getenv("NO_COLOR") != "" {
		return false
	}
	switch strings.ToLower(e.getenv("FORCE_COLOR")) {
	case "", "0", "false":
	default:
		return true
	}
	if e.getenv("TERM") == "dumb" {
		return false
	}
	file, ok := w.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// fixedCompletion completes a flag's value from a fixed list.
func fixedCompletion(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return withPrefix(values, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// withPrefix keeps the completions (a "value\tdescription" each) whose
// value begins with prefix.
func withPrefix(values []cobra.Completion, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

// notAnInput refuses an --output path that names one of the specs being
// linted (by device and inode, whatever the spelling): the report would
// replace the spec.
func notAnInput(path string, files []string) error {
	out, err := os.Stat(path)
	if err != nil {
		return nil // absent (or unreachable: createReport says why)
	}
	for _, f := range files {
		if f == "-" {
			continue
		}
		if in, err := os.Stat(f); err == nil && os.SameFile(in, out) {
			return fmt.Errorf("--output %s: is the spec %s; write the report elsewhere", path, f)
		}
	}
	return nil
}

// reportFile is a report being written to --output FILE: a temporary file
// in FILE's directory, renamed over FILE when the report is complete, so
// that FILE is never half written and never written through a symlink.
type reportFile struct {
	tmp  *os.File
	path string
}

// createReport checks the --output path and creates the temporary file.
// It refuses a FILE that exists and is not a regular file (a symlink, a
// directory, a FIFO), a relative path that passes through a symlink below
// the working directory (a link committed to the checkout would take the
// report elsewhere), and a FILE inside a directory render writes (one
// holding render's manifest): render would then refuse that directory, and
// render --check would report it stale.
func createReport(path string) (*reportFile, error) {
	if path == "" || strings.HasSuffix(path, "/") {
		return nil, fmt.Errorf("--output %q: want a file name", path)
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("--output %s: is not a regular file (%s); slurmspec replaces only regular files", path, load.FileKind(fi.Mode()))
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--output %s: %w", path, err)
	}
	if !filepath.IsAbs(path) {
		parts := strings.Split(filepath.Clean(path), string(filepath.Separator))
		for i := range parts[:len(parts)-1] {
			if parts[i] == ".." || parts[i] == "." {
				continue
			}
			prefix := filepath.Join(parts[:i+1]...)
			if fi, err := os.Lstat(prefix); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, fmt.Errorf("--output %s: %s is a symbolic link; pass the real path", path, prefix)
			}
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("--output %s: %w", path, err)
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if fi, err := os.Lstat(filepath.Join(d, output.Manifest)); err == nil && fi.Mode().IsRegular() {
			return nil, fmt.Errorf("--output %s: %s is a directory slurmspec render writes; write the report elsewhere", path, d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary name means nothing to the user
		}
		return nil, fmt.Errorf("--output %s: cannot create a file in %s: %w", path, filepath.Dir(path), err)
	}
	return &reportFile{tmp: tmp, path: abs}, nil
}

// Write implements io.Writer.
func (r *reportFile) Write(p []byte) (int, error) { return r.tmp.Write(p) }

// commit makes the report visible at its path (mode 0644, as a file
// created by a shell redirection under the usual umask).
func (r *reportFile) commit() error {
	err := r.tmp.Chmod(0o644)
	if err == nil {
		err = r.tmp.Sync()
	}
	if cerr := r.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(r.tmp.Name(), r.path)
	}
	if err != nil {
		_ = os.Remove(r.tmp.Name())
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// abort removes the temporary file; the path is left as it was.
func (r *reportFile) abort() {
	_ = r.tmp.Close()
	_ = os.Remove(r.tmp.Name())
}
