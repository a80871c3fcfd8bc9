package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Proc is one process the sandbox started: its name, PID, start time and
// executable, so that a PID the kernel has since given to another process
// is never taken for it.
type Proc struct {
	Name string `json:"name"`
	PID  int    `json:"pid"`
	// Start is the process's start time in clock ticks after boot
	// (/proc/PID/stat field 22).
	Start uint64 `json:"start"`
	// Exe is the process's executable (/proc/PID/exe) when it was
	// recorded; empty when it could not be read.
	Exe string `json:"exe,omitempty"`
}

// String formats the process as "name (pid N)".
func (p Proc) String() string { return fmt.Sprintf("%s (pid %d)", p.Name, p.PID) }

// identify records a running process's start time and executable.
func identify(name string, pid int) Proc {
	start, _, _ := procStat(pid)
	return Proc{Name: name, PID: pid, Start: start, Exe: procExe(pid)}
}

// procExe returns a process's executable, without the " (deleted)" the
// kernel appends once the file is replaced (a package upgrade).
func procExe(pid int) string {
	exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(exe, " (deleted)")
}

// procStat returns a process's start time and whether it is a zombie.
func procStat(pid int) (start uint64, zombie bool, err error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	// Fields after the command name start with field 3, the state.
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return 0, false, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	start, err = strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("/proc/%d/stat: start time %q: %w", pid, f[19], err)
	}
	return start, f[0] == "Z" || f[0] == "X", nil
}

// Running reports whether the process still runs: its PID exists, is not a
// zombie (an exited process whose parent has not collected it), started
// when the recorded one did and runs the recorded executable.
func (p Proc) Running() bool {
	if p.PID <= 0 {
		return false
	}
	start, zombie, err := procStat(p.PID)
	return err == nil && !zombie && start == p.Start && procExe(p.PID) == p.Exe
}

// signal sends sig to the process if it is still the recorded one.
func (p Proc) signal(sig syscall.Signal) error {
	if !p.Running() {
		return nil
	}
	if err := syscall.Kill(p.PID, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signal %s: %w", p, err)
	}
	return nil
}

// waitGone polls until the process no longer runs or timeout passes.
func (p Proc) waitGone(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for p.Running() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// stop sends SIGTERM, then SIGKILL after timeout, and waits for the
// process to go.
func (p Proc) stop(timeout time.Duration) error {
	if !p.Running() {
		return nil
	}
	if err := p.signal(syscall.SIGTERM); err != nil {
		return err
	}
	if p.waitGone(timeout) {
		return nil
	}
	if err := p.signal(syscall.SIGKILL); err != nil {
		return err
	}
	if p.waitGone(5 * time.Second) {
		return nil
	}
	return fmt.Errorf("%s still running 5s after SIGKILL", p)
}

// mountNamespace returns the identity of a process's mount namespace, such
// as "mnt:[4026532176]".
func mountNamespace(pid int) string {
	ns, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "ns", "mnt"))
	return ns
}

// processesIn returns the running processes whose mount namespace is ns,
// except the one given.
func processesIn(ns string, except int) []Proc {
	if ns == "" {
		return nil
	}
	entries, _ := os.ReadDir("/proc")
	var out []Proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == except || mountNamespace(pid) != ns {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if p := identify(strings.TrimSpace(string(comm)), pid); p.Running() {
			out = append(out, p)
		}
	}
	return out
}
