// Package localslurm starts a throwaway, single-host, real Slurm cluster from
// a rendered output directory, so that a rendered slurm.conf can be tested by
// the slurmctld that will run it.
//
// The rendered slurm.conf is copied into a work directory and changed only
// where this host needs it: ports, state, spool, pid and log locations, the
// daemons' user, the munge socket, the prolog and epilog directories, and,
// when a local slurmd stands in for rendered nodes, the cgroup-dependent
// plugins. Cluster.Overrides lists every such change; everything else runs
// as rendered.
//
// All daemons run in the foreground as children of the calling process, in a
// private mount and UTS namespace whose host name is the rendered
// SlurmctldHost and whose /etc/hosts resolves every rendered host name to
// 127.0.0.1. Client commands must run in the same namespace: use
// Cluster.Command.
package localslurm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Options configures Start.
type Options struct {
	// Dir is the rendered output directory. It must hold slurm.conf, and
	// may hold prolog.d/ and epilog.d/ (copied into the work directory) and
	// other *.conf files such as cgroup.conf (copied unchanged).
	Dir string
	// WorkDir holds everything the cluster writes. When empty, a new
	// temporary directory is made, and Stop removes it unless KeepWorkDir
	// is set. munged requires every directory above its socket to be
	// searchable by all (o+x); the harness makes WorkDir itself mode 0755.
	WorkDir string
	// KeepWorkDir keeps a temporary WorkDir after Stop, for debugging.
	KeepWorkDir bool
	// Accounting starts MariaDB and slurmdbd, as the rendered
	// AccountingStorageType=accounting_storage/slurmdbd expects. Without it,
	// a rendered slurmdbd storage type is overridden to none.
	Accounting bool
	// StandIns names rendered nodes (exactly as the NodeName lines expand)
	// for each of which a local slurmd is started under that node name.
	// Stand-ins bring further overrides: the cgroup-dependent plugins are
	// replaced, SlurmdParameters gains config_overrides (the host is smaller
	// than the rendered node), a generated gres.conf backs the rendered Gres
	// with fake devices, and with two or more stand-ins the NodeName line
	// gets a per-node Port= list.
	StandIns []string
	// RestAPI starts slurmrestd on a loopback port (Cluster.RestURL) with
	// auth/jwt: slurm.conf gains AuthAltTypes=auth/jwt and a key the
	// harness writes, and Cluster.RestToken signs a token for any user;
	// with Accounting, slurmdbd takes the tokens too and the /slurmdb/
	// paths answer. slurmrestd runs as the system user daemon. Slurm 22.05 serves the
	// REST versions v0.0.36 to v0.0.38 only; 24.11 serves v0.0.40 to
	// v0.0.42, 26.05 v0.0.42 to v0.0.45.
	RestAPI bool
	// Log receives the harness's progress messages; nil discards them.
	// Daemon output goes to files in WorkDir/log.
	Log io.Writer
	// ReadyTimeout bounds each wait for a daemon to come up; zero means
	// 60 seconds.
	ReadyTimeout time.Duration
	// StopTimeout is how long Stop waits after SIGTERM before SIGKILL;
	// zero means 15 seconds.
	StopTimeout time.Duration
	// Release is the Slurm release series to run, one of Releases(), such
	// as "24.11": the host's own Slurm when it is of that series, else the
	// root file system .ci/build-rootfs.sh built for it (RootFSDir), whose
	// /usr and /etc are mounted over the host's inside the cluster's
	// private namespace. Empty means the host's own Slurm. Start checks
	// that slurmctld -V reports the series; Cluster.Release says what ran.
	Release string
}

// StartError is returned by Start when a daemon fails or does not come up.
type StartError struct {
	// Stage names what failed, such as "slurmctld" or "slurmd-seed-a4-0".
	Stage string
	// Err is the underlying failure.
	Err error
	// LogErrors holds slurmctld's own error and fatal lines (see
	// Cluster.LogErrors), which usually say why.
	LogErrors []string
}

// Error returns the failure followed by slurmctld's error lines.
func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "localslurm: %s: %v", e.Stage, e.Err)
	for _, l := range e.LogErrors {
		b.WriteString("\n  " + l)
	}
	return b.String()
}

// Unwrap returns the underlying failure.
func (e *StartError) Unwrap() error { return e.Err }

