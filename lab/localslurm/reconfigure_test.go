package localslurm

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestReconfigure starts the fixture, applies a changed configuration with
// Reconfigure (slurmctld then shows it, and on 22.05, which re-reads
// slurm.conf in place, keeps its PID), and refuses one that names another
// cluster without touching the running one.
func TestReconfigure(t *testing.T) {
	o := Options{Log: testLog{t}}
	requirePrereqs(t, o)
	o.Dir = renderedDir(t, nil, "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := Start(ctx, o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer func() {
		if err := c.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	}()
	ctld := func() int {
		for _, p := range c.Processes() {
			if p.Name == "slurmctld" {
				return p.PID
			}
		}
		return 0
	}
	before := ctld()

	changed := renderedDir(t, func(s string) string { return s + "KillWait=17\n" }, "")
	if err := c.Reconfigure(ctx, changed); err != nil {
		t.Fatalf("Reconfigure: %v", err)
	}
	cfg, err := c.ShowConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cfg["KillWait"], "17") {
		t.Errorf("after Reconfigure KillWait = %q, want 17 sec", cfg["KillWait"])
	}
	if c.Release().Series == "22.05" && ctld() != before {
		t.Errorf("slurmctld's PID changed from %d to %d on 22.05", before, ctld())
	}

	other := renderedDir(t, func(s string) string {
		return regexp.MustCompile(`(?m)^ClusterName=.*$`).ReplaceAllString(s, "ClusterName=othercluster")
	}, "")
	if err := c.Reconfigure(ctx, other); err == nil || !strings.Contains(err.Error(), "ClusterName") {
		t.Errorf("Reconfigure with another ClusterName: %v, want an error naming ClusterName", err)
	}
	if cfg, err := c.ShowConfig(); err != nil || !strings.HasPrefix(cfg["KillWait"], "17") {
		t.Errorf("after the refused Reconfigure KillWait = %q (%v), want 17 sec still", cfg["KillWait"], err)
	}
}
