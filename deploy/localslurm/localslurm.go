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
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
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
	// Log receives the harness's progress messages; nil discards them.
	// Daemon output goes to files in WorkDir/log.
	Log io.Writer
	// ReadyTimeout bounds each wait for a daemon to come up; zero means
	// 60 seconds.
	ReadyTimeout time.Duration
	// StopTimeout is how long Stop waits after SIGTERM before SIGKILL;
	// zero means 15 seconds.
	StopTimeout time.Duration
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
	baseEnv       []string          // environment without SLURM_* and MYSQL_*
	ctldOutPath   string

	holder  *daemon
	ns      string    // mount namespace identity of the holder
	daemons []*daemon // in start order

	logMu sync.Mutex // serialises writes to opts.Log

	mu           sync.Mutex // guards ctldCaptured
	ctldCaptured []byte     // slurmctld output saved by Stop

	stopOnce sync.Once
	stopErr  error
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
	c := &Cluster{opts: o, tools: map[string]string{}}
	for _, t := range requiredTools() {
		if p, err := lookTool(t.name); err == nil {
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

	ports, err := freePorts(3 + max(len(c.opts.StandIns)-1, 0))
	if err != nil {
		return err
	}
	l := layout{
		workDir:     c.workDir,
		mungeSocket: c.path("munge", "munge.socket"),
		ctldPort:    ports[0],
		slurmdPort:  ports[1],
		dbdPort:     ports[2],
		standInPort: ports[3:],
		accounting:  c.opts.Accounting,
		standIns:    c.opts.StandIns,
	}
	if len(l.mungeSocket) >= 108 {
		return fmt.Errorf("work directory %s is too long for a unix socket path (%s)", c.workDir, l.mungeSocket)
	}
	if err := applyOverrides(cf, l); err != nil {
		return fmt.Errorf("override runtime locations: %w", err)
	}
	if err := c.writeFiles(cf); err != nil {
		return err
	}
	c.overrides = cf.overrides
	for _, ov := range c.overrides {
		c.logf("override %s", ov)
	}

	hostsPath := c.path("etc", "hosts")
	tools := holderTools{sh: c.tools["sh"], mount: c.tools["mount"], hostname: c.tools["hostname"], sleep: c.tools["sleep"]}
	holder, err := startHolder(tools, hostsPath, c.hostname, c.path("log", "namespace.out"), c.opts.ReadyTimeout)
	if err != nil {
		return &StartError{Stage: "namespace", Err: err}
	}
	c.holder = holder
	if c.ns, err = mountNamespace(holder.pid()); err != nil {
		return &StartError{Stage: "namespace", Err: err}
	}
	c.logf("namespace holder pid %d (%s), host name %s", holder.pid(), c.ns, c.hostname)

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

// makeWorkDir creates the work directory and its layout.
func (c *Cluster) makeWorkDir() error {
	if c.opts.WorkDir == "" {
		dir, err := os.MkdirTemp("", "localslurm-")
		if err != nil {
			return fmt.Errorf("make work directory: %w", err)
		}
		c.workDir, c.removeWorkDir = dir, !c.opts.KeepWorkDir
	} else {
		dir, err := filepath.Abs(c.opts.WorkDir)
		if err != nil {
			return fmt.Errorf("work directory: %w", err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("make work directory: %w", err)
		}
		c.workDir = dir
	}
	if err := os.Chmod(c.workDir, 0o755); err != nil {
		return fmt.Errorf("work directory mode: %w", err)
	}
	for dir := filepath.Dir(c.workDir); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("work directory parent: %w", err)
		}
		if st.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("munged needs every directory above its socket searchable by all, and %s is mode %04o: use a WorkDir under a world-searchable directory (such as one from os.MkdirTemp(\"\", ...)), or leave WorkDir empty", dir, st.Mode().Perm())
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	for _, d := range []string{"etc", "state", "spool", "run", "log", "munge", "prolog.d", "epilog.d", "dev"} {
		if err := os.MkdirAll(c.path(d), 0o755); err != nil {
			return fmt.Errorf("make work directory layout: %w", err)
		}
		// munged insists on 0755 for its socket directory, whatever the umask.
		if err := os.Chmod(c.path(d), 0o755); err != nil {
			return fmt.Errorf("work directory layout mode: %w", err)
		}
	}
	for _, n := range c.opts.StandIns {
		if err := os.MkdirAll(c.path("spool", n), 0o755); err != nil {
			return fmt.Errorf("make spool directory: %w", err)
		}
	}
	c.confPath = c.path("etc", "slurm.conf")
	c.ctldOutPath = c.path("log", "slurmctld.out")
	c.logf("work directory %s", c.workDir)
	return nil
}

// writeFiles writes slurm.conf, the hosts file, gres.conf for stand-ins,
// the other rendered *.conf files, and the prolog and epilog copies.
func (c *Cluster) writeFiles(cf *conf) error {
	entries, err := os.ReadDir(c.opts.Dir)
	if err != nil {
		return fmt.Errorf("read rendered directory: %w", err)
	}
	renderedGres := false
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".conf") || name == "slurm.conf" || name == "slurmdbd.conf" {
			continue
		}
		if name == "gres.conf" && len(c.opts.StandIns) > 0 {
			renderedGres = true
			continue
		}
		if err := copyFile(filepath.Join(c.opts.Dir, name), c.path("etc", name)); err != nil {
			return err
		}
	}
	for _, sub := range []string{"prolog.d", "epilog.d"} {
		if err := copyDir(filepath.Join(c.opts.Dir, sub), c.path(sub)); err != nil {
			return err
		}
	}

	if len(c.opts.StandIns) > 0 {
		lines, devices, err := gresConf(cf, c.opts.StandIns, c.path("dev"))
		if err != nil {
			return fmt.Errorf("stand-in gres.conf: %w", err)
		}
		if err := makeFakeDevices(devices); err != nil {
			return err
		}
		text := "# generated by localslurm for the stand-in slurmd daemons\n" + strings.Join(lines, "\n") + "\n"
		if err := os.WriteFile(c.path("etc", "gres.conf"), []byte(text), 0o644); err != nil {
			return fmt.Errorf("write gres.conf: %w", err)
		}
		if len(lines) > 0 || renderedGres {
			rendered := ""
			if renderedGres {
				rendered = "rendered gres.conf (replaced)"
			}
			cf.overrides = append(cf.overrides, Override{
				Key:      "gres.conf",
				Rendered: rendered,
				Value:    strings.Join(lines, "; "),
				Reason:   "the stand-in slurmd must report the rendered Gres; slurmd drops GPUs without device files, so fake character devices (/dev/null's numbers) stand in for them",
			})
		}
	}

	names, err := hostNames(cf)
	if err != nil {
		return fmt.Errorf("rendered host names: %w", err)
	}
	hosts := "# generated by localslurm: every rendered host name is this host\n" +
		"127.0.0.1 localhost " + strings.Join(names, " ") + "\n::1 localhost ip6-localhost ip6-loopback\n"
	if err := os.WriteFile(c.path("etc", "hosts"), []byte(hosts), 0o644); err != nil {
		return fmt.Errorf("write hosts: %w", err)
	}
	if err := os.WriteFile(c.confPath, []byte(cf.String()), 0o644); err != nil {
		return fmt.Errorf("write slurm.conf: %w", err)
	}
	for _, key := range []string{"Prolog", "Epilog"} {
		v, ok := cf.get(key)
		if !ok {
			continue
		}
		for p := range strings.SplitSeq(v, ",") {
			if matches, _ := filepath.Glob(p); len(matches) == 0 {
				c.logf("warning: %s=%s matches no file: Slurm 22.05 then fails every job (\"Unable to create list of paths\") and drains the node with \"Prolog error\"", key, p)
			}
		}
	}
	return nil
}