// Cluster is a running throwaway cluster. Stop it when done.
type Cluster struct {
	opts          Options
	workDir       string
	removeWorkDir bool
	confPath      string
	clusterName   string
	hostname      string
	overrides     []Override
	tools         map[string]string // program name to absolute path
	release       Release
	layout        layout
	baseEnv       []string // environment without SLURM_* and MYSQL_*
	ctldOutPath   string
	restURL       string // slurmrestd's base URL (Options.RestAPI)
	jwtKey        []byte // the key RestToken signs with (Options.RestAPI)
	ports         *portReservation

	holder  *daemon
	ns      string    // mount namespace identity of the holder
	daemons []*daemon // in start order

	logMu sync.Mutex // serialises writes to opts.Log

	mu           sync.Mutex // guards ctldCaptured
	ctldCaptured []byte     // slurmctld output saved by Stop

	stopOnce sync.Once
	stopErr  error

	// afterHolder, when set (by a test), runs in Stop once the namespace
	// holder is gone, before the last sweep of the namespace.
	afterHolder func()
}

// Start starts munged, optionally MariaDB and slurmdbd, slurmctld, and the
// requested stand-in slurmd daemons, and returns once slurmctld answers
// `scontrol ping` as UP and every stand-in node has registered. ctx bounds
// the start only: the cluster runs until Stop. On failure everything started
// is stopped, and a failing daemon is reported as a *StartError.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	if err := PrereqsFor(o); err != nil {
		return nil, err
	}
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = 60 * time.Second
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = 15 * time.Second
	}
	root, err := resolveRoot(o.Release)
	if err != nil {
		return nil, err
	}
	c := &Cluster{opts: o, tools: map[string]string{}, release: Release{Series: o.Release, Root: root}}
	for _, t := range requiredTools() {
		if p, err := t.find(root); err == nil {
			c.tools[t.name] = p
		}
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") && !strings.HasPrefix(kv, "MYSQL_") {
			c.baseEnv = append(c.baseEnv, kv)
		}
	}
	if err := c.start(ctx); err != nil {
		captured := c.LogErrors()
		if stopErr := c.Stop(); stopErr != nil {
			err = errors.Join(err, fmt.Errorf("cleanup after failed start: %w", stopErr))
		}
		var se *StartError
		if errors.As(err, &se) && se.LogErrors == nil {
			se.LogErrors = captured
		}
		return nil, err
	}
	return c, nil
}

func (c *Cluster) logf(format string, args ...any) {
	if c.opts.Log == nil {
		return
	}
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintf(c.opts.Log, "localslurm: "+format+"\n", args...)
}

func (c *Cluster) path(elem ...string) string {
	return filepath.Join(append([]string{c.workDir}, elem...)...)
}

