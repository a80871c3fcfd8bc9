package localslurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RestartController replaces the running slurmctld with a fresh one (empty
// StateSaveLocation, new log) started on the slurm.conf rendered into dir,
// keeping munged, MariaDB and slurmdbd running: a differential test that
// starts many configurations on one release pays for those once. dir
// replaces Options.Dir; its slurm.conf must name the same SlurmctldHost
// and ClusterName (the namespace's host name and slurmdbd's cluster), and
// every stand-in node. The same overrides as Start's are applied. The
// stand-in slurmd daemons are stopped first and, once slurmctld is up,
// started again on fresh spool directories and logs, and must register
// again. A slurmctld or slurmd that fails or does not come up is reported
// as a *StartError with slurmctld's error lines, and the cluster stays
// usable for the next RestartController.
func (c *Cluster) RestartController(ctx context.Context, dir string) error {
	rendered, err := os.ReadFile(filepath.Join(dir, "slurm.conf"))
	if err != nil {
		return fmt.Errorf("read rendered slurm.conf: %w", err)
	}
	cf, err := parseConf(string(rendered))
	if err != nil {
		return fmt.Errorf("parse rendered %s: %w", filepath.Join(dir, "slurm.conf"), err)
	}
	if hosts := cf.controllerHosts(); len(hosts) == 0 || hosts[0] != c.hostname {
		return fmt.Errorf("localslurm: RestartController: SlurmctldHost %v, want %s as at Start", hosts, c.hostname)
	}
	if name, _ := cf.get("ClusterName"); name != c.clusterName {
		return fmt.Errorf("localslurm: RestartController: ClusterName %q, want %q as at Start", name, c.clusterName)
	}
	if err := c.checkStandIns(cf); err != nil {
		return fmt.Errorf("localslurm: RestartController: %w", err)
	}
	if err := c.stopStandIns(); err != nil {
		return err
	}
	if err := c.stopController(); err != nil {
		return err
	}
	if err := applyOverrides(cf, c.layout); err != nil {
		return fmt.Errorf("override runtime locations: %w", err)
	}
	c.opts.Dir = dir
	if err := c.writeFiles(cf); err != nil {
		return err
	}
	c.overrides = cf.overrides
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
	return nil
}

// stopStandIns stops the stand-in slurmd daemons and removes what the next
// ones must not find: their spool directories' contents and their output.
func (c *Cluster) stopStandIns() error {
	for _, node := range c.opts.StandIns {
		name := "slurmd-" + node
		i := slices.IndexFunc(c.daemons, func(d *daemon) bool { return d.name == name })
		if i >= 0 {
			if err := c.daemons[i].terminate(c.opts.StopTimeout); err != nil {
				return err
			}
			c.daemons = slices.Delete(c.daemons, i, i+1)
		}
		if err := emptyDir(c.path("spool", node)); err != nil {
			return err
		}
		for _, f := range []string{c.path("log", name+".out"), c.path("log", name+".log")} {
			if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove previous %s log: %w", name, err)
			}
		}
	}
	return nil
}

// stopController stops slurmctld and removes what the next one must not
// find: its state, its logs, and the previous rendered files.
func (c *Cluster) stopController() error {
	i := slices.IndexFunc(c.daemons, func(d *daemon) bool { return d.name == "slurmctld" })
	if i >= 0 {
		if err := c.daemons[i].terminate(c.opts.StopTimeout); err != nil {
			return err
		}
		c.daemons = slices.Delete(c.daemons, i, i+1)
	}
	for _, dir := range []string{"state", "prolog.d", "epilog.d"} {
		if err := emptyDir(c.path(dir)); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(c.path("etc"))
	if err != nil {
		return fmt.Errorf("read work directory: %w", err)
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".conf") && n != "slurmdbd.conf" {
			if err := os.Remove(c.path("etc", n)); err != nil {
				return fmt.Errorf("remove previous %s: %w", n, err)
			}
		}
	}
	for _, f := range []string{c.ctldOutPath, c.path("log", "slurmctld.log")} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove previous slurmctld log: %w", err)
		}
	}
	return nil
}

// emptyDir removes everything inside dir.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("empty %s: %w", dir, err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("empty %s: %w", dir, err)
		}
	}
	return nil
}