// makeFakeDevices creates character devices with /dev/null's numbers, or
// empty files where mknod is not permitted (slurmd then logs an error per
// device but still counts them).
func makeFakeDevices(paths []string) error {
	for _, p := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("fake device directory: %w", err)
		}
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(unixMkdev(1, 3))); err != nil {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return fmt.Errorf("fake device %s: %w", p, err)
			}
		}
	}
	return nil
}

// unixMkdev encodes a device number as Linux does.
func unixMkdev(major, minor uint32) uint64 {
	return uint64(major&0xfff)<<8 | uint64(minor&0xff) | uint64(minor&^0xff)<<12 | uint64(major&^0xfff)<<32
}

// copyFile copies a regular file, keeping its permission bits.
func copyFile(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if err := os.WriteFile(dst, data, st.Mode().Perm()); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if err := os.Chmod(dst, st.Mode().Perm()); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return nil
}

// copyDir copies the regular files of src, if it exists, into dst.
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// freePorts returns n distinct TCP ports that were free on loopback.
func freePorts(n int) ([]int, error) {
	var ports []int
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// nsArgs returns the nsenter arguments that enter the cluster's namespaces.
func (c *Cluster) nsArgs() []string {
	return []string{"--target", strconv.Itoa(c.holder.pid()), "--mount", "--uts", "--"}
}

// clientEnv is the environment of daemons and client commands.
func (c *Cluster) clientEnv(extra ...string) []string {
	env := slices.Clone(c.baseEnv)
	env = append(env, "SLURM_CONF="+c.confPath)
	return append(env, extra...)
}

// Command returns a command that runs name (a Slurm client such as scontrol,
// sinfo, sbatch, srun, squeue, sacctmgr or sprio) inside the cluster's
// namespace, with SLURM_CONF pointing at the cluster's slurm.conf and no
// other SLURM_* variables from the caller's environment. The command is
// killed if the calling process dies.
func (c *Cluster) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, c.tools["nsenter"], append(c.nsArgs(), append([]string{name}, args...)...)...)
	cmd.Env = c.clientEnv()
	cmd.Dir = c.workDir
	// A client such as srun can wait forever for resources; it must not
	// outlive the harness's process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}

