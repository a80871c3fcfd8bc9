package localslurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// requirePrereqs runs the test only when the real-Slurm tests are asked
// for and the host can run o (slurmtest.Require).
func requirePrereqs(t *testing.T, o Options) {
	t.Helper()
	slurmtest.Require(t, func() error { return PrereqsFor(o) })
}

// testLog sends the harness's progress to the test log.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// renderedDir makes a rendered directory from the fixture, with edit applied
// to its slurm.conf, and a prolog that appends the job ID to marker.
func renderedDir(t *testing.T, edit func(string) string, marker string) string {
	t.Helper()
	dir := t.TempDir()
	conf := readFixture(t)
	if edit != nil {
		conf = edit(conf)
	}
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if marker != "" {
		for _, sub := range []string{"prolog.d", "epilog.d"} {
			if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
				t.Fatal(err)
			}
			script := fmt.Sprintf("#!/bin/sh\necho \"%s $SLURM_JOB_ID\" >> %s\n", strings.TrimSuffix(sub, ".d"), marker)
			if err := os.WriteFile(filepath.Join(dir, sub, "10-mark.sh"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// uptimeNow is Uptime, read before a Stop whose processes LeftAfter
// checks.
func uptimeNow(t *testing.T) float64 {
	t.Helper()
	up, ok := Uptime()
	if !ok {
		t.Fatal("cannot read /proc/uptime")
	}
	return up
}

// gone reports whether no process has the given PID.
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// run runs a client command in the cluster and returns its output.
func run(t *testing.T, c *Cluster, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := c.Command(ctx, name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestFixtureOnRealSlurm(t *testing.T) {
	o := Options{Accounting: true, StandIns: []string{"seed-a4-0"}, Log: testLog{t}}
	requirePrereqs(t, o)
	marker := filepath.Join(t.TempDir(), "prolog.log")
	o.Dir = renderedDir(t, nil, marker)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	began := time.Now()
	c, err := Start(ctx, o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("started in %v", time.Since(began).Round(time.Millisecond))
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			if err := c.Stop(); err != nil {
				t.Errorf("Stop: %v", err)
			}
		}
	})

	t.Run("accepted", func(t *testing.T) {
		if errs := c.LogErrors(); len(errs) > 0 {
			t.Errorf("slurmctld logged errors for the rendered fixture:\n%s", strings.Join(errs, "\n"))
		}
	})

	t.Run("only runtime overrides", func(t *testing.T) {
		allowed := map[string]bool{
			"SlurmUser": true, "SlurmctldPort": true, "SlurmdPort": true, "StateSaveLocation": true,
			"SlurmdSpoolDir": true, "SlurmctldPidFile": true, "SlurmdPidFile": true, "SlurmctldLogFile": true,
			"SlurmdLogFile": true, "AuthInfo": true, "AccountingStoragePort": true, "AccountingStoragePass": true,
			"Prolog": true, "Epilog": true, "ProctrackType": true, "TaskPlugin": true, "JobAcctGatherType": true,
			"SlurmdParameters": true, "gres.conf": true,
		}
		for _, ov := range c.Overrides() {
			t.Logf("override %s", ov)
			if !allowed[ov.Key] {
				t.Errorf("unexpected override %s", ov)
			}
		}
	})

	t.Run("config as rendered", func(t *testing.T) {
		cfg, err := c.ShowConfig()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"ClusterName":              "seed",
			"SlurmctldHost[0]":         "seed-controller",
			"AccountingStorageType":    "accounting_storage/slurmdbd",
			"AccountingStorageHost":    "seed-controller",
			"AccountingStorageEnforce": "associations,limits,qos",
			"SelectType":               "select/cons_tres",
			"GresTypes":                "gpu",
			"ReturnToService":          "2",
			"PriorityType":             "priority/multifactor",
			"PriorityWeightAge":        "1000",
			"PriorityWeightFairShare":  "10000",
			"PreemptType":              "preempt/partition_prio",
			"PreemptMode":              "REQUEUE",
			"PreemptExemptTime":        "00:10:00",
		}
		for k, v := range want {
			if cfg[k] != v {
				t.Errorf("scontrol show config: %s = %q, want %q", k, cfg[k], v)
			}
		}
		if got := cfg["SelectTypeParameters"]; !strings.EqualFold(got, "CR_Core_Memory") {
			t.Errorf("SelectTypeParameters = %q, want CR_Core_Memory", got)
		}
	})

	t.Run("partitions", func(t *testing.T) {
		parts, err := c.ShowPartitions()
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != 1 {
			t.Fatalf("got %d partitions, want 1: %v", len(parts), parts)
		}
		p := parts[0]
		for k, v := range map[string]string{
			"PartitionName": "a4", "Default": "YES", "NodeSets": "a4", "Nodes": "seed-a4-[0-1]",
			"TotalNodes": "2", "TotalCPUs": "448", "PreemptMode": "REQUEUE", "State": "UP",
		} {
			if p[k] != v {
				t.Errorf("partition a4: %s = %q, want %q", k, p[k], v)
			}
		}
	})

	t.Run("nodes", func(t *testing.T) {
		nodes, err := c.ShowNodes()
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]Fields{}
		for _, n := range nodes {
			byName[n["NodeName"]] = n
		}
		n, ok := byName["seed-a4-0"]
		if !ok {
			t.Fatalf("stand-in node seed-a4-0 not shown; got %v", nodes)
		}
		for k, v := range map[string]string{
			"Gres": "gpu:b200:8", "CPUTot": "224", "RealMemory": "3943936", "Partitions": "a4",
		} {
			if n[k] != v {
				t.Errorf("seed-a4-0: %s = %q, want %q", k, n[k], v)
			}
		}
		if st := n["State"]; !strings.HasPrefix(st, "IDLE") || !strings.Contains(st, "CLOUD") || strings.Contains(st, "DRAIN") {
			t.Errorf("seed-a4-0: State = %q, want IDLE+CLOUD", st)
		}
		// The other CLOUD node is powered down, which Slurm 22.05 hides.
		if n, ok := byName["seed-a4-1"]; ok && !strings.Contains(n["State"], "CLOUD") {
			t.Errorf("seed-a4-1: State = %q, want a CLOUD state", n["State"])
		}
	})

	t.Run("job runs with prolog", func(t *testing.T) {
		// AccountingStorageEnforce=associations: root needs an association.
		run(t, c, "sacctmgr", "-i", "add", "account", "smoke", "Cluster=seed")
		run(t, c, "sacctmgr", "-i", "add", "user", "root", "Account=smoke", "Cluster=seed")
		out := filepath.Join(c.WorkDir(), "job-%j.out")
		sub := run(t, c, "sbatch", "--parsable", "-w", "seed-a4-0", "--gres=gpu:b200:2", "-o", out,
			"--wrap", "echo host=$(hostname) gpus=$CUDA_VISIBLE_DEVICES")
		jobID := strings.TrimSpace(strings.Split(sub, ";")[0])
		deadline := time.Now().Add(45 * time.Second)
		var state string
		for time.Now().Before(deadline) {
			state = strings.TrimSpace(run(t, c, "sacct", "-n", "-X", "-P", "-j", jobID, "-o", "State"))
			if state == "COMPLETED" || strings.HasPrefix(state, "FAILED") || strings.HasPrefix(state, "CANCELLED") {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if state != "COMPLETED" {
			t.Fatalf("job %s state %q, want COMPLETED; squeue:\n%s", jobID, state, run(t, c, "squeue"))
		}
		got, err := os.ReadFile(strings.ReplaceAll(out, "%j", jobID))
		if err != nil {
			t.Fatal(err)
		}
		if want := "host=seed-controller gpus=0,1"; strings.TrimSpace(string(got)) != want {
			t.Errorf("job output %q, want %q", got, want)
		}
		if host := strings.TrimSpace(run(t, c, "srun", "-w", "seed-a4-0", "hostname")); host != "seed-controller" {
			t.Errorf("srun hostname = %q, want the namespace host name seed-controller", host)
		}
		log, err := os.ReadFile(marker)
		if err != nil {
			t.Fatalf("prolog left no marker: %v", err)
		}
		if !strings.Contains(string(log), "prolog "+jobID+"\n") {
			t.Errorf("prolog marker %q lacks job %s", log, jobID)
		}
		if prio := run(t, c, "sprio", "-l"); !strings.Contains(prio, "FAIRSHARE") {
			t.Errorf("sprio -l: %q", prio)
		}
	})

	t.Run("stop leaves no process", func(t *testing.T) {
		procs := c.Processes()
		ns := c.Namespace()
		began := time.Now()
		beganUp := uptimeNow(t)
		if err := c.Stop(); err != nil {
			t.Fatalf("Stop: %v", err)
		}
		stopped = true
		t.Logf("stopped in %v", time.Since(began).Round(time.Millisecond))
		if err := c.Stop(); err != nil {
			t.Errorf("second Stop: %v", err)
		}
		for _, p := range procs {
			if LeftAfter(p.PID, beganUp) {
				t.Errorf("%s (pid %d) still exists after Stop", p.Name, p.PID)
			}
		}
		if left := processesIn(ns, 0); len(left) > 0 {
			t.Errorf("processes %v still in the cluster's namespace", left)
		}
		if _, err := os.Stat(c.WorkDir()); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("temporary work directory %s not removed: %v", c.WorkDir(), err)
		}
	})
}

// TestControllerOnlyAsRendered starts slurmctld and slurmdbd without a
// stand-in slurmd, so the cgroup plugins, Gres and node sizes all stay as
// rendered: slurmctld must accept them without a cgroup.conf or gres.conf.
func TestControllerOnlyAsRendered(t *testing.T) {
	o := Options{Accounting: true, Log: testLog{t}}
	requirePrereqs(t, o)
	o.Dir = renderedDir(t, nil, "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
	if errs := c.LogErrors(); len(errs) > 0 {
		t.Errorf("slurmctld logged errors for the rendered fixture:\n%s", strings.Join(errs, "\n"))
	}
	for _, ov := range c.Overrides() {
		switch ov.Key {
		case "ProctrackType", "TaskPlugin", "JobAcctGatherType", "SlurmdParameters", "gres.conf":
			t.Errorf("override %s made without a stand-in slurmd", ov)
		}
	}
	cfg, err := c.ShowConfig()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"ProctrackType":     "proctrack/cgroup",
		"TaskPlugin":        "task/cgroup,task/affinity",
		"JobAcctGatherType": "jobacct_gather/cgroup",
	} {
		if cfg[k] != v {
			t.Errorf("scontrol show config: %s = %q, want %q", k, cfg[k], v)
		}
	}
	parts, err := c.ShowPartitions()
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 || parts[0]["Nodes"] != "seed-a4-[0-1]" || parts[0]["TotalNodes"] != "2" {
		t.Errorf("partitions = %v, want a4 with both CLOUD nodes", parts)
	}
}

func TestRefusedConfigs(t *testing.T) {
	requirePrereqs(t, Options{})
	tests := []struct {
		name string
		edit func(string) string
		want string
	}{
		{
			name: "suspend preemption without gang",
			edit: func(s string) string {
				return strings.Replace(s, "PreemptMode=REQUEUE", "PreemptMode=SUSPEND", 1)
			},
			want: "PreemptMode=SUSPEND requires GANG too",
		},
		{
			name: "unknown key",
			edit: func(s string) string { return s + "NoSuchSlurmKey=1\n" },
			want: "unrecognized key: NoSuchSlurmKey",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, err := os.MkdirTemp("", "localslurm-refused-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(parent) })
			if err := os.Chmod(parent, 0o755); err != nil {
				t.Fatal(err)
			}
			work := filepath.Join(parent, "work")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c, err := Start(ctx, Options{Dir: renderedDir(t, tt.edit, ""), WorkDir: work, Log: testLog{t}})
			if err == nil {
				c.Stop()
				t.Fatal("Start succeeded; want slurmctld to refuse the configuration")
			}
			var se *StartError
			if !errors.As(err, &se) {
				t.Fatalf("Start: %v; want a *StartError", err)
			}
			if se.Stage != "slurmctld" {
				t.Errorf("failed stage %q, want slurmctld: %v", se.Stage, err)
			}
			joined := strings.Join(se.LogErrors, "\n")
			if !strings.Contains(joined, tt.want) || !strings.Contains(joined, "fatal:") {
				t.Errorf("error lines lack %q and a fatal line:\n%s", tt.want, joined)
			}
			// Nothing of the failed cluster is left running.
			for _, pid := range processesUsing(work) {
				t.Errorf("pid %d still running with %s on its command line", pid, work)
			}
		})
	}
}

// processesUsing returns live processes whose command line mentions s.
func processesUsing(s string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestTwoStandIns runs a two-node job across two local slurmd daemons,
// which need a port each (a per-node Port= override).
func TestTwoStandIns(t *testing.T) {
	o := Options{StandIns: []string{"seed-a4-0", "seed-a4-1"}, Log: testLog{t}}
	requirePrereqs(t, o)
	o.Dir = renderedDir(t, nil, filepath.Join(t.TempDir(), "prolog.log"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
	portOverride := false
	for _, ov := range c.Overrides() {
		if strings.HasPrefix(ov.Key, "NodeName=seed-a4-[0-1] Port") {
			portOverride = true
		}
	}
	if !portOverride {
		t.Errorf("no per-node Port override among %v", c.Overrides())
	}
	out := run(t, c, "srun", "-N2", "-w", "seed-a4-[0-1]", "printenv", "SLURMD_NODENAME")
	lines := strings.Fields(out)
	slices.Sort(lines)
	if strings.Join(lines, " ") != "seed-a4-0 seed-a4-1" {
		t.Errorf("srun -N2 ran on %q, want seed-a4-0 and seed-a4-1", out)
	}
}

// TestPrologGlobMatchingNothing records a Slurm 22.05 fact the renderer
// depends on: Prolog=<dir>/* with no file in <dir> fails every job and
// drains the node.
func TestPrologGlobMatchingNothing(t *testing.T) {
	o := Options{StandIns: []string{"seed-a4-0"}, Log: testLog{t}}
	requirePrereqs(t, o)
	o.Dir = renderedDir(t, nil, "") // no prolog.d or epilog.d
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
	srunCtx, srunCancel := context.WithTimeout(ctx, 20*time.Second)
	defer srunCancel()
	out, err := c.Command(srunCtx, "srun", "-w", "seed-a4-0", "true").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Job prolog failed") {
		t.Errorf("srun with an empty prolog.d: err %v, output %q; want \"Job prolog failed\"", err, out)
	}
	nodes, err := c.ShowNodes()
	if err != nil {
		t.Fatal(err)
	}
	// Both globs match nothing, so the epilog that runs after the failed
	// prolog fails too; which of the two reasons the node keeps depends on
	// timing (seen once under load: "Epilog error").
	for _, n := range nodes {
		if n["NodeName"] != "seed-a4-0" {
			continue
		}
		if !strings.Contains(n["State"], "DRAIN") || !(strings.HasPrefix(n["Reason"], "Prolog error") || strings.HasPrefix(n["Reason"], "Epilog error")) {
			t.Errorf("seed-a4-0: State=%s Reason=%s; want DRAIN with Prolog error (or Epilog error)", n["State"], n["Reason"])
		}
	}
}
