package localslurm

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

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
	return c.launch(name, env, cmd, "")
}

// startHostDaemon starts a program outside the cluster's namespace.
func (c *Cluster) startHostDaemon(name string, env []string, program string, args ...string) (*daemon, error) {
	return c.launch(name, env, exec.Command(program, args...), " (outside the namespace)")
}

// launch runs cmd in the work directory with its output in log/NAME.out and
// records it among the cluster's daemons; where is added to the log line.
func (c *Cluster) launch(name string, env []string, cmd *exec.Cmd, where string) (*daemon, error) {
	cmd.Env = env
	cmd.Dir = c.workDir
	d, err := spawn(name, cmd, c.path("log", name+".out"))
	if err != nil {
		return nil, &StartError{Stage: name, Err: err}
	}
	c.daemons = append(c.daemons, d)
	c.logf("started %s pid %d%s", name, d.pid(), where)
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
	// MariaDB's own temporary directory: in the shared /tmp, its temporary
	// tables are named by process ID, and two installs in different PID
	// namespaces (parallel sessions on one machine) collided, failing with
	// "Could not remove temporary table: '/tmp/#sql-temptable-...'" and
	// "ERROR: 1051 Unknown table 'mysql.tmp_user_sys'".
	tmpDir := c.path("db", "tmp")
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return fmt.Errorf("make database directory: %w", err)
	}
	installCtx, cancel := context.WithTimeout(ctx, c.opts.ReadyTimeout)
	defer cancel()
	install := exec.CommandContext(installCtx, c.tools["mariadb-install-db"], "--no-defaults",
		"--datadir="+dataDir, "--tmpdir="+tmpDir, "--user=root", "--auth-root-authentication-method=socket",
		"--skip-test-db")
	install.Env = c.clientEnv()
	if out, err := install.CombinedOutput(); err != nil {
		_ = os.WriteFile(c.path("log", "mariadb-install-db.out"), out, 0o644)
		return &StartError{Stage: "mariadb-install-db", Err: fmt.Errorf("%w: %s", err, installErrorLines(string(out), 8))}
	}
	// slurmdbd warns unless the buffer pool and lock wait timeout meet its
	// recommendations; the pool is reserved, not used. The host's MariaDB
	// serves every release, outside the namespace (it needs neither the
	// host name nor /etc/hosts), without TLS: slurmdbd 24.11 and 26.05 die
	// at start in _check_mysql_concat_is_sane (client error 5027) on a TLS
	// connection, which the MariaDB 11.8 of their own Debian releases
	// offers by default (measured; docs/fidelity.md).
	db, err := c.startHostDaemon("mariadbd", c.clientEnv(), c.tools["mariadbd"], "--no-defaults",
		"--datadir="+dataDir, "--tmpdir="+tmpDir, "--socket="+socket, "--skip-networking", "--user=root",
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
	if c.opts.RestAPI {
		// slurmrestd's /slurmdb/ calls reach slurmdbd with the user's JWT.
		dbdConf += "AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=" + l.jwtKey() + "\n"
	}
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

// installErrorLines returns the lines of s that mention an error, or else its last
// n lines.
func installErrorLines(s string, n int) string {
	var errs []string
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Contains(strings.ToLower(l), "error") {
			errs = append(errs, l)
		}
	}
	if len(errs) == 0 || len(errs) > n {
		return lastLines(s, n)
	}
	return strings.Join(errs, "\n")
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
