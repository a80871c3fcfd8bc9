package realslurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// Bounds on every wait, so that a broken cluster fails the suite quickly.
const (
	startTimeout   = 90 * time.Second
	commandTimeout = 30 * time.Second
	jobTimeout     = 45 * time.Second
)

// requirePrereqs runs the test only when the real-Slurm tests are asked
// for and this host can run a real Slurm with accounting and stand-in
// nodes (slurmtest.Require).
func requirePrereqs(t *testing.T) {
	t.Helper()
	requirePrereqsFor(t, "")
}

// requirePrereqsFor is requirePrereqs for a release ("" for the host's).
func requirePrereqsFor(t *testing.T, release string) {
	t.Helper()
	slurmtest.Require(t, func() error {
		return localslurm.PrereqsFor(localslurm.Options{Release: release, Accounting: true})
	})
}

// testLog sends the harness's progress to the test log.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// cluster is a started cluster for one rendered spec.
type cluster struct {
	*localslurm.Cluster
	t       *testing.T
	stopped bool
}

// start starts a cluster from a rendered directory. If the test fails, its
// cleanup prints slurmctld's own error lines before stopping the cluster;
// and it stops the cluster unless the test did (see stopAndCheck).
func start(t *testing.T, dir string, o localslurm.Options) *cluster {
	t.Helper()
	o.Dir = dir
	o.Log = testLog{t}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	began := time.Now()
	c, err := localslurm.Start(ctx, o)
	if err != nil {
		t.Fatalf("start slurm for the rendered spec: %v", err)
	}
	t.Logf("cluster up in %v (accounting %v, stand-ins %v)", time.Since(began).Round(time.Millisecond), o.Accounting, o.StandIns)
	cl := &cluster{Cluster: c, t: t}
	t.Cleanup(func() {
		if t.Failed() {
			if errs := c.LogErrors(); len(errs) > 0 {
				t.Logf("slurmctld's error lines (fresh-state and clock-latency lines left out):\n  %s", strings.Join(errs, "\n  "))
			} else {
				t.Logf("slurmctld logged no error lines")
			}
		}
		if !cl.stopped {
			if err := c.Stop(); err != nil {
				t.Errorf("Stop: %v", err)
			}
		}
	})
	return cl
}

// stopAndCheck stops the cluster and checks that nothing it started is left:
// every recorded PID gone, no process left in its mount namespace, and its
// work directory removed.
func (cl *cluster) stopAndCheck(t *testing.T) {
	t.Helper()
	procs := cl.Processes()
	ns := cl.Namespace()
	began := time.Now()
	beganUp, upOK := localslurm.Uptime()
	err := cl.Stop()
	cl.stopped = true
	if err != nil {
		t.Fatalf("Stop: %v", err)
	}
	t.Logf("stopped in %v; checking %d recorded processes", time.Since(began).Round(time.Millisecond), len(procs))
	for _, p := range procs {
		// Stop waited for each, so an id alive now and started since is
		// another process's (seen in the CI rehearsal beside the oracle:
		// "slurmdbd (pid 3817) still exists after Stop").
		if !upOK && !errors.Is(syscall.Kill(p.PID, 0), syscall.ESRCH) || upOK && localslurm.LeftAfter(p.PID, beganUp) {
			t.Errorf("%s (pid %d) still exists after Stop", p.Name, p.PID)
		}
	}
	if left := processesInNamespace(ns); len(left) > 0 {
		// Stop waits until the namespace holds no process, so the kernel
		// may give its id to a namespace another test creates (packages run
		// in parallel): a process that started after Stop began is not
		// this cluster's.
		var ours, others []int
		for _, pid := range left {
			start, ok := localslurm.StartedAt(pid)
			switch {
			case !ok && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH):
				// Gone since the listing: a short-lived process of the
				// namespace that reused the id (seen with eight clusters
				// side by side: an scontrol of another cluster).
			case upOK && ok && start > beganUp:
				others = append(others, pid)
			default:
				ours = append(ours, pid)
			}
		}
		if len(others) > 0 {
			t.Logf("processes %v in a namespace with the id %s started after Stop began: the id was reused", others, ns)
		}
		if len(ours) > 0 {
			t.Errorf("processes %v still in the cluster's mount namespace %s after Stop", ours, ns)
		}
	}
	if _, err := os.Stat(cl.WorkDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("work directory %s left behind: %v", cl.WorkDir(), err)
	}
}

