package realslurm

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// claim is a lint finding a preemption case must get: its rule and
// severity. The case's outcome is what the finding says happens.
type claim struct {
	rule     string
	severity diag.Severity
}

// preemptCase is one claim about preemption, checked with a pair of jobs:
// a low job in partition low that fills the node, then a high job in
// partition high that needs it.
type preemptCase struct {
	name   string
	config string // slurmSpec.config, YAML
	// low and high are the partitions' config, YAML flow maps.
	low, high string
	// highPools are the high partition's nodePoolIds ("" is [cpu]); a
	// second pool cpu2 of one node is there to name.
	highPools string
	// claims are the findings lint must report for the release; every
	// other preemption finding is absent. The spec is rendered with their
	// rules disabled.
	claims map[string][]claim
	// want is the low job's outcome (outNone, outCancelled, ...), per
	// release when wantBy names it.
	want   string
	wantBy map[string]string
	// qos runs the jobs under QOS low and high (preempt/qos); setQOS are
	// sacctmgr "modify qos" arguments applied first.
	qos    bool
	setQOS [][]string
	// refusedQOS, when set, is the error sacctmgr must give for the last
	// of setQOS; the case then ends there.
	refusedQOS string
	// lowScript is the low job's script; "" is sleep 300.
	lowScript string
	// check tests more of the result (times).
	check func(t *testing.T, r pairResult)
	// only lists the releases the case applies to; empty means all.
	only []string
	// after runs once the high job was decided on, before the jobs are
	// cancelled (PreemptExemptTime: the low job is preempted later).
	after func(t *testing.T, cl *cluster, r pairResult)
}

const (
	prioRequeue = "PreemptType: preempt/partition_prio\nPreemptMode: REQUEUE"
	tierLow     = `{PriorityTier: "1"}`
	tierHigh    = `{PriorityTier: "10"}`
	qosRequeue  = "PreemptType: preempt/qos\nPreemptMode: REQUEUE"
)

// preemptRules are the rules whose findings the cases account for.
var preemptRules = []string{
	"preempt-mode-combination", "preempt-suspend-needs-gang", "preempt-mode-without-type", "preempt-type-needs-mode",
	"partition-preempt-gang", "preemption-never-fires", "preempt-priority-basic", "partition-preempt-mode-ignored",
	"preempt-exempt-time", "preempt-requeue-disabled", "preempt-suspend-memory", "qos-preempt-cycle",
}

// allReleases gives one claim on every release.
func allReleases(c ...claim) map[string][]claim {
	m := map[string][]claim{}
	for _, r := range localslurm.Releases() {
		m[r] = c
	}
	return m
}

