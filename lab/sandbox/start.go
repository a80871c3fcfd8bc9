package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// PrereqsError is returned by CheckPrereqs when the host lacks something
// the sandbox needs.
type PrereqsError struct {
	// Packages are the Debian packages that install what is missing.
	Packages []string
}

// Error names the one apt-get line that installs everything missing.
func (e *PrereqsError) Error() string {
	msg := "not started: missing prerequisites"
	if len(e.Packages) > 0 {
		msg += "; install them all with: apt-get install -y " + strings.Join(e.Packages, " ")
	}
	return msg
}

// CheckPrereqs prints one line to out for each missing prerequisite, with
// the apt-get line that installs it, and returns a *PrereqsError naming
// them all; other failures are returned as they are.
func CheckPrereqs(out io.Writer) error {
	err := localslurm.Prereqs()
	if err == nil {
		return nil
	}
	var pe *localslurm.PrereqError
	if !errors.As(err, &pe) {
		return err
	}
	perr := &PrereqsError{}
	for _, m := range pe.Missing {
		line := "missing prerequisite: " + m.What + " " + m.Detail
		if m.Package != "" {
			line += "; install with: apt-get install -y " + m.Package
			if !slices.Contains(perr.Packages, m.Package) {
				perr.Packages = append(perr.Packages, m.Package)
			}
		}
		say(out, "%s", line)
	}
	return perr
}

// VersionError is returned by ChooseVersion when the installed Slurm is a
// release slurmspec does not render for.
type VersionError struct{ Installed string }

func (e *VersionError) Error() string {
	var vs []string
	for _, v := range catalog.Versions() {
		vs = append(vs, v.String())
	}
	return fmt.Sprintf("the installed slurmctld is %s, a release slurmspec does not render for (%s): pass --slurm-version", e.Installed, strings.Join(vs, ", "))
}

// ChooseVersion returns the Slurm release series to render for: the
// target's release when one is stated, by --slurm-version (explicit) or
// by the project config's slurmVersion (fromProject, the series it
// names), else the installed slurmctld's (installed, such as "22.05.8").
// requested is the settings' series (the flag's, else the project
// config's). release is the series to run when it is not the host's
// own: a stated release the harness runs from its root file system
// (localslurm.Releases). A note to print is returned when the choice
// needs saying.
func ChooseVersion(installed, requested string, explicit bool, fromProject string) (version, release, note string, err error) {
	series := installed
	if s, err := catalog.ParseSeries(installed); err == nil {
		series = s.String()
	}
	if explicit || fromProject != "" {
		switch {
		case requested != series && slices.Contains(localslurm.Releases(), requested):
			release = requested
			note = fmt.Sprintf("running Slurm %s from its root file system (the installed slurmctld is %s)", release, installed)
		case requested != series:
			note = fmt.Sprintf("warning: rendering for Slurm %s, but the installed slurmctld is %s: it may refuse keys it does not know", requested, installed)
		}
		return requested, release, note, nil
	}
	v, err := catalog.ParseVersion(series)
	if err != nil {
		return "", "", "", &VersionError{Installed: installed}
	}
	return v.String(), "", note, nil
}

// RenderError is returned by Start when the spec does not render.
type RenderError struct{ Diags diag.List }

func (e *RenderError) Error() string { return "not started: the spec does not render" }

// StartOptions configure Start: Options without the rendered set, which
// Start makes.
type StartOptions struct {
	Options
	// Cluster is the compiled spec; Start changes its config by Settings.
	Cluster  *ir.Cluster
	Settings []Setting
	// Accounting is the spec's accounting file (docs/accounting.md), nil
	// when it has none: its script joins the rendered set, and the
	// supervisor applies it.
	Accounting *accounting.File
}

// Start applies the what-if settings to the cluster's config, renders it
// for o.RenderedFor and starts the sandbox (Up). A spec that does not
// render gives a *RenderError with the renderer's diagnostics.
func Start(ctx context.Context, o StartOptions) (*State, error) {
	o.Changes = Apply(o.Cluster, o.Settings)
	set, l := render.Render(o.Cluster, render.Options{SlurmVersion: o.RenderedFor})
	if len(l) > 0 {
		return nil, &RenderError{Diags: l}
	}
	if o.Accounting != nil {
		set = sacctmgr.With(set, o.Accounting)
		for _, u := range o.Accounting.Users {
			o.AccountingUsers = append(o.AccountingUsers, u.Name.Text)
		}
	}
	o.Set = set
	return Up(ctx, o.Options)
}

// Foreground runs c with the given streams, passing on SIGTERM and SIGHUP
// (a terminal's Ctrl-C reaches it directly), and returns its exit status:
// 128+N for a command killed by signal N, 127 for one not found. err is
// set only when the command could not be run or waited for.
func Foreground(c *exec.Cmd, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	c.Stdin, c.Stdout, c.Stderr = stdin, stdout, stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	if err := c.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return 127, err
		}
		return -1, err
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	for {
		select {
		case s := <-sigs:
			if s != os.Interrupt {
				_ = c.Process.Signal(s)
			}
		case err := <-done:
			return exitCode(err)
		}
	}
}

// exitCode maps a command's Wait result to an exit status.
func exitCode(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	return -1, err
}

// HostCommand returns a command that runs argv on the host (not in the
// namespace) with the sandbox's environment (Env), finding the program on
// that environment's PATH as a shell would, so that bin/'s wrappers win.
func (s *State) HostCommand(argv []string) *exec.Cmd {
	c := exec.Command(argv[0], argv[1:]...)
	c.Env = s.Env(os.Environ())
	if p, err := lookPathIn(argv[0], c.Env); err == nil {
		c.Path, c.Err = p, nil
	}
	return c
}

// lookPathIn finds a program as the shell would with env's PATH.
func lookPathIn(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// PrintUse prints how to use a sandbox that is up; hint is the
// --state-dir flag to repeat on later commands, or "".
func (s *State) PrintUse(w io.Writer, hint string) {
	fmt.Fprintf(w, "\nsandbox: cluster %q is up (slurmctld %s; stand-in nodes %s)\n", s.Cluster, s.SlurmVersion, strings.Join(s.StandIns, ", "))
	fmt.Fprintf(w, "Use it from this shell: %s/ wraps Slurm's commands (sbatch, srun, squeue, scontrol,\nsinfo, sacct, sacctmgr, sprio, ...) to run in the sandbox's private namespace,\nwhere the rendered host names resolve:\n\n", s.BinDir())
	for l := range strings.SplitSeq(strings.TrimSpace(s.ExportLines()), "\n") {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintf(w, "\nor: eval \"$(slurmspec sandbox env%s)\"\n", hint)
	fmt.Fprintf(w, "or one command at a time: slurmspec sandbox exec%s -- squeue\n", hint)
	fmt.Fprintf(w, "status: slurmspec sandbox status%s    stop: slurmspec sandbox down%s\n", hint, hint)
}
