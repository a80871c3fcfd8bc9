// Package sandbox runs a rendered cluster on a real, local Slurm that
// outlives the command that starts it: `slurmspec sandbox up` starts it,
// `status` reports it, `exec` and the generated wrapper scripts run Slurm's
// client commands against it, and `down` stops it.
//
// The cluster itself is lab/localslurm's (the harness the real-Slurm test
// suite uses): munged, MariaDB and slurmdbd, slurmctld and stand-in slurmd
// daemons for chosen rendered nodes, in a private mount and UTS namespace,
// with the rendered slurm.conf changed only where this host needs it (every
// change is listed). Up starts a supervisor process, in its own session,
// that starts the cluster and keeps it until it is told to stop; the
// daemons are the supervisor's children and die with it.
//
// Everything the sandbox knows is in one state directory (see DefaultDir):
//
//	state.json      what was started: spec, processes with PIDs, start
//	                times and executables, namespace, slurm.conf path,
//	                overrides, changes; signed with a per-user key kept
//	                outside the directory (key.go)
//	rendered/       the rendered spec the cluster runs
//	bin/            wrapper scripts for Slurm's client commands
//	supervisor.log  the supervisor's progress and errors
//
// The cluster's own work directory (slurm.conf, daemon logs, state, spool,
// munge socket) is a temporary directory named in state.json: munged needs
// every directory above its socket searchable by all, which a home
// directory often is not.
package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// EnvDir is the environment variable that overrides DefaultDir.
const EnvDir = "SLURMSPEC_SANDBOX_DIR"

// Files of the state directory.
const (
	stateFile      = "state.json"
	renderedDir    = "rendered"
	binDir         = "bin"
	supervisorLog  = "supervisor.log"
	stateFileTemp  = stateFile + ".tmp"
	supervisorName = "supervisor"
)

// DefaultDir returns the state directory: $SLURMSPEC_SANDBOX_DIR, else
// $XDG_STATE_HOME/slurmspec/sandbox, else ~/.local/state/slurmspec/sandbox.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "slurmspec", "sandbox"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("sandbox state directory: %w (set %s)", err, EnvDir)
	}
	return filepath.Join(home, ".local", "state", "slurmspec", "sandbox"), nil
}

// Status is where a sandbox is in its life.
type Status string

// Statuses, in order.
const (
	StatusStarting Status = "starting"
	StatusUp       Status = "up"
	StatusFailed   Status = "failed"
	StatusStopping Status = "stopping"
	StatusStopped  Status = "stopped"
)

// Change is one stated change to the spec's config, made before rendering
// (see Apply).
type Change struct {
	Key string `json:"key"`
	// From is the spec's value; empty when the spec did not set the key.
	From string `json:"from,omitempty"`
	To   string `json:"to"`
	// Why names what asked for it, such as "--preempt-exempt-time 1s".
	Why string `json:"why"`
}

// String formats the change as one line.
func (c Change) String() string {
	from := c.From
	if from == "" {
		from = "(unset)"
	}
	return fmt.Sprintf("%s: %s -> %s (%s)", c.Key, from, c.To, c.Why)
}

// State is the content of state.json.
type State struct {
	// Dir is the state directory (not stored; set by Read).
	Dir    string `json:"-"`
	Status Status `json:"status"`
	// Error says why the start failed (Status Failed).
	Error string `json:"error,omitempty"`

	// Spec is the spec file as given on the command line.
	Spec string `json:"spec"`
	// Cluster is the rendered ClusterName.
	Cluster string `json:"cluster"`
	// RenderedFor is the Slurm release series the spec was rendered for;
	// SlurmVersion is the installed slurmctld's version.
	RenderedFor  string `json:"renderedFor"`
	SlurmVersion string `json:"slurmVersion"`
	// Release is the Slurm release series the cluster runs when it is not
	// the host's own (localslurm.Options.Release).
	Release string    `json:"release,omitempty"`
	Created time.Time `json:"created"`
	// Starter is the `up` process; Supervisor the process that owns the
	// cluster's daemons.
	Starter    Proc `json:"starter"`
	Supervisor Proc `json:"supervisor"`

	Accounting bool `json:"accounting"`
	// AccountingUsers, when the rendered set holds the accounting file's
	// script (accounting/apply.sh), are the users it declares: the
	// supervisor applies the script once slurmdbd is up and waits until
	// slurmctld knows them.
	AccountingUsers []string `json:"accountingUsers,omitempty"`
	AccountingFile  bool     `json:"accountingFile,omitempty"`
	StandIns        []string `json:"standIns"`
	// FakeNvidiaSMI asks the supervisor to put a fake nvidia-smi, listing
	// each stand-in's rendered GPUs, on the default PATH inside the
	// cluster's namespace (the host has none).
	FakeNvidiaSMI bool `json:"fakeNvidiaSMI,omitempty"`
	// Changes are the stated changes to the spec's config.
	Changes []Change `json:"changes,omitempty"`

	// Set once the cluster is up.
	UpSince   time.Time             `json:"upSince,omitzero"`
	WorkDir   string                `json:"workDir,omitempty"`
	ConfPath  string                `json:"confPath,omitempty"`
	Hostname  string                `json:"hostname,omitempty"`
	Namespace string                `json:"namespace,omitempty"`
	Processes []Proc                `json:"processes,omitempty"`
	Overrides []localslurm.Override `json:"overrides,omitempty"`
	// Notes are the other stated things the supervisor did, such as
	// draining the nodes without a stand-in.
	Notes []string `json:"notes,omitempty"`
}