var preemptCases = []preemptCase{
	{name: "CANCEL", config: "PreemptType: preempt/partition_prio\nPreemptMode: CANCEL", low: tierLow, high: tierHigh, want: outCancelled,
		check: func(t *testing.T, r pairResult) {
			if d := r.highStart.Sub(r.lowPreempted); d > 2*time.Second {
				t.Errorf("without GraceTime the high job started %v after the low job was preempted, want at once", d)
			}
		}},
	{name: "REQUEUE", config: prioRequeue, low: tierLow, high: tierHigh, want: outRequeued},
	{name: "SUSPEND GANG", config: "PreemptType: preempt/partition_prio\nPreemptMode: \"SUSPEND,GANG\"", low: tierLow, high: tierHigh, want: outSuspended},
	{name: "partition CANCEL under global REQUEUE", config: prioRequeue, low: `{PriorityTier: "1", PreemptMode: CANCEL}`, high: tierHigh, want: outCancelled},
	{name: "partition OFF", config: prioRequeue, low: `{PriorityTier: "1", PreemptMode: "OFF"}`, high: tierHigh, want: outNone,
		claims: allReleases(claim{"preemption-never-fires", diag.Warning})},
	{name: "equal tiers", config: prioRequeue, low: `{PriorityTier: "5"}`, high: `{PriorityTier: "5"}`, want: outNone,
		claims: allReleases(claim{"preemption-never-fires", diag.Warning})},
	{name: "Priority alias sets the tier", config: prioRequeue, low: `{Priority: "1"}`, high: `{Priority: "10"}`, want: outRequeued},
	{name: "preempt/none with tiers", config: "PreemptType: preempt/none", low: `{PriorityTier: "1", PreemptMode: REQUEUE}`, high: tierHigh, want: outNone,
		claims: allReleases(claim{"partition-preempt-mode-ignored", diag.Warning})},
	{name: "PreemptType unset with tiers", low: tierLow, high: tierHigh, want: outNone},
	{name: "partition GANG only", config: "PreemptType: preempt/partition_prio\nPreemptMode: \"REQUEUE,GANG\"", low: `{PriorityTier: "1", PreemptMode: GANG}`, high: tierHigh,
		want: outNone, wantBy: map[string]string{"22.05": outSuspended},
		claims: map[string][]claim{
			"22.05": {{"partition-preempt-gang", diag.Warning}},
			"24.11": {{"partition-preempt-gang", diag.Error}, {"preemption-never-fires", diag.Warning}},
			"26.05": {{"partition-preempt-gang", diag.Error}, {"preemption-never-fires", diag.Warning}},
		}},
	{name: "partition WITHIN only", config: prioRequeue, low: `{PriorityTier: "1", PreemptMode: WITHIN}`, high: tierHigh, want: outNone,
		claims: allReleases(claim{"preemption-never-fires", diag.Warning})},
	{name: "partition GANG with a mode", config: "PreemptType: preempt/partition_prio\nPreemptMode: \"REQUEUE,GANG\"", low: `{PriorityTier: "1", PreemptMode: "CANCEL,GANG"}`, high: tierHigh,
		want: outCancelled,
		claims: map[string][]claim{
			"22.05": {{"partition-preempt-gang", diag.Warning}},
			"24.11": {{"partition-preempt-gang", diag.Error}},
			"26.05": {{"partition-preempt-gang", diag.Error}},
		}},
	{name: "GraceTime", config: "PreemptType: preempt/partition_prio\nPreemptMode: CANCEL\nKillWait: \"2\"", low: `{PriorityTier: "1", GraceTime: "5"}`, high: tierHigh, want: outCancelled,
		lowScript: graceScript,
		check: func(t *testing.T, r pairResult) {
			if d := r.highStart.Sub(r.lowPreempted); d < 4*time.Second {
				t.Errorf("with GraceTime=5 the high job started %v after the low job was preempted (%s), want about 5 s later", d, r.lowPreempted)
			}
		}},
	{name: "PreemptExemptTime", config: prioRequeue + "\nPreemptExemptTime: \"00:00:10\"", low: tierLow, high: tierHigh, want: outNone,
		after: func(t *testing.T, cl *cluster, r pairResult) {
			start := jobTime(r.low.fields["StartTime"])
			if e := jobTime(r.low.fields["PreemptEligibleTime"]); e.Sub(start) != 10*time.Second {
				t.Errorf("low job: StartTime=%s PreemptEligibleTime=%s, want 10 s later", r.low.fields["StartTime"], r.low.fields["PreemptEligibleTime"])
			}
			f := cl.waitJob(t, r.low.id, "preempted", func(f localslurm.Fields) bool { return f["JobState"] != "RUNNING" })
			h := cl.waitJob(t, r.high.id, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] != "PENDING" })
			at := jobTime(h["StartTime"])
			t.Logf("low job %s started %s, then %s (Restarts=%s); high job started %s", r.low.id, start.Format(time.TimeOnly), f["JobState"], f["Restarts"], at.Format(time.TimeOnly))
			if at.Sub(start) < 10*time.Second {
				t.Errorf("the high job started %v after the low job, before PreemptExemptTime=00:00:10", at.Sub(start))
			}
		}},
	{name: "JobRequeue 0", config: prioRequeue + "\nJobRequeue: \"0\"", low: tierLow, high: tierHigh, want: outCancelled,
		claims: allReleases(claim{"preempt-requeue-disabled", diag.Warning})},
	{name: "PRIORITY under priority/basic", config: "PriorityType: priority/basic\nPreemptType: preempt/qos\nPreemptMode: \"REQUEUE,PRIORITY\"",
		low: tierLow, high: tierLow, qos: true, want: outNone, only: []string{"26.05"},
		setQOS: [][]string{{"high", "set", "Preempt=low"}, {"low", "set", "PreemptMode=cluster"}},
		claims: map[string][]claim{"26.05": {{"preempt-priority-basic", diag.Warning}}}},
	{name: "QOS under priority/basic", config: "PriorityType: priority/basic\n" + qosRequeue,
		low: tierLow, high: tierLow, qos: true, want: outRequeued,
		setQOS: [][]string{{"high", "set", "Preempt=low"}, {"low", "set", "PreemptMode=cluster"}}},
	// qos-preempt-cycle: sacctmgr refuses the loop, whatever the
	// PreemptType (no jobs run).
	{name: "QOS preempting each other", config: prioRequeue, low: tierLow, high: tierHigh, qos: true,
		setQOS:     [][]string{{"high", "set", "Preempt=low"}, {"low", "set", "PreemptMode=cluster", "Preempt=high"}},
		refusedQOS: "QOS Preemption loop detected"},
	{name: "QOS REQUEUE", config: qosRequeue, low: tierLow, high: tierLow, qos: true, want: outRequeued,
		setQOS: [][]string{{"high", "set", "Preempt=low"}, {"low", "set", "PreemptMode=cluster"}}},
	{name: "QOS CANCEL", config: qosRequeue, low: tierLow, high: tierLow, qos: true, want: outCancelled,
		setQOS: [][]string{{"high", "set", "Preempt=low"}, {"low", "set", "PreemptMode=cancel"}}},
	{name: "QOS ignores the partition mode", config: qosRequeue, low: `{PreemptMode: CANCEL}`, high: tierLow, qos: true, want: outRequeued,
		setQOS: [][]string{{"high", "set", "Preempt=low"}, {"low", "set", "PreemptMode=cluster"}},
		claims: allReleases(claim{"partition-preempt-mode-ignored", diag.Warning})},
	{name: "QOS without a preempt list", config: qosRequeue, low: tierLow, high: tierHigh, qos: true, want: outNone,
		setQOS: [][]string{{"high", "set", "Preempt="}, {"low", "set", "PreemptMode=cluster"}}},
}