func (c *Cluster) start(ctx context.Context) error {
	began := time.Now()
	rendered, err := os.ReadFile(filepath.Join(c.opts.Dir, "slurm.conf"))
	if err != nil {
		return fmt.Errorf("read rendered slurm.conf: %w", err)
	}
	cf, err := parseConf(string(rendered))
	if err != nil {
		return fmt.Errorf("parse rendered %s: %w", filepath.Join(c.opts.Dir, "slurm.conf"), err)
	}
	controllers := cf.controllerHosts()
	if len(controllers) == 0 {
		return errors.New("rendered slurm.conf has no SlurmctldHost")
	}
	c.hostname = controllers[0]
	c.clusterName, _ = cf.get("ClusterName")
	if err := c.checkStandIns(cf); err != nil {
		return err
	}
	if err := c.makeWorkDir(); err != nil {
		return err
	}

	ports, reservation, err := reservePorts(4 + max(len(c.opts.StandIns)-1, 0))
	if err != nil {
		return err
	}
	c.ports = reservation
	l := layout{
		workDir:     c.workDir,
		mungeSocket: c.path("munge", "munge.socket"),
		ctldPort:    ports[0],
		slurmdPort:  ports[1],
		dbdPort:     ports[2],
		restPort:    ports[3],
		standInPort: ports[4:],
		accounting:  c.opts.Accounting,
		restAPI:     c.opts.RestAPI,
		standIns:    c.opts.StandIns,
	}
	if l.series, err = catalog.ParseSeries(c.opts.Release); err != nil {
		l.series = hostSeries()
	}
	if len(l.mungeSocket) >= 108 {
		return fmt.Errorf("work directory %s is too long for a unix socket path (%s)", c.workDir, l.mungeSocket)
	}
	c.layout = l
	if err := applyOverrides(cf, l); err != nil {
		return fmt.Errorf("override runtime locations: %w", err)
	}
	if err := c.writeFiles(cf); err != nil {
		return err
	}
	if c.opts.RestAPI {
		if err := c.writeJWTKey(); err != nil {
			return err
		}
	}
	c.overrides = cf.overrides
	for _, ov := range c.overrides {
		c.logf("override %s", ov)
	}

	hostsPath := c.path("etc", "hosts")
	tools := holderTools{sh: c.tools["sh"], mount: c.tools["mount"], hostname: c.tools["hostname"], sleep: c.tools["sleep"]}
	holder, err := startHolder(tools, hostsPath, c.hostname, c.release.Root, c.path("log", "namespace.out"), c.opts.ReadyTimeout)
	if err != nil {
		return &StartError{Stage: "namespace", Err: err}
	}
	c.holder = holder
	if c.ns, err = mountNamespace(holder.pid()); err != nil {
		return &StartError{Stage: "namespace", Err: err}
	}
	c.logf("namespace holder pid %d (%s), host name %s", holder.pid(), c.ns, c.hostname)
	if err := c.checkRelease(ctx); err != nil {
		return &StartError{Stage: "release", Err: err}
	}
	c.logf("running %s", c.release)

	if err := c.startMunge(ctx, l.mungeSocket); err != nil {
		return err
	}
	if c.opts.Accounting {
		if err := c.startAccounting(ctx, l); err != nil {
			return err
		}
	}
	if err := c.startController(ctx); err != nil {
		return err
	}
	if c.opts.Accounting {
		if err := c.registerCluster(ctx); err != nil {
			return &StartError{Stage: "sacctmgr", Err: err}
		}
	}
	for _, node := range c.opts.StandIns {
		if err := c.startStandIn(ctx, node); err != nil {
			return err
		}
	}
	if c.opts.RestAPI {
		if err := c.startRest(ctx); err != nil {
			return err
		}
	}
	c.logf("cluster %s up in %v", c.clusterName, time.Since(began).Round(time.Millisecond))
	return nil
}

// checkStandIns checks that every stand-in names a rendered node.
func (c *Cluster) checkStandIns(cf *conf) error {
	if len(c.opts.StandIns) == 0 {
		return nil
	}
	defs, err := cf.nodes()
	if err != nil {
		return fmt.Errorf("rendered NodeName lines: %w", err)
	}
	var all []string
	for _, d := range defs {
		all = append(all, d.names...)
	}
	for _, n := range c.opts.StandIns {
		if !slices.Contains(all, n) {
			return fmt.Errorf("stand-in %q is not a rendered node name", n)
		}
	}
	return nil
}

// WorkDir returns the directory holding the cluster's files: etc/slurm.conf
// and the other configuration, log/ with every daemon's output, state/,
// spool/, and the munge socket.
func (c *Cluster) WorkDir() string { return c.workDir }

// ConfPath returns the path of the cluster's slurm.conf (SLURM_CONF).
func (c *Cluster) ConfPath() string { return c.confPath }

// Hostname returns the namespace's host name: the rendered primary
// SlurmctldHost.
func (c *Cluster) Hostname() string { return c.hostname }

// Overrides returns every change made to the rendered configuration, in the
// order made. Anything not listed runs exactly as rendered.
func (c *Cluster) Overrides() []Override { return slices.Clone(c.overrides) }

// Processes returns the processes the harness started, namespace holder
// first, then in start order.
func (c *Cluster) Processes() []Process {
	var ps []Process
	if c.holder != nil {
		ps = append(ps, Process{Name: c.holder.name, PID: c.holder.pid()})
	}
	for _, d := range c.daemons {
		ps = append(ps, Process{Name: d.name, PID: d.pid()})
	}
	return ps
}

// Release returns the Slurm release the cluster runs: its series, the
// version slurmctld -V reported, and the root file system it came from.
func (c *Cluster) Release() Release { return c.release }

// Namespace returns the identity of the cluster's private mount namespace,
// such as "mnt:[4026532176]"; every process of the cluster is in it.
func (c *Cluster) Namespace() string { return c.ns }
