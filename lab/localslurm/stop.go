package localslurm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

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
		// Keep the namespace alive until the last sweep is done: once its
		// last process is gone the kernel frees it, and may give its id to
		// a namespace made next (another cluster's, of this process or
		// another), whose holder the last sweep would then kill (seen with
		// clusters started side by side: "namespace holder: EOF"). An open
		// file of the namespace holds it.
		if c.ns != "" && !c.holder.exited() {
			if f, err := os.Open(filepath.Join("/proc", strconv.Itoa(c.holder.pid()), "ns", "mnt")); err == nil {
				defer f.Close()
			}
		}
		if c.ns != "" && !c.holder.exited() {
			if err := killNamespace(c.ns, c.holder.pid()); err != nil {
				errs = append(errs, err)
			}
		}
		if err := c.holder.terminate(c.opts.StopTimeout); err != nil {
			errs = append(errs, err)
		}
		if c.afterHolder != nil {
			c.afterHolder()
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
	// Every daemon is gone: its ports may go to another cluster.
	c.ports.release()
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