// preemptSched makes slurmctld's main scheduler pass every 2 seconds
// instead of 60, so that a pending job starts soon after the job it
// preempted ended: a time scale only, preemption is decided the same way.
const preemptSched = `SchedulerParameters: "sched_interval=2"`

// preemptSpec is truthSpec's cluster with partitions low and high over the
// cpu pool's node, and preemptSched.
func preemptSpec(c preemptCase) spec {
	low, high := c.low, c.high
	if low == "" {
		low = "{}"
	}
	if high == "" {
		high = "{}"
	}
	config := preemptSched
	if c.config != "" {
		config = c.config + "\n" + preemptSched
	}
	highPools, pools := "[cpu]", ""
	if c.highPools != "" {
		highPools = c.highPools
		pools = "- {id: cpu2, machineSpec: {machineType: n2-standard-8}, scalingSpec: {minNodeCount: 1, maxNodeCount: 1}, zone: us-central1-a}"
	}
	s := truthSpec(truthCase{name: "preempt " + c.name, config: config, pools: pools,
		partitions: "- {id: low, nodePoolIds: [cpu], config: " + low + "}\n- {id: high, nodePoolIds: " + highPools + ", config: " + high + "}"})
	return s
}

// TestPreemptionWithJobs checks every claim slurmspec's lint makes about
// preemption with a pair of real jobs on every release (issue 26 §4): the
// findings the case's spec gets, then what becomes of a low job filling
// the node when a high job that needs it is submitted. One cluster per
// release runs every case, restarting slurmctld on each case's slurm.conf
// (slurmdbd, which holds the QOS, keeps running).
func TestPreemptionWithJobs(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			base := compileSpecVersion(t, preemptSpec(preemptCase{name: "base", config: prioRequeue, low: tierLow, high: tierHigh}), release)
			if base.cluster == nil || base.diags.HasErrors() {
				t.Fatalf("the base spec must lint without errors:\n%s", errorsText(base.diags))
			}
			baseDir, _ := renderSpecVersion(t, base, release)
			node := jobNode(t, base.cluster)
			cl := start(t, baseDir, localslurm.Options{Release: release, Accounting: true, StandIns: []string{node}})
			for _, c := range preemptCases {
				if len(c.only) > 0 && !slices.Contains(c.only, release) {
					continue
				}
				t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) { preemptCaseOn(t, cl, node, release, c) })
			}
			t.Run("stop leaves no process", cl.stopAndCheck)
		})
	}
}