// processesInNamespace returns the live processes whose mount namespace is
// ns ("mnt:[...]").
func processesInNamespace(ns string) []int {
	if ns == "" {
		return nil
	}
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		got, err := os.Readlink(filepath.Join("/proc", e.Name(), "ns", "mnt"))
		if err != nil || got != ns {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); err == nil && i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue // a zombie is gone but for its exit status
		}
		pids = append(pids, pid)
	}
	return pids
}

// output runs a client command in the cluster and returns its combined
// output.
func (cl *cluster) output(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	out, err := cl.Command(ctx, name, args...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// run is output that fails the test on error.
func (cl *cluster) run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := cl.output(name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hostnames expands a Slurm host list with Slurm's own expansion.
func (cl *cluster) hostnames(t *testing.T, list string) []string {
	t.Helper()
	if list == "" || list == "(null)" {
		return nil
	}
	return strings.Fields(cl.run(t, "scontrol", "show", "hostnames", list))
}

// job returns a job's `scontrol show job -o` record.
func (cl *cluster) job(t *testing.T, id string) localslurm.Fields {
	t.Helper()
	out := cl.run(t, "scontrol", "show", "job", "-o", id)
	for _, f := range parseRecords(out) {
		if f["JobId"] == id {
			return f
		}
	}
	t.Fatalf("job %s not shown: %s", id, out)
	return nil
}

// waitJob waits until cond holds for the job's record, and returns it.
func (cl *cluster) waitJob(t *testing.T, id, what string, cond func(localslurm.Fields) bool) localslurm.Fields {
	t.Helper()
	return cl.waitJobUntil(t, id, what, time.Now().Add(jobTimeout), cond)
}

// waitJobUntil is waitJob with its own deadline.
func (cl *cluster) waitJobUntil(t *testing.T, id, what string, deadline time.Time, cond func(localslurm.Fields) bool) localslurm.Fields {
	t.Helper()
	for {
		f := cl.job(t, id)
		if cond(f) {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s not %s by %s: JobState=%s Reason=%s Restarts=%s\nsqueue:\n%s", id, what, deadline.Format(time.TimeOnly),
				f["JobState"], f["Reason"], f["Restarts"], cl.run(t, "squeue", "-a"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// submit submits a batch job and returns its id.
func (cl *cluster) submit(t *testing.T, args ...string) string {
	t.Helper()
	out := cl.run(t, "sbatch", append([]string{"--parsable"}, args...)...)
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	if _, err := strconv.Atoi(id); err != nil {
		t.Fatalf("sbatch %v: no job id in %q", args, out)
	}
	return id
}

// finished reports whether a job state is final.
func finished(state string) bool {
	switch state {
	case "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "BOOT_FAIL", "OUT_OF_MEMORY", "DEADLINE":
		return true
	}
	return false
}

// parseRecords parses `scontrol show ... -o` output: one record a line,
// Key=Value words, where a word without "=" continues the previous value.
func parseRecords(out string) []localslurm.Fields {
	var records []localslurm.Fields
	for line := range strings.SplitSeq(out, "\n") {
		words := strings.Fields(line)
		if len(words) == 0 || !strings.Contains(words[0], "=") {
			continue
		}
		f := localslurm.Fields{}
		last := ""
		for _, w := range words {
			if k, v, ok := strings.Cut(w, "="); ok && k != "" {
				f[k], last = v, k
				continue
			}
			f[last] += " " + w
		}
		records = append(records, f)
	}
	return records
}

// Value normalisation between slurm.conf and `scontrol show`.
//
// Slurm prints back what it parsed, not what was written. sameValue maps
// these, and nothing else:
//
//   - case: key and value compare case-insensitively (CR_Core_Memory is
//     shown CR_CORE_MEMORY, PriorityWeightFairshare as
//     PriorityWeightFairShare);
//   - times (MaxTime, DefaultTime, PreemptExemptTime, ...): both sides are
//     parsed as Slurm times, a bare number being minutes, and INFINITE,
//     UNLIMITED and -1 meaning no limit ("60" is shown 01:00:00);
//   - units: show config appends a unit to some numbers ("300 sec",
//     "2000 usec", "0 min", "60 nodes/min", "0 percent", "30 MB"), which is
//     dropped before comparing;
//   - users: SlurmUser and SlurmdUser are shown with the uid, "root(0)";
//   - lists: comma-separated flags compare as sets, since Slurm prints
//     them in its own order (AccountingStorageEnforce, PreemptMode).
var (
	unitSuffix = regexp.MustCompile(`^(-?[0-9.]+) (sec|usec|min|percent|nodes/min|MB)$`)
	userSuffix = regexp.MustCompile(`^([^()]+)\([0-9]+\)$`)
	timeValue  = regexp.MustCompile(`^([0-9]+-)?[0-9]+(:[0-9]+){0,2}$`)
)

// sameValue reports whether a value Slurm shows is the value written.
func sameValue(want, got string) bool {
	want, got = strings.TrimSpace(want), strings.TrimSpace(got)
	if strings.EqualFold(want, got) {
		return true
	}
	if m := unitSuffix.FindStringSubmatch(got); m != nil && strings.EqualFold(want, m[1]) {
		return true
	}
	// scontrol shows a boolean key as YES or NO; the spec may say it in
	// any spelling Slurm's boolean parser takes (a YAML true becomes
	// "true").
	if b, ok := slurmBool(want); ok && (strings.EqualFold(got, "YES") || strings.EqualFold(got, "NO")) {
		return b == strings.EqualFold(got, "YES")
	}
	if m := userSuffix.FindStringSubmatch(got); m != nil && strings.EqualFold(want, m[1]) {
		return true
	}
	if timeLike(want) || timeLike(got) {
		w, okw := slurmTime(want)
		g, okg := slurmTime(got)
		if okw && okg {
			return w == g
		}
	}
	if strings.Contains(want, ",") || strings.Contains(got, ",") {
		return sameSet(strings.Split(want, ","), strings.Split(got, ","))
	}
	return false
}

// timeLike reports whether a value can only be a time: it has a colon or a
// day part, or is a no-limit word. A bare number may be a count.
func timeLike(s string) bool {
	if _, ok := slurmTime(s); !ok {
		return false
	}
	return strings.ContainsAny(s, ":-") || strings.EqualFold(s, "INFINITE") || strings.EqualFold(s, "UNLIMITED")
}

// sameSet compares two lists as case-insensitive sets.
func sameSet(a, b []string) bool {
	norm := func(l []string) []string {
		var out []string
		for _, s := range l {
			if s = strings.ToLower(strings.TrimSpace(s)); s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(norm(a), norm(b))
}

// slurmTime parses a Slurm time limit as time_str2mins does: "M", "M:S",
// "H:M:S", "D-H", "D-H:M", "D-H:M:S"; INFINITE, UNLIMITED and -1 are no
// limit (-1). It returns seconds.
func slurmTime(s string) (int64, bool) {
	switch strings.ToUpper(s) {
	case "INFINITE", "UNLIMITED", "-1":
		return -1, true
	}
	if !timeValue.MatchString(s) {
		return 0, false
	}
	var days int64
	if d, rest, ok := strings.Cut(s, "-"); ok {
		n, _ := strconv.ParseInt(d, 10, 64)
		days, s = n, rest
		parts := strings.Split(s, ":")
		var h, m, sec int64
		h, _ = strconv.ParseInt(parts[0], 10, 64)
		if len(parts) > 1 {
			m, _ = strconv.ParseInt(parts[1], 10, 64)
		}
		if len(parts) > 2 {
			sec, _ = strconv.ParseInt(parts[2], 10, 64)
		}
		return ((days*24+h)*60+m)*60 + sec, true
	}
	parts := strings.Split(s, ":")
	n := make([]int64, len(parts))
	for i, p := range parts {
		n[i], _ = strconv.ParseInt(p, 10, 64)
	}
	switch len(n) {
	case 1:
		return n[0] * 60, true
	case 2:
		return n[0]*60 + n[1], true
	default:
		return (n[0]*60+n[1])*60 + n[2], true
	}
}

// lookupFold finds a key case-insensitively.
func lookupFold(m map[string]string, key string) (string, string, bool) {
	if v, ok := m[key]; ok {
		return key, v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return k, v, true
		}
	}
	return "", "", false
}

// slurmBool reads a value as Slurm's boolean parser (S_P_BOOLEAN) does:
// yes/true/up/1 and no/false/down/0, in any case.
func slurmBool(s string) (value, ok bool) {
	switch strings.ToLower(s) {
	case "yes", "true", "up", "1":
		return true, true
	case "no", "false", "down", "0":
		return false, true
	}
	return false, false
}
