// Package dispatch hands `slurmspec deploy` over to the slurmspec-deploy
// binary, git-style. slurmspec-deploy links the Pulumi SDK and the
// Automation API, whose package initialisers alone cost ~26 ms per
// process; slurmspec (run by pre-commit on every commit) must not. This
// package imports neither.
package dispatch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"

	"github.com/slurmspec/slurmspec/compiler/helperbin"
)

// Binary is the name of the deploy tool.
const Binary = "slurmspec-deploy"

// EnvBinary, when set, is the path of the deploy tool to run (tests).
const EnvBinary = "SLURMSPEC_DEPLOY"

// EnvCommand is set for slurmspec-deploy to the command the user typed
// before its arguments ("slurmspec deploy", "slurmspec" for verify), which
// it names itself by in its help, as the docs do.
const EnvCommand = "SLURMSPEC_DEPLOY_COMMAND"

// ErrNotFound is returned by Find when slurmspec-deploy is nowhere.
var ErrNotFound = errors.New(Binary + " not found next to slurmspec or on PATH; install it from a clone of slurmspec with `make install` (or `make build`, then put bin/" + Binary + " next to slurmspec or on PATH)")

// Find locates slurmspec-deploy as compiler/helperbin does:
// $SLURMSPEC_DEPLOY, then an executable file next to the running
// executable (as invoked, then with symlinks resolved), then PATH.
func Find() (string, error) {
	p, err := helperbin.Find(Binary, EnvBinary)
	if err != nil {
		return "", ErrNotFound
	}
	return p, nil
}

// Run runs slurmspec-deploy with args (everything after "deploy") and the
// given streams, and returns its exit code. command is what the user typed
// before args (EnvCommand; "" sets nothing). While it runs, interrupts are
// left to it (it shares the terminal's process group), so that Pulumi can
// cancel an update cleanly. The error is for a binary that is missing or
// cannot be started; the exit code is then 2.
func Run(command string, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	bin, err := Find()
	if err != nil {
		return 2, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if command != "" {
		cmd.Env = append(os.Environ(), EnvCommand+"="+command)
	}
	// Catching interrupts keeps slurmspec alive until the child, which the
	// terminal interrupts too, has finished cancelling.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		return 2, fmt.Errorf("starting %s: %w", bin, err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit):
		if code := exit.ExitCode(); code >= 0 {
			return code, nil
		}
		return 2, fmt.Errorf("%s: %v", Binary, err)
	}
	return 2, fmt.Errorf("%s: %w", Binary, err)
}
