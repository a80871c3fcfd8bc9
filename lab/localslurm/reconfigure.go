package localslurm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Reconfigure applies the slurm.conf rendered into dir to the running
// cluster the way a change reaches a live one: the same overrides as
// Start's are applied, the result replaces the work directory's slurm.conf
// (and the other rendered files), and `scontrol reconfigure` asks the
// daemons to read it. Jobs, state and daemons are kept (from 23.11 Slurm
// replaces the daemon processes itself, inside the cluster's namespace,
// which Stop empties). dir must name the same SlurmctldHost, ClusterName
// and stand-in nodes as at Start. Reconfigure returns once slurmctld
// answers and shows the new configuration's time, or with slurmctld's
// error lines when it does not within ReadyTimeout, and once every
// stand-in node answers again (standInAnswers).
func (c *Cluster) Reconfigure(ctx context.Context, dir string) error {
	rendered, err := os.ReadFile(filepath.Join(dir, "slurm.conf"))
	if err != nil {
		return fmt.Errorf("read rendered slurm.conf: %w", err)
	}
	cf, err := parseConf(string(rendered))
	if err != nil {
		return fmt.Errorf("parse rendered %s: %w", filepath.Join(dir, "slurm.conf"), err)
	}
	if hosts := cf.controllerHosts(); len(hosts) == 0 || hosts[0] != c.hostname {
		return fmt.Errorf("localslurm: Reconfigure: SlurmctldHost %v, want %s as at Start", hosts, c.hostname)
	}
	if name, _ := cf.get("ClusterName"); name != c.clusterName {
		return fmt.Errorf("localslurm: Reconfigure: ClusterName %q, want %q as at Start", name, c.clusterName)
	}
	if err := c.checkStandIns(cf); err != nil {
		return fmt.Errorf("localslurm: Reconfigure: %w", err)
	}
	if err := applyOverrides(cf, c.layout); err != nil {
		return fmt.Errorf("override runtime locations: %w", err)
	}
	before, err := c.lastConfigUpdate(ctx)
	if err != nil {
		return fmt.Errorf("localslurm: Reconfigure: before: %w", err)
	}
	// The time has whole seconds: a reconfigure within the second the
	// configuration was last read would look like none.
	if last, err := time.ParseInLocation("2006-01-02T15:04:05", strings.TrimSpace(strings.TrimPrefix(before, "Configuration data as of")), time.Local); err == nil {
		if wait := time.Until(last.Add(time.Second)); wait > 0 {
			time.Sleep(wait)
		}
	}
	c.opts.Dir = dir
	if err := c.writeFiles(cf); err != nil {
		return err
	}
	c.overrides = cf.overrides
	if out, err := c.output(ctx, "scontrol", "reconfigure"); err != nil {
		return &StartError{Stage: "scontrol reconfigure", Err: fmt.Errorf("%w: %s", err, strings.TrimSpace(string(out))), LogErrors: c.LogErrors()}
	}
	err = c.waitFor(ctx, nil, "reconfigured (a new LAST_CONFIG_UPDATE in scontrol show config)", func(ctx context.Context) (bool, error) {
		now, err := c.lastConfigUpdate(ctx)
		return err == nil && now != before, err
	})
	if err != nil {
		return err
	}
	for _, node := range c.opts.StandIns {
		if err := c.standInAnswers(ctx, node); err != nil {
			return err
		}
	}
	return nil
}

// standInAnswerTimeout bounds the wait for a stand-in slurmd to answer
// after `scontrol reconfigure` before it is started again.
const standInAnswerTimeout = 15 * time.Second

// standInAnswers waits until a stand-in node is registered and responding
// after a reconfigure. 24.11's slurmd, replaced by a new process on
// reconfigure, was seen not to register again (the node stayed
// NOT_RESPONDING with SlurmdStartTime=None): then the stand-in slurmd is
// started again on its spool directory, which running jobs' slurmstepd
// processes outlive.
func (c *Cluster) standInAnswers(ctx context.Context, node string) error {
	answers := func(ctx context.Context) (bool, error) {
		f, err := c.showNode(ctx, node)
		if err != nil || f == nil {
			return false, err
		}
		registered := f["SlurmdStartTime"] != "" && f["SlurmdStartTime"] != "None"
		return registered && !strings.Contains(f["State"], "NOT_RESPONDING"), nil
	}
	deadline := time.Now().Add(standInAnswerTimeout)
	for time.Now().Before(deadline) {
		if ok, _ := answers(ctx); ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	name := "slurmd-" + node
	c.logf("%s does not answer after reconfigure: starting it again", name)
	if i := slices.IndexFunc(c.daemons, func(d *daemon) bool { return d.name == name }); i >= 0 {
		if err := c.daemons[i].terminate(c.opts.StopTimeout); err != nil {
			return err
		}
		c.daemons = slices.Delete(c.daemons, i, i+1)
	}
	return c.startStandIn(ctx, node)
}

// lastConfigUpdate is when slurmctld last read slurm.conf, as `scontrol
// show config` says (its first line, "Configuration data as of TIME").
func (c *Cluster) lastConfigUpdate(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := c.output(ctx, "scontrol", "show", "config")
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(string(out), "\n")
	if !strings.HasPrefix(first, "Configuration data as of") {
		return "", fmt.Errorf("scontrol show config: first line %q", first)
	}
	return first, nil
}
