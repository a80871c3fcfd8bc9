package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/render/output"
)

// stopTimeout bounds the wait for the supervisor to stop the cluster.
const stopTimeout = 90 * time.Second

// Down stops the sandbox in dir and removes its state: it tells the
// supervisor to stop the cluster (SIGTERM) and waits for it; then it stops
// any recorded process that still runs (by PID, only while the PID is still
// the recorded process: same start time, same executable), and whatever is
// left in the cluster's namespace; it removes the cluster's work directory
// and the files of the state directory that the sandbox wrote, then the
// directory if nothing else is left. With no sandbox in dir it does
// nothing, so it is safe to run twice.
//
// Down acts only on a state.json the sandbox wrote itself (Read verifies
// its MAC): a forged or unreadable one stops nothing and removes nothing.
// A directory without state.json is removed only when it is empty.
func Down(dir string, out io.Writer) error {
	if out == nil {
		out = io.Discard
	}
	st, err := Read(dir)
	if errors.Is(err, ErrNoSandbox) {
		say(out, "no sandbox in %s: nothing to stop", dir)
		return nil
	}
	if errors.Is(err, errNoState) {
		// Up was stopped before it wrote any state: only an empty
		// directory can be its.
		if rmErr := os.Remove(dir); rmErr != nil {
			return fmt.Errorf("sandbox down: %w; nothing removed", err)
		}
		say(out, "removed the empty state directory %s", dir)
		return nil
	}
	if err != nil {
		return fmt.Errorf("sandbox down: %w", err)
	}
	dir = st.Dir
	var errs []error
	if st.Supervisor.Running() {
		say(out, "stopping: SIGTERM to the supervisor, pid %d, which stops the cluster's daemons", st.Supervisor.PID)
		began := time.Now()
		if err := st.Supervisor.stop(stopTimeout); err != nil {
			errs = append(errs, err)
		}
		say(out, "supervisor stopped in %v", time.Since(began).Round(time.Millisecond))
	}
	// The supervisor stops the daemons; these only run if it died first.
	var left []Proc
	for _, p := range st.Processes {
		if p.Running() {
			left = append(left, p)
		}
	}
	h, hasHolder := st.Holder()
	if hasHolder && h.Running() && st.Namespace != "" && mountNamespace(h.PID) == st.Namespace {
		// The live holder keeps the namespace, so its identity is still
		// this sandbox's: everything in it is the cluster's.
		for _, p := range processesIn(st.Namespace, h.PID) {
			if !containsPID(left, p.PID) {
				left = append(left, p)
			}
		}
	}
	for i := len(left) - 1; i >= 0; i-- {
		p := left[i]
		if p.PID == h.PID {
			continue
		}
		say(out, "stopping %s, left running", p)
		if err := p.stop(15 * time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	if hasHolder && h.Running() {
		say(out, "stopping %s, left running", h)
		if err := h.stop(5 * time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	var running []string
	for _, p := range append(st.Processes, st.Supervisor) {
		if p.Running() {
			running = append(running, p.String())
		}
	}
	if len(running) > 0 {
		errs = append(errs, fmt.Errorf("still running: %s", strings.Join(running, ", ")))
		return fmt.Errorf("sandbox down: %w (state kept in %s)", errors.Join(errs...), dir)
	}
	if len(st.Processes) > 0 {
		var names []string
		for _, p := range st.Processes {
			names = append(names, fmt.Sprintf("%s %d", p.Name, p.PID))
		}
		say(out, "gone: %s", strings.Join(names, ", "))
	}
	// The supervisor removes the work directory when it stops the
	// cluster; it is left only if the supervisor died.
	if err := removeWorkDir(st.WorkDir, out); err != nil {
		errs = append(errs, err)
	}
	if err := removeStateDir(dir); err != nil {
		errs = append(errs, err)
	} else {
		say(out, "removed %s", dir)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sandbox down: %w", err)
	}
	return nil
}

// removeWorkDir removes the cluster's work directory: only a directory
// named localslurm-* directly in the temporary directory, where
// lab/localslurm makes it, and never through a symlink.
func removeWorkDir(work string, out io.Writer) error {
	if work == "" {
		return nil
	}
	clean := filepath.Clean(work)
	if filepath.Dir(clean) != filepath.Clean(os.TempDir()) || !strings.HasPrefix(filepath.Base(clean), "localslurm-") {
		return fmt.Errorf("the recorded work directory %s is not one lab/localslurm makes; left alone", work)
	}
	fi, err := os.Lstat(clean)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("the recorded work directory %s is not a directory; left alone", work)
	}
	say(out, "removing the cluster's work directory %s", clean)
	return os.RemoveAll(clean)
}

// removeStateDir removes what Up and the supervisor write in a state
// directory, then the directory; anything else is left, with an error
// naming it.
func removeStateDir(dir string) error {
	var errs []error
	if err := output.Remove(filepath.Join(dir, renderedDir)); err != nil {
		errs = append(errs, err)
	}
	bin := filepath.Join(dir, binDir)
	for _, name := range clients {
		if err := removeRegular(filepath.Join(bin, name)); err != nil {
			errs = append(errs, err)
		}
	}
	if err := os.Remove(bin); err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, fmt.Errorf("%s holds files the sandbox did not write: left in place", bin))
	}
	for _, name := range []string{supervisorLog, stateFileTemp, stateFile} {
		if err := removeRegular(filepath.Join(dir, name)); err != nil {
			errs = append(errs, err)
		}
	}
	if err := os.Remove(dir); err != nil {
		var left []string
		if entries, rerr := os.ReadDir(dir); rerr == nil {
			for _, e := range entries {
				left = append(left, e.Name())
			}
		}
		errs = append(errs, fmt.Errorf("%s holds files the sandbox did not write (%s): left in place", dir, strings.Join(left, ", ")))
	}
	return errors.Join(errs...)
}

// removeRegular removes a regular file (or nothing); anything else at the
// name is left and reported.
func removeRegular(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a file the sandbox wrote: left in place", path)
	}
	return os.Remove(path)
}

func containsPID(ps []Proc, pid int) bool {
	for _, p := range ps {
		if p.PID == pid {
			return true
		}
	}
	return false
}
