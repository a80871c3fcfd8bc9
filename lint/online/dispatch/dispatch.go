// Package dispatch runs the slurmspec-online helper for `slurmspec lint
// --online`, git-style: it finds the helper next to the running executable
// or on PATH, runs it on one spec and decodes the findings it prints as
// JSON. It does not import gRPC or the Filestore client, so the main binary
// keeps its start-up cost; the helper links them instead.
package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/helperbin"
	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/online"
)

// Flags are the helper's flags; Args turns them into arguments for Run.
// Zero fields are left to the helper's defaults.
type Flags struct {
	// Spec are the spec options as flags, exactly as the offline run took
	// them (lint/pipeline's Options.Args): the helper runs the same
	// pipeline with the same project config.
	Spec []string
	// Timeout bounds each Filestore API call (online.DefaultTimeout).
	Timeout time.Duration
	// MinHomeCapacityGiB is filestore-capacity's minimum
	// (online.DefaultMinHomeCapacityGiB); negative turns the check off.
	MinHomeCapacityGiB int64
	// Links is the offline run's --follow-symlinks, passed on: the helper
	// applies the same rule to the spec's path and --config.
	Links linkflag.Flag
}

// Args returns the helper's command-line flags for f.
func (f Flags) Args() []string {
	args := append([]string{}, f.Spec...)
	args = append(args, f.Links.Args()...)
	if f.Timeout > 0 {
		args = append(args, "--online-timeout="+f.Timeout.String())
	}
	if f.MinHomeCapacityGiB != 0 {
		args = append(args, "--min-home-capacity-gib="+strconv.FormatInt(f.MinHomeCapacityGiB, 10))
	}
	return args
}

// Find returns the path of the slurmspec-online helper as
// compiler/helperbin finds it: an executable file next to the running
// executable (as invoked, then with symlinks resolved), else on PATH. Its
// error is an *online.Error of kind KindNotInstalled.
func Find() (string, error) {
	p, err := helperbin.Find(online.HelperName, "")
	if err == nil {
		return p, nil
	}
	return "", online.Errorf(online.KindNotInstalled, err, fmt.Sprintf(
		"--online needs the %s helper next to slurmspec or on PATH: install it from a clone of slurmspec with `make install`",
		online.HelperName))
}

// Run runs the helper on the spec file specPath with args (flags, see
// Flags.Args) and returns the online findings, positioned in specPath as
// the offline run positions its own. Its errors are *online.Error values of
// one line each (online.KindOf classifies them); the command line should
// print the error and exit 2. Cancelling ctx kills the helper.
func Run(ctx context.Context, specPath string, args []string) (diag.List, error) {
	return run(ctx, specPath, nil, args)
}

// RunStdin is Run for a spec read from standard input: it passes src to
// the helper's standard input, and positions name the file "<stdin>".
func RunStdin(ctx context.Context, src []byte, args []string) (diag.List, error) {
	if src == nil {
		src = []byte{}
	}
	return run(ctx, "-", src, args)
}

// output is what the helper prints: a format.JSONReport, or an error.
type output struct {
	format.JSONReport
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

func run(ctx context.Context, specPath string, stdin []byte, args []string) (diag.List, error) {
	helper, err := Find()
	if err != nil {
		return nil, err
	}
	argv := append(append([]string{}, args...), "--", specPath)
	cmd := exec.CommandContext(ctx, helper, argv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, online.Errorf(online.KindOther, ctx.Err(), "online check interrupted: "+ctx.Err().Error())
	}

	var out output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		why := firstLine(stderr.String())
		if why == "" {
			why = fmt.Sprintf("unreadable output (%v)", err)
		}
		if runErr != nil {
			why = fmt.Sprintf("%v: %s", runErr, why)
		}
		return nil, online.Errorf(online.KindInternal, errors.Join(runErr, err), fmt.Sprintf("%s failed: %s", helper, why))
	}
	if out.Error != nil {
		return nil, online.Errorf(online.ParseKind(out.Error.Kind), runErr, out.Error.Message)
	}
	if out.Version != format.JSONVersion {
		return nil, online.Errorf(online.KindInternal, nil, fmt.Sprintf(
			"%s writes JSON version %d, want %d: install the helper of the same release as slurmspec", helper, out.Version, format.JSONVersion))
	}
	if runErr != nil {
		return nil, online.Errorf(online.KindInternal, runErr, fmt.Sprintf("%s failed: %v: %s", helper, runErr, firstLine(stderr.String())))
	}
	return decode(out.JSONReport)
}

// decode turns the helper's report back into diagnostics.
func decode(rep format.JSONReport) (diag.List, error) {
	var l diag.List
	for _, f := range rep.Files {
		for _, jd := range f.Diagnostics {
			sev, err := diag.ParseSeverity(jd.Severity)
			if err != nil {
				return nil, online.Errorf(online.KindInternal, err, fmt.Sprintf("%s printed a finding with %v", online.HelperName, err))
			}
			d := diag.Diagnostic{Rule: jd.Rule, Severity: sev, Pos: diag.Pos{File: jd.File, Line: jd.Line, Col: jd.Column, EndLine: jd.EndLine, EndCol: jd.EndColumn},
				Path: jd.Path, Message: jd.Message, Hint: jd.Hint}
			for _, r := range jd.Related {
				d.Related = append(d.Related, diag.Related{Pos: diag.Pos{File: r.File, Line: r.Line, Col: r.Column, EndLine: r.EndLine, EndCol: r.EndColumn}, Path: r.Path, Message: r.Message})
			}
			l = append(l, d)
		}
	}
	return l, nil
}

// firstLine returns the first non-blank line of s: a helper that crashed
// adds its panic message, never its stack trace.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