// startDaemon starts a program in the cluster's namespace. nsenter enters
// the namespaces and execs the program, so the recorded PID is the
// program's own.
func (c *Cluster) startDaemon(name string, env []string, program string, args ...string) (*daemon, error) {
	cmd := exec.Command(c.tools["nsenter"], append(c.nsArgs(), append([]string{program}, args...)...)...)
	cmd.Env = env
	cmd.Dir = c.workDir
	d, err := spawn(name, cmd, c.path("log", name+".out"))
	if err != nil {
		return nil, &StartError{Stage: name, Err: err}
	}
	c.daemons = append(c.daemons, d)
	c.logf("started %s pid %d", name, d.pid())
	return d, nil
}

// waitFor polls check until it reports done, the daemon exits, or the
// timeout or ctx ends.
func (c *Cluster) waitFor(ctx context.Context, d *daemon, what string, check func(context.Context) (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.ReadyTimeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var lastErr error
	for {
		if d != nil && d.exited() {
			return &StartError{Stage: d.name, Err: fmt.Errorf("exited before %s: %v%s", what, d.err, c.tail(d.name))}
		}
		ok, err := check(ctx)
		if ok {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			if d != nil && d.exited() {
				continue // report the exit, not the timeout
			}
			stage := what
			if d != nil {
				stage = d.name
			}
			msg := fmt.Errorf("not %s after %v: %w", what, c.opts.ReadyTimeout, ctx.Err())
			if lastErr != nil {
				msg = fmt.Errorf("%w (last check: %v)", msg, lastErr)
			}
			return &StartError{Stage: stage, Err: msg}
		case <-tick.C:
		}
	}
}

// tail returns the last lines of a daemon's output, for error messages.
func (c *Cluster) tail(name string) string {
	data, err := os.ReadFile(c.path("log", name+".out"))
	if err != nil || len(data) == 0 {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	return "; last output:\n    " + strings.Join(lines, "\n    ")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// startMunge writes a fresh key and starts munged on its own socket.
func (c *Cluster) startMunge(ctx context.Context, socket string) error {
	key := make([]byte, 128)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("munge key: %w", err)
	}
	keyPath := c.path("munge", "munge.key")
	if err := os.WriteFile(keyPath, key, 0o600); err != nil {
		return fmt.Errorf("write munge key: %w", err)
	}
	d, err := c.startDaemon("munged", c.clientEnv(), c.tools["munged"], "--foreground",
		"--socket="+socket, "--key-file="+keyPath,
		"--pid-file="+c.path("munge", "munged.pid"),
		"--log-file="+c.path("log", "munged.log"),
		"--seed-file="+c.path("munge", "munged.seed"))
	if err != nil {
		return err
	}
	return c.waitFor(ctx, d, "listening on "+socket, func(context.Context) (bool, error) {
		return fileExists(socket), nil
	})
}

// startAccounting starts MariaDB on a unix socket and slurmdbd.
func (c *Cluster) startAccounting(ctx context.Context, l layout) error {
	dataDir := c.path("db", "data")
	socket := c.path("db", "mysqld.sock")
	if err := os.MkdirAll(filepath.Dir(dataDir), 0o755); err != nil {
		return fmt.Errorf("make database directory: %w", err)
	}
	installCtx, cancel := context.WithTimeout(ctx, c.opts.ReadyTimeout)
	defer cancel()
	install := exec.CommandContext(installCtx, c.tools["mariadb-install-db"], "--no-defaults",
		"--datadir="+dataDir, "--user=root", "--auth-root-authentication-method=socket",
		"--skip-test-db")
	install.Env = c.clientEnv()
	if out, err := install.CombinedOutput(); err != nil {
		_ = os.WriteFile(c.path("log", "mariadb-install-db.out"), out, 0o644)
		return &StartError{Stage: "mariadb-install-db", Err: fmt.Errorf("%w: %s", err, lastLines(string(out), 8))}
	}
	// slurmdbd warns unless the buffer pool and lock wait timeout meet its
	// recommendations; the pool is reserved, not used.
	db, err := c.startDaemon("mariadbd", c.clientEnv(), c.tools["mariadbd"], "--no-defaults",
		"--datadir="+dataDir, "--socket="+socket, "--skip-networking", "--user=root",
		"--pid-file="+c.path("run", "mariadbd.pid"), "--log-error="+c.path("log", "mariadbd.log"),
		"--innodb-buffer-pool-size=1G", "--innodb-lock-wait-timeout=900",
		"--innodb-flush-log-at-trx-commit=0")
	if err != nil {
		return err
	}
	if err := c.waitFor(ctx, db, "listening on "+socket, func(context.Context) (bool, error) {
		return fileExists(socket), nil
	}); err != nil {
		return err
	}

	dbdConf := strings.Join([]string{
		"# generated by localslurm",
		"AuthType=auth/munge",
		"AuthInfo=socket=" + l.mungeSocket,
		"DbdHost=" + c.hostname,
		"DbdPort=" + strconv.Itoa(l.dbdPort),
		"SlurmUser=root",
		"PidFile=" + c.path("run", "slurmdbd.pid"),
		"LogFile=" + c.path("log", "slurmdbd.log"),
		"StorageType=accounting_storage/mysql",
		"StorageHost=localhost",
		"StorageUser=root",
		"StorageLoc=slurm_acct_db",
	}, "\n") + "\n"
	if err := os.WriteFile(c.path("etc", "slurmdbd.conf"), []byte(dbdConf), 0o600); err != nil {
		return fmt.Errorf("write slurmdbd.conf: %w", err)
	}
	// slurmdbd finds slurmdbd.conf next to $SLURM_CONF; MYSQL_UNIX_PORT
	// points the MariaDB client library at the socket.
	dbd, err := c.startDaemon("slurmdbd", c.clientEnv("MYSQL_UNIX_PORT="+socket), c.tools["slurmdbd"], "-D")
	if err != nil {
		return err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(l.dbdPort))
	return c.waitFor(ctx, dbd, "listening on "+addr, func(context.Context) (bool, error) {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false, err
		}
		conn.Close()
		return true, nil
	})
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// startController starts slurmctld and waits for `scontrol ping` to say UP.
func (c *Cluster) startController(ctx context.Context) error {
	d, err := c.startDaemon("slurmctld", c.clientEnv(), c.tools["slurmctld"], "-D", "-f", c.confPath)
	if err != nil {
		return err
	}
	err = c.waitFor(ctx, d, "UP in scontrol ping", func(ctx context.Context) (bool, error) {
		out, err := c.output(ctx, "scontrol", "ping")
		if err != nil {
			return false, err
		}
		return strings.Contains(string(out), "is UP"), nil
	})
	if err != nil {
		var se *StartError
		if errors.As(err, &se) {
			se.LogErrors = c.LogErrors()
		}
		return err
	}
	return nil
}

// registerCluster adds the cluster to slurmdbd unless slurmctld already
// registered it.
func (c *Cluster) registerCluster(ctx context.Context) error {
	name := strings.ToLower(c.clusterName)
	out, err := c.output(ctx, "sacctmgr", "--noheader", "--parsable2", "list", "cluster", "format=cluster")
	if err != nil {
		return err
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		if strings.TrimSpace(line) == name {
			return nil
		}
	}
	if _, err := c.output(ctx, "sacctmgr", "-i", "add", "cluster", name); err != nil {
		return err
	}
	c.logf("added cluster %s to slurmdbd", name)
	return nil
}

// startStandIn starts a slurmd under a rendered node's name and waits for
// the node to register.
func (c *Cluster) startStandIn(ctx context.Context, node string) error {
	name := "slurmd-" + node
	d, err := c.startDaemon(name, c.clientEnv(), c.tools["slurmd"], "-D", "-N", node)
	if err != nil {
		return err
	}
	var invalid error
	err = c.waitFor(ctx, d, "registered", func(ctx context.Context) (bool, error) {
		f, err := c.showNode(ctx, node)
		if err != nil || f == nil {
			return false, err
		}
		state := f["State"]
		if strings.Contains(state, "INVALID_REG") || strings.Contains(state, "INVAL") {
			invalid = fmt.Errorf("slurmctld rejected its registration: State=%s Reason=%s", state, f["Reason"])
			return true, nil
		}
		registered := f["SlurmdStartTime"] != "" && f["SlurmdStartTime"] != "None"
		return registered && !strings.Contains(state, "NOT_RESPONDING"), nil
	})
	if err == nil && invalid != nil {
		err = &StartError{Stage: name, Err: invalid}
	}
	if err != nil {
		var se *StartError
		if errors.As(err, &se) {
			se.LogErrors = c.LogErrors()
		}
		return err
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

// Namespace returns the identity of the cluster's private mount namespace,
// such as "mnt:[4026532176]"; every process of the cluster is in it.
func (c *Cluster) Namespace() string { return c.ns }

// Stop stops the cluster: it sends SIGTERM to each daemon the harness
// started, in reverse start order, and SIGKILL to any still running after
// StopTimeout; then kills whatever the daemons left in the cluster's private
// namespace (job steps, for instance), and the namespace holder; and removes
// a temporary work directory. It waits for every process to be gone, and is
// safe to call more than once.
func (c *Cluster) Stop() error {
	c.stopOnce.Do(func() { c.stopErr = c.stop() })
	return c.stopErr
}

func (c *Cluster) stop() error {
	var errs []error
	for i := len(c.daemons) - 1; i >= 0; i-- {
		d := c.daemons[i]
		if err := d.terminate(c.opts.StopTimeout); err != nil {
			errs = append(errs, err)
		}
	}
	if c.holder != nil {
		if c.ns != "" && !c.holder.exited() {
			if err := killNamespace(c.ns, c.holder.pid()); err != nil {
				errs = append(errs, err)
			}
		}
		if err := c.holder.terminate(c.opts.StopTimeout); err != nil {
			errs = append(errs, err)
		}
		// A last sweep once the holder is gone: a process that entered the
		// namespace after the first sweep (seen once: one process left
		// after Stop in the real-Slurm suite) is killed and waited for too.
		if c.ns != "" {
			if err := killNamespace(c.ns, 0); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if c.ctldOutPath != "" {
		data, err := os.ReadFile(c.ctldOutPath)
		if err == nil {
			c.mu.Lock()
			c.ctldCaptured = data
			c.mu.Unlock()
		}
	}
	if c.removeWorkDir && c.workDir != "" {
		if err := os.RemoveAll(c.workDir); err != nil {
			errs = append(errs, fmt.Errorf("remove work directory: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("localslurm: stop: %w", err)
	}
	c.logf("stopped")
	return nil
}

// killNamespace SIGKILLs every process left in the namespace but the
// holder, and waits for them to go.
func killNamespace(ns string, holder int) error {
	deadline := time.Now().Add(killWait)
	for {
		pids := processesIn(ns, holder)
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %v still in namespace %s after SIGKILL", pids, ns)
		}
		for _, pid := range pids {
			if alive(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}
