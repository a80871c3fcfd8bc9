package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/output"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// Options configures Up.
type Options struct {
	// Dir is the state directory; see DefaultDir.
	Dir string
	// Spec is the spec file as given, for messages and status.
	Spec string
	// Set is the rendered spec the cluster runs.
	Set render.Set
	// RenderedFor is the Slurm release series Set was rendered for, and
	// SlurmVersion the installed slurmctld's version.
	RenderedFor, SlurmVersion string
	// Release is the Slurm release series to run (localslurm.Options.Release):
	// empty for the host's own Slurm.
	Release string
	// NodesPerGroup is how many rendered nodes of each node group (each
	// compute node pool) get a stand-in slurmd; 0 means 1.
	NodesPerGroup int
	// Changes are the stated changes already applied to the spec's config.
	Changes []Change
	// AccountingUsers are the users of the accounting file whose script
	// Set holds (StartOptions.Accounting).
	AccountingUsers []string
	// FakeNvidiaSMI allows a fake nvidia-smi inside the cluster's namespace
	// when stand-ins have rendered GPUs and this host has no nvidia-smi.
	FakeNvidiaSMI bool
	// Supervisor is the command line of a process that calls Supervise on
	// Dir: for the slurmspec binary, "slurmspec sandbox supervise
	// --state-dir DIR". Up starts it in its own session.
	Supervisor []string
	// Out receives the progress, line by line.
	Out io.Writer
	// Timeout bounds the whole start; zero means 5 minutes.
	Timeout time.Duration
}

// Up starts a sandbox: it claims the state directory (refusing with a
// *RunningError when a sandbox runs there, and clearing the state of one
// that no longer runs), writes the rendered spec, chooses the stand-in
// nodes, starts the supervisor and relays its progress until the cluster
// is up. On failure, or when ctx ends first, everything started is stopped
// and the state directory removed.
func Up(ctx context.Context, o Options) (*State, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if o.NodesPerGroup <= 0 {
		o.NodesPerGroup = 1
	}
	if len(o.Supervisor) == 0 {
		return nil, errors.New("sandbox: no supervisor command")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("sandbox state directory: %w", err)
	}
	if err := claim(dir, o.Out); err != nil {
		return nil, err
	}
	st := &State{Dir: dir, Status: StatusStarting, Spec: o.Spec, RenderedFor: o.RenderedFor, SlurmVersion: o.SlurmVersion, Release: o.Release,
		Created: time.Now().UTC(), Starter: identify("slurmspec sandbox up", os.Getpid()), Changes: o.Changes}
	fail := func(err error) (*State, error) {
		if derr := Down(dir, o.Out); derr != nil {
			err = errors.Join(err, fmt.Errorf("clean up: %w", derr))
		}
		return nil, err
	}
	if err := st.write(); err != nil {
		return fail(err)
	}
	say(o.Out, "state directory %s", dir)
	rendered := filepath.Join(dir, renderedDir)
	if err := output.Write(rendered, o.Set); err != nil {
		return fail(fmt.Errorf("write rendered spec: %w", err))
	}
	conf := o.Set.Get("slurm.conf")
	if conf == nil {
		return fail(errors.New("the rendered set has no slurm.conf"))
	}
	st.Cluster = confValue(conf.Data, "ClusterName")
	st.Accounting = strings.EqualFold(confValue(conf.Data, "AccountingStorageType"), "accounting_storage/slurmdbd")
	say(o.Out, "rendered %s for Slurm %s into %s (installed: slurmctld %s)", o.Spec, o.RenderedFor, rendered, o.SlurmVersion)
	for _, c := range o.Changes {
		say(o.Out, "stated change to the spec's config: %s", c)
	}
	groups, err := localslurm.NodeGroups(rendered)
	if err != nil {
		return fail(err)
	}
	total := 0
	for _, g := range groups {
		n := min(o.NodesPerGroup, len(g.Nodes))
		st.StandIns = append(st.StandIns, g.Nodes[:n]...)
		total += len(g.Nodes)
		say(o.Out, "node group %s: stand-in slurmd for %s (%d of %s)", g.Name, strings.Join(g.Nodes[:n], ", "), n, nodes(len(g.Nodes), "node"))
	}
	if len(st.StandIns) < total {
		say(o.Out, "%s without a stand-in will be drained once slurmctld is up, so that no job is scheduled on a node that does not run here", nodes(total-len(st.StandIns), "rendered node"))
	}
	st.FakeNvidiaSMI = o.FakeNvidiaSMI && len(gpuNodes(groups, st.StandIns)) > 0 && !hostHasNvidiaSMI()
	if st.Accounting {
		say(o.Out, "accounting: the rendered AccountingStorageType is accounting_storage/slurmdbd, so slurmdbd runs with a throwaway MariaDB")
	}
	if o.Set.Get(sacctmgr.Path) != nil {
		switch {
		case st.Accounting:
			st.AccountingFile, st.AccountingUsers = true, o.AccountingUsers
			say(o.Out, "accounting: the spec's accounting file is applied once slurmdbd is up (%s, as rendered)", sacctmgr.Path)
		default:
			say(o.Out, "accounting: the spec's accounting file is not applied: no slurmdbd runs (the rendered AccountingStorageType is not accounting_storage/slurmdbd)")
		}
	}
	if err := st.write(); err != nil {
		return fail(err)
	}

	logPath := filepath.Join(dir, supervisorLog)
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fail(fmt.Errorf("supervisor log: %w", err))
	}
	cmd := exec.Command(o.Supervisor[0], o.Supervisor[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Dir = "/"
	// Its own session: the supervisor outlives this process and a
	// terminal's Ctrl-C.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	logFile.Close()
	if err != nil {
		return fail(fmt.Errorf("start the supervisor: %w", err))
	}
	sup := identify(supervisorName, cmd.Process.Pid)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	say(o.Out, "started supervisor pid %d (%s); its log: %s", sup.PID, strings.Join(o.Supervisor, " "), logPath)

	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	got, err := follow(ctx, o.Timeout, dir, logPath, exited, o.Out)
	if err != nil {
		if sup.Running() {
			_ = sup.stop(30 * time.Second)
		}
		return fail(err)
	}
	return got, nil
}

// claim creates the state directory, or takes an empty one, or takes over
// one whose sandbox (verified by Read) no longer runs. Any other directory
// is refused.
func claim(dir string, out io.Writer) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("sandbox state directory: %w", err)
	}
	err := os.Mkdir(dir, 0o755)
	if err == nil {
		return nil
	}
	if !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("sandbox state directory: %w", err)
	}
	st, rerr := Read(dir)
	if errors.Is(rerr, errNoState) {
		if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
			return nil // an empty directory: ours to use
		}
	}
	if rerr != nil {
		return fmt.Errorf("cannot use %s: %w", dir, rerr)
	}
	if st.Live() {
		return &RunningError{State: st}
	}
	say(out, "clearing the state of a sandbox that no longer runs (cluster %q from %s, %s, supervisor pid %d gone)", st.Cluster, st.Spec, st.Status, st.Supervisor.PID)
	if err := Down(dir, out); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("sandbox state directory: %w", err)
	}
	return nil
}