// preemptCaseOn checks one case on the release's cluster: the lint claims,
// then the pair of jobs on the case's slurm.conf.
func preemptCaseOn(t *testing.T, cl *cluster, node, release string, c preemptCase) {
	s := preemptSpec(c)
	all := compileSpecVersion(t, s, release)
	claims := c.claims[release]
	var disabled []string
	for _, w := range claims {
		if !hasFinding(all.diags, w.rule, w.severity) {
			t.Errorf("lint: want a %s from %s, got:\n%s", w.severity, w.rule, allText(all.diags))
		}
		disabled = append(disabled, w.rule)
	}
	for _, d := range all.diags {
		if slices.Contains(preemptRules, d.Rule) && !slices.Contains(disabled, d.Rule) {
			t.Errorf("lint: unexpected %s", d)
		}
	}
	sp := compileSpecVersion(t, s, release, disabled...)
	if sp.cluster == nil || sp.diags.HasErrors() {
		t.Fatalf("spec must lint without errors (%v disabled):\n%s", disabled, errorsText(sp.diags))
	}
	dir, _ := renderSpecVersion(t, sp, release)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := cl.RestartController(ctx, dir); err != nil {
		t.Fatalf("restart slurmctld on the case's slurm.conf: %v", err)
	}
	var lowArgs, highArgs []string
	if c.qos {
		cl.sacctmgr(t, "add", "qos", "low")
		cl.sacctmgr(t, "add", "qos", "high")
		cl.sacctmgr(t, "modify", "user", "root", "set", "qos=normal,low,high")
		for i, a := range c.setQOS {
			args := append([]string{"modify", "qos", a[0]}, a[1:]...)
			if c.refusedQOS != "" && i == len(c.setQOS)-1 {
				cl.sacctmgrRefused(t, c.refusedQOS, args...)
				return
			}
			cl.sacctmgr(t, args...)
		}
		lowArgs, highArgs = []string{"--qos=low"}, []string{"--qos=high"}
	}
	low := cl.submitLow(t, node, "low", c.lowScript, lowArgs...)
	r := cl.submitHigh(t, node, "high", low, highArgs...)
	want := c.want
	if w, ok := c.wantBy[release]; ok {
		want = w
	}
	t.Logf("%s: low job %s %s (JobState=%s Reason=%s Restarts=%s PreemptTime=%s); high job %s JobState=%s Reason=%s",
		release, r.low.id, r.outcome, r.low.fields["JobState"], r.low.fields["Reason"], r.low.fields["Restarts"], r.low.fields["PreemptTime"],
		r.high.id, r.high.fields["JobState"], r.high.fields["Reason"])
	if r.outcome != want {
		t.Errorf("low job: %s, want %s", r.outcome, want)
	} else if c.check != nil {
		c.check(t, r)
	}
	if c.after != nil {
		c.after(t, cl, r)
	}
	cl.cancelAll(t, r.low.id, r.high.id)
}
