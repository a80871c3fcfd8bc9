package localslurm

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process is one process the harness started and will stop.
type Process struct {
	// Name is the harness's name for it: "namespace", "munged", "mariadbd",
	// "slurmdbd", "slurmctld" or "slurmd-<node>".
	Name string
	// PID is its process ID on this host.
	PID int
}

// daemon is a long-running child process.
type daemon struct {
	name string
	cmd  *exec.Cmd
	out  *os.File      // captured stdout and stderr
	done chan struct{} // closed once the process has been waited for
	err  error         // Wait's result, valid after done is closed
}

func (d *daemon) pid() int { return d.cmd.Process.Pid }

// exited reports whether the process has exited.
func (d *daemon) exited() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// spawn starts cmd, with its output in outPath, and waits for it in the
// background. The child is killed if the harness's process dies, and runs in
// its own process group so a terminal's Ctrl-C reaches only the harness.
func spawn(name string, cmd *exec.Cmd, outPath string) (*daemon, error) {
	out, err := os.OpenFile(outPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s output: %w", name, err)
	}
	if cmd.Stdout == nil {
		cmd.Stdout = out
	}
	cmd.Stderr = out
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	d := &daemon{name: name, cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		d.err = cmd.Wait()
		out.Close()
		close(d.done)
	}()
	return d, nil
}

// terminate sends SIGTERM, then SIGKILL after timeout, and waits for exit.
func (d *daemon) terminate(timeout time.Duration) error {
	if d.exited() {
		return nil
	}
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stop %s (pid %d): %w", d.name, d.pid(), err)
	}
	select {
	case <-d.done:
		return nil
	case <-time.After(timeout):
	}
	if err := d.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("kill %s (pid %d): %w", d.name, d.pid(), err)
	}
	select {
	case <-d.done:
		return nil
	case <-time.After(killWait):
		return fmt.Errorf("%s (pid %d) still running %v after SIGKILL", d.name, d.pid(), killWait)
	}
}

// killWait bounds the wait for a process to disappear after SIGKILL.
const killWait = 5 * time.Second

// holderScript runs in the new mount and UTS namespaces: it makes every
// mount private; for another release, mounts the release's root file
// system's /etc and /usr read-only over the host's (the host's /bin, /sbin
// and /lib are links into /usr, checked by PrereqsFor); puts the harness's
// hosts file over /etc/hosts; takes the controller's host name; says so;
// and then only holds the namespaces open. Every path outside /usr and /etc
// (the work directory, /tmp, /proc, /dev, /sys) stays the host's, so the
// daemons see the work directory at the same path. Its arguments are the
// hosts file, the host name, the paths of mount, hostname and sleep, and
// the root ("/" for the host's own Slurm). /usr is mounted last: mount and
// hostname are the host's, sleep the root's.
const holderScript = `set -e
"$3" --make-rprivate /
if [ "$6" != / ]; then
	"$3" --bind -o ro "$6/etc" /etc
fi
"$3" --bind "$1" /etc/hosts
"$4" "$2"
if [ "$6" != / ]; then
	"$3" --bind -o ro "$6/usr" /usr
fi
echo ready
exec "$5" infinity
`

// holderTools are the programs the holder script runs.
type holderTools struct {
	sh, mount, hostname, sleep string
}

// startHolder starts the namespace holder and waits until it is ready.
func startHolder(t holderTools, hostsPath, hostname, root, outPath string, timeout time.Duration) (*daemon, error) {
	cmd := exec.Command(t.sh, "-c", holderScript, "localslurm-namespace", hostsPath, hostname, t.mount, t.hostname, t.sleep, root)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWUTS}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("namespace holder pipe: %w", err)
	}
	defer r.Close()
	cmd.Stdout = w
	d, err := spawn("namespace", cmd, outPath)
	w.Close()
	if err != nil {
		return nil, err
	}
	ready := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		if err == nil && strings.TrimSpace(line) != "ready" {
			err = fmt.Errorf("unexpected output %q", line)
		}
		ready <- err
	}()
	select {
	case err = <-ready:
	case <-time.After(timeout):
		err = fmt.Errorf("not ready after %v", timeout)
	}
	if err != nil {
		_ = d.terminate(time.Second)
		out, _ := os.ReadFile(outPath)
		return nil, fmt.Errorf("namespace holder: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return d, nil
}

// mountNamespace returns the identity of a process's mount namespace, such
// as "mnt:[4026532176]".
func mountNamespace(pid int) (string, error) {
	ns, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "ns", "mnt"))
	if err != nil {
		return "", fmt.Errorf("mount namespace of pid %d: %w", pid, err)
	}
	return ns, nil
}

// processesIn returns the PIDs of live processes in the mount namespace ns,
// except the one given. Only processes the harness's daemons started (job
// steps, slurmscriptd) can be there: the namespace is private to the run.
func processesIn(ns string, except int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == except {
			continue
		}
		if got, err := mountNamespace(pid); err == nil && got == ns && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
