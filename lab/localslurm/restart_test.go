package localslurm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRestartController starts the fixture with accounting, then restarts
// slurmctld on a changed configuration (which it then shows), on a refused
// one (a *StartError with slurmctld's fatal line), and on the fixture again
// (up, without the previous run's error lines): munged, MariaDB and
// slurmdbd keep their PIDs throughout.
func TestRestartController(t *testing.T) {
	o := Options{Accounting: true, Log: testLog{t}}
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
	pids := func() map[string]int {
		m := map[string]int{}
		for _, p := range c.Processes() {
			m[p.Name] = p.PID
		}
		return m
	}
	before := pids()

	changed := renderedDir(t, func(s string) string { return s + "MaxJobCount=12345\n" }, "")
	if err := c.RestartController(ctx, changed); err != nil {
		t.Fatalf("RestartController on a changed configuration: %v", err)
	}
	cfg, err := c.ShowConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg["MaxJobCount"] != "12345" {
		t.Errorf("after the restart MaxJobCount = %q, want 12345", cfg["MaxJobCount"])
	}

	refused := renderedDir(t, func(s string) string { return s + "NoSuchSlurmKey=1\n" }, "")
	err = c.RestartController(ctx, refused)
	var se *StartError
	if !errors.As(err, &se) || se.Stage != "slurmctld" {
		t.Fatalf("RestartController on a refused configuration: %v; want a slurmctld *StartError", err)
	}
	if joined := strings.Join(se.LogErrors, "\n"); !strings.Contains(joined, "unrecognized key: NoSuchSlurmKey") {
		t.Errorf("error lines lack the unknown key:\n%s", joined)
	}

	if err := c.RestartController(ctx, o.Dir); err != nil {
		t.Fatalf("RestartController back on the fixture: %v", err)
	}
	if errs := c.LogErrors(); len(errs) > 0 {
		t.Errorf("error lines after the restart (the refused run's must be gone):\n%s", strings.Join(errs, "\n"))
	}
	cfg, err = c.ShowConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg["MaxJobCount"] == "12345" {
		t.Error("MaxJobCount=12345 of an earlier configuration is still in force")
	}
	after := pids()
	for _, name := range []string{"namespace", "munged", "mariadbd", "slurmdbd"} {
		if before[name] == 0 || after[name] != before[name] {
			t.Errorf("%s: pid %d before, %d after; want it kept", name, before[name], after[name])
		}
	}
	if after["slurmctld"] == before["slurmctld"] {
		t.Errorf("slurmctld kept pid %d; want a new slurmctld", after["slurmctld"])
	}
}

// TestRestartControllerWithStandIn: RestartController stops a stand-in
// slurmd and starts it again after slurmctld, on a fresh spool and log:
// it registers again; a configuration slurmd refuses (an unknown task
// plugin, which slurmctld never loads) is a *StartError of the slurmd's
// stage, with slurmd's own error lines in SlurmdErrors; and the next
// restart on the fixture leaves none of them.
func TestRestartControllerWithStandIn(t *testing.T) {
	const node = "seed-a4-0"
	o := Options{StandIns: []string{node}, Log: testLog{t}}
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
	slurmdPID := func() int {
		for _, p := range c.Processes() {
			if p.Name == "slurmd-"+node {
				return p.PID
			}
		}
		return 0
	}
	first := slurmdPID()
	if errs := c.SlurmdErrors(node); len(errs) > 0 {
		t.Errorf("slurmd error lines on the fixture:\n%s", strings.Join(errs, "\n"))
	}

	changed := renderedDir(t, func(s string) string { return s + "MaxJobCount=12345\n" }, "")
	if err := c.RestartController(ctx, changed); err != nil {
		t.Fatalf("RestartController on a changed configuration: %v", err)
	}
	if second := slurmdPID(); second == 0 || second == first || !gone(first) {
		t.Errorf("slurmd pid %d before, %d after; want the old one gone and a new one", first, second)
	}

	refused := renderedDir(t, func(s string) string {
		return strings.Replace(s, "TaskPlugin=task/cgroup,task/affinity", "TaskPlugin=task/affinity,task/nosuch", 1)
	}, "")
	err = c.RestartController(ctx, refused)
	var se *StartError
	if !errors.As(err, &se) || se.Stage != "slurmd-"+node {
		t.Fatalf("RestartController on a configuration slurmd refuses: %v; want a slurmd-%s *StartError", err, node)
	}
	if joined := strings.Join(c.SlurmdErrors(node), "\n"); !strings.Contains(joined, "task/nosuch") {
		t.Errorf("slurmd's error lines lack the unknown plugin:\n%s", joined)
	}
	if joined := strings.Join(c.LogErrors(), "\n"); strings.Contains(joined, "task/nosuch") {
		t.Errorf("slurmctld logs errors for a plugin only slurmd loads (the test needs a slurmd-only setting):\n%s", joined)
	}

	if err := c.RestartController(ctx, o.Dir); err != nil {
		t.Fatalf("RestartController back on the fixture: %v", err)
	}
	if errs := c.SlurmdErrors(node); len(errs) > 0 {
		t.Errorf("slurmd error lines after the restart (the refused run's must be gone):\n%s", strings.Join(errs, "\n"))
	}
}
