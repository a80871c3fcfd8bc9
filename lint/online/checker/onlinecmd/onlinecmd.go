// Package onlinecmd is the slurmspec-online helper's command line: it loads
// one spec through the normal offline pipeline (load, schema, compile), runs
// the online Filestore checks (lint/online/checker) and prints only their
// findings, in the JSON format of lint/format. The main slurmspec binary
// runs the helper through lint/online/dispatch when given --online, so
// that the offline path never links gRPC.
//
// Usage:
//
//	slurmspec-online [flags] [--] SPEC
//
// On success the helper prints a format.JSONReport and exits 0, whatever it
// found. When the online check cannot run it prints
//
//	{"version": 2, "error": {"kind": "permission-denied", "message": "..."}}
//
// on standard output, the message as one line on standard error, and exits
// 2. The kinds are the names of online.Kind.
package onlinecmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/compiler/buildinfo"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 2
)

// ErrorReport is what the helper prints on standard output when the online
// check could not run.
type ErrorReport struct {
	Version int       `json:"version"`
	Error   ErrorJSON `json:"error"`
}

// ErrorJSON is a classified failure: Kind is an online.Kind name.
type ErrorJSON struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Main runs the helper with os.Args and returns the exit code.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, checker.OptionsFromEnv())
}

// Run runs the helper with args, reading a spec named "-" from stdin. base
// supplies the client options (OptionsFromEnv in Main); the flags set the
// rest.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, base checker.Options) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = fail(stdout, stderr, online.Errorf(online.KindInternal, nil, fmt.Sprintf("internal error: %v", r)))
		}
	}()
	fs := pflag.NewFlagSet(online.HelperName, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		spec  pipeline.Options
		of    online.Flags
		links linkflag.Flag
	)
	spec.RegisterFlags(fs)
	of.RegisterFlags(fs)
	links.Register(fs)
	help := fs.BoolP("help", "h", false, "print this help")
	version := fs.Bool("version", false, "print the version (that of slurmspec) and exit")
	if err := fs.Parse(args); err != nil {
		return fail(stdout, stderr, online.Errorf(online.KindUsage, err, err.Error()))
	}
	if *version {
		fmt.Fprint(stdout, buildinfo.Line(online.HelperName))
		return ExitOK
	}
	if *help {
		fmt.Fprintf(stdout, "Usage: %s [flags] [--] SPEC\n\nRuns slurmspec's online Filestore checks on SPEC and prints their findings as JSON.\n\n%s",
			online.HelperName, fs.FlagUsages())
		return ExitOK
	}
	if fs.NArg() != 1 {
		return fail(stdout, stderr, online.Errorf(online.KindUsage, nil, fmt.Sprintf("want one spec file, got %d arguments", fs.NArg())))
	}
	if of.Timeout <= 0 {
		return fail(stdout, stderr, online.Errorf(online.KindUsage, nil, "--online-timeout must be positive"))
	}
	opt := base
	opt.Timeout, opt.MinHomeCapacityGiB = of.Timeout, of.MinHomeCapacityGiB
	file := fs.Arg(0)
	// The rule of every binary for the paths it is given: slurmspec lint
	// passes --follow-symlinks on when it was given it.
	for _, p := range [][2]string{{"", file}, {"--config", spec.ConfigFile}} {
		if err := links.File(p[0], p[1]); err != nil {
			return fail(stdout, stderr, online.Errorf(online.KindUsage, err, err.Error()))
		}
	}
	p, err := pipeline.New(spec)
	if err != nil {
		return fail(stdout, stderr, online.Errorf(online.KindUsage, err, err.Error()))
	}
	settings, err := p.SettingsFor(file)
	if err != nil {
		return fail(stdout, stderr, online.Errorf(online.KindUsage, err, err.Error()))
	}
	opt.Disabled = settings.Lint.Disabled
	sch, err := schema.New()
	if err != nil {
		return fail(stdout, stderr, online.Errorf(online.KindInternal, err, "loading the schema: "+err.Error()))
	}
	// The offline pipeline without its lint rules: the offline run
	// reports the spec's own problems; a spec that does not compile has
	// no online findings.
	r, err := p.Analyse(pipeline.File(file, stdin), pipeline.AnalyseOptions{Schema: sch, Settings: &pipeline.Settings{Lint: lint.Config{Disabled: allDisabled()}}})
	if err != nil {
		return fail(stdout, stderr, online.Errorf(online.KindUsage, err, err.Error()))
	}
	run := format.Run{Files: []format.File{{Name: r.Name()}}}
	if r.Cluster == nil {
		return write(stdout, stderr, run)
	}
	found, err := checker.Check(ctx, r.Cluster, opt)
	if err != nil {
		var oe *online.Error
		if !errors.As(err, &oe) {
			oe = online.Errorf(online.KindOther, err, err.Error())
		}
		return fail(stdout, stderr, oe)
	}
	run.Files[0].Diags = settings.Lint.Adjust(found)
	return write(stdout, stderr, run)
}

// allDisabled disables every rule: the helper reports online findings only.
func allDisabled() map[string]bool {
	off := map[string]bool{}
	for _, id := range pipeline.Catalog().Select(ids.Entry.Configurable) {
		off[id] = true
	}
	return off
}

// write prints the JSON report of the online findings.
func write(stdout, stderr io.Writer, run format.Run) int {
	if err := (format.JSON{}).Format(stdout, run); err != nil {
		fmt.Fprintf(stderr, "%s: writing output: %v\n", online.HelperName, err)
		return ExitError
	}
	return ExitOK
}

// fail prints a classified failure: JSON on stdout, one line on stderr.
func fail(stdout, stderr io.Writer, e *online.Error) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(ErrorReport{Version: format.JSONVersion, Error: ErrorJSON{Kind: e.Kind.String(), Message: e.Msg}})
	fmt.Fprintf(stderr, "%s: %s\n", online.HelperName, escape.Text(e.Msg)) // the message may hold a file name or an argument
	return ExitError
}
