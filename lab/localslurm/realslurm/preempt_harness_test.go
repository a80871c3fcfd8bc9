package realslurm

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// This file is the harness of the preemption tests (preempt_test.go): a
// pair of jobs on the one static node of truthSpec's cpu pool, a
// low-priority job that fills the node and a high-priority job that needs
// it, and what became of the low job.

// Outcomes of the low job once the high job was submitted.
const (
	// outNone: not preempted. The high job pends and the low job runs on,
	// through a scheduling pass after the high job's submission.
	outNone = "not preempted"
	// outCancelled: the low job ended (JobState PREEMPTED or CANCELLED)
	// and the high job runs.
	outCancelled = "cancelled"
	// outRequeued: the low job is back in the queue (PENDING or REQUEUED,
	// Restarts 1) and the high job runs.
	outRequeued = "requeued"
	// outSuspended: the low job is SUSPENDED and the high job runs.
	outSuspended = "suspended"
)

// pairJob is what the harness saw of one job.
type pairJob struct {
	id     string
	fields localslurm.Fields
}

// pairResult is what became of a low/high pair.
type pairResult struct {
	outcome   string
	low, high pairJob
	// lowStart, lowPreempted and highStart are the low job's start, the
	// time the scheduler chose it for preemption (PreemptTime) and the
	// high job's start, as slurmctld records them.
	lowStart, lowPreempted, highStart time.Time
}

// pairArgs are the sbatch arguments of one job of a pair: the whole node's
// CPUs and 1 GiB of its memory (so that a suspended job leaves room for
// the next), in partition part, with extra arguments (such as --qos).
func pairArgs(node, part, script string, extra ...string) []string {
	args := []string{"-p", part, "-w", node, "--exclusive", "--mem=1G", "-D", "/tmp", "-o", "/dev/null", "-J", part}
	args = append(args, extra...)
	return append(args, "--wrap", script)
}

// graceScript is a low job that ignores SIGTERM, so that a grace time is
// spent in full (it ends with SIGKILL, KillWait after the grace time).
const graceScript = `trap "" TERM; while :; do sleep 1; done`

// submitLow submits the low job (script, or sleep 300) and waits until it
// runs.
func (cl *cluster) submitLow(t *testing.T, node, part, script string, extra ...string) pairJob {
	t.Helper()
	if script == "" {
		script = "sleep 300"
	}
	id := cl.submit(t, pairArgs(node, part, script, extra...)...)
	f := cl.waitJob(t, id, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] != "PENDING" })
	if f["JobState"] != "RUNNING" {
		t.Fatalf("low job %s in %s: JobState=%s Reason=%s, want RUNNING", id, part, f["JobState"], f["Reason"])
	}
	return pairJob{id: id, fields: f}
}

// submitHigh submits the high job and waits until the scheduler has
// decided about it: it runs, or the low job was chosen for preemption, or
// it pends and the scheduler has evaluated it without preempting the low
// job (decide; slurmctld tries preemption when the job is submitted and in
// every pass). It returns what became of the low job.
func (cl *cluster) submitHigh(t *testing.T, node, part string, low pairJob, extra ...string) pairResult {
	t.Helper()
	mark := cl.mark(t)
	id := cl.submit(t, pairArgs(node, part, "sleep 300", extra...)...)
	return cl.decide(t, id, low, mark)
}

// schedMark is a point from which decide counts the scheduler's work: the
// main scheduler's pass count and the time.
type schedMark struct {
	cycles int
	at     time.Time
}

// mark is the scheduler's state now.
func (cl *cluster) mark(t *testing.T) schedMark {
	t.Helper()
	return schedMark{cl.schedCycles(t), time.Now()}
}