// Holder returns the namespace holder process, whose namespaces client
// commands enter.
func (s *State) Holder() (Proc, bool) {
	for _, p := range s.Processes {
		if p.Name == "namespace" {
			return p, true
		}
	}
	return Proc{}, false
}

// Live reports whether anything of the sandbox still runs: its supervisor,
// or, while it starts, the `up` process that starts it.
func (s *State) Live() bool {
	return s.Supervisor.Running() || (s.Status == StatusStarting && s.Starter.Running())
}

// Ready returns nil when client commands can run: the cluster is up and its
// namespace holder still runs in the recorded namespace.
func (s *State) Ready() error {
	if s.Status != StatusUp {
		return fmt.Errorf("the sandbox in %s is %s, not up", s.Dir, s.Status)
	}
	h, ok := s.Holder()
	if !ok || !h.Running() || mountNamespace(h.PID) != s.Namespace {
		return fmt.Errorf("the sandbox in %s is not running: its namespace holder (pid %d) is gone", s.Dir, h.PID)
	}
	return nil
}

// ErrNoSandbox is returned by Read when the state directory does not exist.
var ErrNoSandbox = errors.New("no sandbox")

// errNoState is returned by Read when the directory exists without a
// state.json.
var errNoState = errors.New("no " + stateFile)

// Read reads the state of the sandbox in dir. It returns an error wrapping
// ErrNoSandbox when dir does not exist, and one wrapping ErrForeignState
// when state.json does not verify (key.go): it was not written by this
// user's sandbox for this directory.
func Read(dir string) (*State, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("read sandbox state: %w", err)
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("sandbox state directory %s is a symlink; pass the directory it points to", dir)
	}
	path := filepath.Join(abs, stateFile)
	data, err := readRegular(path, maxStateSize)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if _, serr := os.Lstat(abs); errors.Is(serr, os.ErrNotExist) {
				return nil, fmt.Errorf("%w in %s", ErrNoSandbox, dir)
			}
			return nil, fmt.Errorf("%s exists but holds %w: not a sandbox state directory, or one still being created", dir, errNoState)
		}
		return nil, fmt.Errorf("read sandbox state: %w", err)
	}
	raw, err := unseal(abs, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; the sandbox neither stops nor removes anything it names", path, err)
	}
	var s State
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("read sandbox state %s: %w", path, err)
	}
	s.Dir = abs
	return &s, nil
}

// write replaces state.json atomically.
func (s *State) write() error {
	raw, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode sandbox state: %w", err)
	}
	data, err := seal(s.Dir, raw)
	if err != nil {
		return fmt.Errorf("write sandbox state: %w", err)
	}
	tmp := filepath.Join(s.Dir, stateFileTemp)
	_ = os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write sandbox state: %w", err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("write sandbox state: %w", werr)
	}
	if err := os.Rename(tmp, filepath.Join(s.Dir, stateFile)); err != nil {
		return fmt.Errorf("write sandbox state: %w", err)
	}
	return nil
}

// RunningError is returned by Up when a sandbox already runs in the state
// directory.
type RunningError struct {
	State *State
}

// Error names the running sandbox.
func (e *RunningError) Error() string {
	s := e.State
	who := fmt.Sprintf("supervisor pid %d", s.Supervisor.PID)
	if !s.Supervisor.Running() {
		who = fmt.Sprintf("being started by pid %d", s.Starter.PID)
	}
	return fmt.Sprintf("a sandbox is already running in %s: cluster %q from %s (%s, %s since %s)",
		s.Dir, s.Cluster, s.Spec, who, s.Status, s.Created.Local().Format(time.DateTime))
}

// CheckFree returns a *RunningError when a sandbox runs in dir, for a
// caller that wants to refuse early, before rendering; Up checks again.
func CheckFree(dir string) error {
	st, err := Read(dir)
	if err == nil && st.Live() {
		return &RunningError{State: st}
	}
	return nil
}
