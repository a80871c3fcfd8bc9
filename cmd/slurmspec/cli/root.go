// Package cli is the slurmspec command line: it adapts flags to the packages
// that do the work (lint/pipeline for load, schema, compile and lint;
// render; render/diff; compiler/load/gitrev) and prints their results. It
// holds no logic of its own (docs/architecture.md).
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/cmd/internal/cmdtree"
	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1 // errors in the spec (or warnings with --strict), or a stale --check
	exitUsage    = 2 // bad usage, I/O errors, internal errors
)

// exitError carries an exit code through cobra. A nil-message exitError
// means the problem was already printed.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// env is what a command may touch of the process: its streams and stdin,
// and the collector's tuning.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// sizedRun, when set, is told the total size of the specs a lint is
	// about to read (standard input counts as small). Main sets it to
	// pipeline.TuneGC; in-process runs (tests) leave the collector alone.
	sizedRun func(total int64)
	// environ reads the environment (NO_COLOR, FORCE_COLOR, TERM); nil
	// is an empty environment.
	environ func(string) string
}

// getenv returns the environment variable name, "" when unset.
func (e env) getenv(name string) string {
	if e.environ == nil {
		return ""
	}
	return e.environ(name)
}

// Main runs the command line with os.Args and returns the exit code.
func Main() int {
	return run(os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, sizedRun: pipeline.TuneGC, environ: os.Getenv})
}

func run(args []string, e env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "slurmspec: internal error: %s\n%s", escape.Text(fmt.Sprint(r)), debug.Stack())
			code = exitUsage
		}
	}()
	root := newRootCmd(e)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	// Every error is printed here, escaped: it may hold file names,
	// arguments and flag values (cobra's own errors too), which must not
	// forge output lines (compiler/escape).
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(e.stderr, "slurmspec: %s\n", errorText(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintf(e.stderr, "slurmspec: %s\n", errorText(err.Error()))
	return exitUsage
}

// hintBreak starts a hint on a line of its own in an error message.
const hintBreak = "\n  hint: "

// errorText escapes an error message for printing (compiler/escape),
// keeping the line breaks before its hints: every line printed starts
// with "slurmspec: " or "  hint: ", so no part can start a workflow
// command or forge a line of its own.
func errorText(msg string) string {
	parts := strings.Split(msg, hintBreak)
	for i, p := range parts {
		parts[i] = escape.Text(p)
	}
	return strings.Join(parts, hintBreak)
}

func newRootCmd(e env) *cobra.Command {
	root := &cobra.Command{
		Use:   "slurmspec",
		Short: "Lint and render Slurm cluster specs for Google Cloud training clusters",
		Long: `slurmspec checks a ModelDevelopmentCluster spec (JSON with comments, YAML or CUE)
against an embedded CUE schema and lint rules that know Slurm, and renders the
slurm.conf, prolog/epilog scripts and API request body the cluster will run with.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, msg: err.Error()}
	})
	root.AddCommand(newLintCmd(e), newRenderCmd(e), newDiffCmd(e), newImportCmd(e), newSchemaCmd(e), newExplainCmd(e), newRulesCmd(e), newVersionCmd(e), newSandboxCmd(e), newDeployCmd(e), newVerifyCmd(e), newAccountingCmd(e))
	root.Version = toolVersion()
	root.SetVersionTemplate(versionText())
	root.InitDefaultCompletionCmd()
	cmdtree.Strict(root, func(msg string) error { return usageError("%s", msg) })
	registerCompletions(root)
	return root
}

func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// Run runs the command line with the given arguments and streams, for
// tests that call slurmspec in process.
func Run(args []string, stdout, stderr io.Writer) int {
	return run(args, env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, environ: os.Getenv})
}