// decide waits until the scheduler has decided about the pending job id
// since mark, and returns what became of the low job. Not preempting is a
// decision once the job pends for Resources or Priority (the node is up and
// busy) by an evaluation in a later second than mark (LastSchedEval) and
// the main scheduler has made two passes since mark.
func (cl *cluster) decide(t *testing.T, id string, low pairJob, mark schedMark) pairResult {
	t.Helper()
	var r pairResult
	// Twice jobTimeout: after `scontrol reconfigure` 24.11's new slurmctld
	// was seen to take up to 40 s before it scheduled again.
	deadline := time.Now().Add(2 * jobTimeout)
	for {
		h, l := cl.job(t, id), cl.job(t, low.id)
		r.high, r.low = pairJob{id, h}, pairJob{low.id, l}
		preempted := l["JobState"] != "RUNNING" || hasTime(l["PreemptTime"])
		if h["JobState"] == "RUNNING" || finished(h["JobState"]) {
			break
		}
		if preempted {
			// Chosen: wait for the high job to start (grace time, or
			// the next scheduling pass after a requeue), within the
			// decision's deadline but at least jobTimeout: under the
			// suite's load a preempted job was seen COMPLETING for more
			// than 45 s (24.11, make test at -parallel 8).
			cl.waitJobUntil(t, id, "RUNNING", later(deadline, time.Now().Add(jobTimeout)), func(f localslurm.Fields) bool { return f["JobState"] != "PENDING" })
			continue
		}
		evaluated := jobTime(h["LastSchedEval"]).After(mark.at.Truncate(time.Second))
		n := cl.schedCycles(t)
		if n < mark.cycles {
			mark.cycles = n // a new slurmctld process (reconfigure from 23.11) counts from 0
		}
		if (h["Reason"] == "Resources" || h["Reason"] == "Priority") && evaluated && n > mark.cycles+1 {
			break
		}
		if time.Now().After(deadline) {
			node, _ := cl.output("scontrol", "show", "node", "-o")
			t.Fatalf("high job %s: no decision after %v: JobState=%s Reason=%s LastSchedEval=%s (since %s); low job %s JobState=%s; main scheduler passes %d since %d\nnodes:\n%s",
				id, 2*jobTimeout, h["JobState"], h["Reason"], h["LastSchedEval"], mark.at.Format(time.TimeOnly), low.id, l["JobState"], n, mark.cycles, node)
		}
		time.Sleep(200 * time.Millisecond)
	}
	r.low.fields = cl.waitJob(t, low.id, "settled", func(f localslurm.Fields) bool { return f["JobState"] != "COMPLETING" })
	l := r.low.fields
	switch {
	case l["JobState"] == "RUNNING":
		r.outcome = outNone
	case l["JobState"] == "SUSPENDED":
		r.outcome = outSuspended
	case l["JobState"] == "PREEMPTED" || l["JobState"] == "CANCELLED":
		r.outcome = outCancelled
	case (l["JobState"] == "PENDING" || l["JobState"] == "REQUEUED") && l["Restarts"] != "0":
		r.outcome = outRequeued
	default:
		r.outcome = "JobState=" + l["JobState"] + " Reason=" + l["Reason"]
	}
	if r.outcome != outNone && r.high.fields["JobState"] != "RUNNING" {
		r.outcome += ", but the high job " + r.high.fields["JobState"]
	}
	r.lowStart = jobTime(r.low.fields["StartTime"])
	if r.outcome == outRequeued {
		r.lowStart = time.Time{} // StartTime is the next start's estimate
	}
	r.lowPreempted = jobTime(r.low.fields["PreemptTime"])
	r.highStart = jobTime(r.high.fields["StartTime"])
	return r
}

// cancelAll cancels every job and waits until none is left running.
func (cl *cluster) cancelAll(t *testing.T, ids ...string) {
	t.Helper()
	cl.run(t, "scancel", append([]string{"-f"}, ids...)...)
	for _, id := range ids {
		cl.waitJob(t, id, "finished", func(f localslurm.Fields) bool { return finished(f["JobState"]) || f["JobState"] == "PREEMPTED" })
	}
	cl.waitIdle(t)
}

// waitIdle waits until no job holds the node (COMPLETING ends).
func (cl *cluster) waitIdle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(jobTimeout)
	for {
		out := strings.TrimSpace(cl.run(t, "squeue", "-h", "-t", "R,CG,S", "-o", "%i %T"))
		if out == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs still hold the node after %v:\n%s", jobTimeout, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var totalCycles = regexp.MustCompile(`(?s)Main schedule statistics.*?Total cycles:\s*(\d+)`)

// schedCycles is the number of passes of slurmctld's main scheduler so
// far (sdiag).
func (cl *cluster) schedCycles(t *testing.T) int {
	t.Helper()
	m := totalCycles.FindStringSubmatch(cl.run(t, "sdiag"))
	if m == nil {
		t.Fatal("sdiag shows no main scheduler's total cycles")
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// hasTime reports whether a job record's time field holds a time.
func hasTime(v string) bool { return !jobTime(v).IsZero() }

// jobTime parses a job record's time (2026-12-04T18:00:00), zero for
// None, Unknown or empty.
func jobTime(v string) time.Time {
	tm, err := time.ParseInLocation("2006-01-02T15:04:05", v, time.Local)
	if err != nil {
		return time.Time{}
	}
	return tm
}

// sacctmgr runs sacctmgr -i in the cluster.
func (cl *cluster) sacctmgr(t *testing.T, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	out, err := cl.Command(ctx, "sacctmgr", append([]string{"-i"}, args...)...).CombinedOutput()
	if err != nil && !strings.Contains(string(out), "Nothing new added") && !strings.Contains(string(out), "already exists") {
		t.Fatalf("sacctmgr %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// sacctmgrRefused runs sacctmgr -i, which must fail with want in its
// output.
func (cl *cluster) sacctmgrRefused(t *testing.T, want string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	out, err := cl.Command(ctx, "sacctmgr", append([]string{"-i"}, args...)...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), want) {
		t.Errorf("sacctmgr %s: %v %q, want it refused with %q", strings.Join(args, " "), err, out, want)
	}
	t.Logf("sacctmgr %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
}

// later returns the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