// follow relays the supervisor's log until the state says up or failed,
// the supervisor exits, or ctx ends.
func follow(ctx context.Context, timeout time.Duration, dir, logPath string, exited <-chan error, out io.Writer) (*State, error) {
	f, err := os.Open(logPath)
	if err != nil {
		return nil, fmt.Errorf("supervisor log: %w", err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var partial string
	relay := func() {
		for {
			line, err := r.ReadString('\n')
			partial += line
			if err != nil {
				return
			}
			fmt.Fprint(out, partial)
			partial = ""
		}
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		st, err := Read(dir)
		relay()
		if err == nil {
			switch st.Status {
			case StatusUp:
				return st, nil
			case StatusFailed, StatusStopping, StatusStopped:
				return nil, fmt.Errorf("the sandbox did not come up: %s", st.Error)
			}
		}
		select {
		case err := <-exited:
			relay()
			if partial != "" {
				fmt.Fprintln(out, partial)
			}
			if st, rerr := Read(dir); rerr == nil && st.Error != "" {
				return nil, fmt.Errorf("the sandbox did not come up: %s", st.Error)
			}
			return nil, fmt.Errorf("the supervisor exited before the cluster was up (%v); see %s", err, logPath)
		case <-ctx.Done():
			relay()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("the sandbox is not up after %v; see %s", timeout, logPath)
			}
			return nil, errors.New("interrupted before the sandbox was up")
		case <-tick.C:
		}
	}
}

// nodes counts n nouns: "1 node", "3 nodes".
func nodes(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// say prints one progress line.
func say(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "sandbox: "+format+"\n", args...)
}

// confValue returns the value of a global Key=Value line of slurm.conf.
func confValue(conf []byte, key string) string {
	for line := range strings.SplitSeq(string(conf), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.EqualFold(k, key) && !strings.ContainsAny(v, " \t") {
			return v
		}
	}
	return ""
}

// Supervise runs in the supervisor process that Up starts: it starts the
// cluster of the state directory dir, writes the wrapper scripts and the
// state, and keeps the cluster until ctx ends (the supervisor is told to
// stop with SIGTERM), then stops it. Progress goes to log.
func Supervise(ctx context.Context, dir string, log io.Writer) error {
	st, err := Read(dir)
	if err != nil {
		return err
	}
	st.Supervisor = identify(supervisorName, os.Getpid())
	if err := st.write(); err != nil {
		return err
	}
	failed := func(err error) error {
		st.Status, st.Error = StatusFailed, err.Error()
		if werr := st.write(); werr != nil {
			err = errors.Join(err, werr)
		}
		return err
	}
	startCtx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	cl, err := localslurm.Start(startCtx, localslurm.Options{
		Dir:        filepath.Join(dir, renderedDir),
		Accounting: st.Accounting,
		StandIns:   st.StandIns,
		Release:    st.Release,
		Log:        log,
	})
	if err != nil {
		return failed(err)
	}
	stop := func() error {
		st.Status = StatusStopping
		_ = st.write()
		err := cl.Stop()
		st.Status = StatusStopped
		if werr := st.write(); werr != nil {
			err = errors.Join(err, werr)
		}
		say(log, "supervisor: cluster stopped")
		return err
	}
	if err := afterStart(ctx, st, cl, log); err != nil {
		return errors.Join(failed(err), stop())
	}
	st.WorkDir, st.ConfPath, st.Hostname, st.Namespace = cl.WorkDir(), cl.ConfPath(), cl.Hostname(), cl.Namespace()
	st.SlurmVersion = cl.Release().Version // the slurmctld that runs (another release's from its root file system)
	st.Overrides = cl.Overrides()
	for _, p := range cl.Processes() {
		st.Processes = append(st.Processes, identify(p.Name, p.PID))
	}
	if err := writeWrappers(st); err != nil {
		return errors.Join(failed(err), stop())
	}
	st.Status, st.UpSince = StatusUp, time.Now().UTC()
	if err := st.write(); err != nil {
		return errors.Join(failed(err), stop())
	}
	say(log, "supervisor: cluster %q up; waiting for `slurmspec sandbox down` (SIGTERM to pid %d)", st.Cluster, os.Getpid())
	<-ctx.Done()
	say(log, "supervisor: stopping the cluster")
	return stop()
}
