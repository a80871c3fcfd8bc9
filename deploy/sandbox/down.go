package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// stopTimeout bounds the wait for the supervisor to stop the cluster.
const stopTimeout = 90 * time.Second

// Down stops the sandbox in dir and removes its state: it tells the
// supervisor to stop the cluster (SIGTERM) and waits for it; then it stops
// any recorded process that still runs (by PID, only while the PID is still
// the recorded process), and whatever is left in the cluster's namespace;
// it removes the cluster's work directory and the state directory. With no
// sandbox in dir it does nothing, so it is safe to run twice.
func Down(dir string, out io.Writer) error {
	if out == nil {
		out = io.Discard
	}
	st, err := Read(dir)
	if errors.Is(err, ErrNoSandbox) {
		say(out, "no sandbox in %s: nothing to stop", dir)
		return nil
	}
	if err != nil {
		// A directory without state.json is ours only if it holds
		// nothing but what Up writes.
		if !onlyOwnFiles(dir) {
			return err
		}
		st = &State{Dir: dir}
	}
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
	if st.WorkDir != "" && strings.HasPrefix(filepath.Base(st.WorkDir), "localslurm-") {
		if _, err := os.Stat(st.WorkDir); err == nil {
			say(out, "removing the cluster's work directory %s", st.WorkDir)
			if err := os.RemoveAll(st.WorkDir); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		errs = append(errs, err)
	} else {
		say(out, "removed %s", dir)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sandbox down: %w", err)
	}
	return nil
}

func containsPID(ps []Proc, pid int) bool {
	for _, p := range ps {
		if p.PID == pid {
			return true
		}
	}
	return false
}

// onlyOwnFiles reports whether dir holds only names Up writes.
func onlyOwnFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !ownFiles[e.Name()] && !strings.HasPrefix(e.Name(), ".slurmspec-staging-") {
			return false
		}
	}
	return true
}
