package realslurm

import (
	"context"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/diff"
)

// preemptChange is a change of a preemption setting, checked with jobs:
// what `slurmspec diff` says the change does to running jobs, and what
// applying it (`scontrol reconfigure` on the new slurm.conf) does to a low
// job that runs on the node while a high job waits for it.
type preemptChange struct {
	name     string
	old, new preemptCase
	// hurts is whether diff must say the change may hurt running jobs;
	// subject names the change ("partition high PriorityTier").
	hurts   bool
	subject string
	// want is the low job's outcome once the change is applied, per
	// release when wantBy names it.
	want   string
	wantBy map[string]string
	// submitAfter submits the high job only once the change is applied
	// (before it, the high partition does not hold the node).
	submitAfter bool
}

var preemptChanges = []preemptChange{
	{name: "tier raised", subject: "partition high PriorityTier", hurts: true, want: outRequeued,
		old: preemptCase{config: prioRequeue, low: `{PriorityTier: "5"}`, high: `{PriorityTier: "5"}`},
		new: preemptCase{config: prioRequeue, low: `{PriorityTier: "5"}`, high: `{PriorityTier: "10"}`}},
	{name: "partition mode OFF to REQUEUE", subject: "partition low PreemptMode", hurts: true, want: outRequeued,
		old: preemptCase{config: prioRequeue, low: `{PriorityTier: "1", PreemptMode: "OFF"}`, high: tierHigh},
		new: preemptCase{config: prioRequeue, low: `{PriorityTier: "1", PreemptMode: REQUEUE}`, high: tierHigh}},
	{name: "PreemptType set", subject: "slurm.conf PreemptType", hurts: true, want: outRequeued,
		old: preemptCase{low: tierLow, high: tierHigh},
		new: preemptCase{config: prioRequeue, low: tierLow, high: tierHigh}},
	// Finding: diff said nothing about running jobs; a job that has run
	// longer than the new time is preempted at once.
	{name: "PreemptExemptTime shortened", subject: "slurm.conf PreemptExemptTime", hurts: true, want: outRequeued,
		old: preemptCase{config: prioRequeue + "\nPreemptExemptTime: \"01:00:00\"", low: tierLow, high: tierHigh},
		new: preemptCase{config: prioRequeue + "\nPreemptExemptTime: \"00:00:01\"", low: tierLow, high: tierHigh}},
	// Finding: diff said nothing about running jobs; the low job on the
	// node the high partition now holds is preempted.
	{name: "high partition extended", subject: "partition high Nodes", hurts: true, want: outRequeued, submitAfter: true,
		old: preemptCase{config: prioRequeue, low: tierLow, high: tierHigh, highPools: "[cpu2]"},
		new: preemptCase{config: prioRequeue, low: tierLow, high: tierHigh, highPools: "[cpu2, cpu]"}},
	// Finding: diff said this change may preempt running jobs; nothing
	// is preempted.
	{name: "tier raised without PreemptType", subject: "partition high PriorityTier", hurts: false, want: outNone,
		old: preemptCase{low: `{PriorityTier: "5"}`, high: `{PriorityTier: "5"}`},
		new: preemptCase{low: `{PriorityTier: "5"}`, high: `{PriorityTier: "10"}`}},
}

// TestPreemptionDiffWithJobs checks with jobs, on every release, what
// `slurmspec diff` says a change of a preemption setting does to running
// jobs (issue 26 §4): under the old configuration a low job runs and a high
// job waits for its node; the new configuration is applied with `scontrol
// reconfigure` (diff classifies each of these changes so); then the low
// job is preempted when diff says the change may preempt running jobs, and
// runs on when it says nothing.
func TestPreemptionDiffWithJobs(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			base := compileSpecVersion(t, preemptSpec(preemptCase{name: "base", config: prioRequeue, low: tierLow, high: tierHigh}), release)
			baseDir, _ := renderSpecVersion(t, base, release)
			node := jobNode(t, base.cluster)
			cl := start(t, baseDir, localslurm.Options{Release: release, Accounting: true, StandIns: []string{node}})
			for _, ch := range preemptChanges {
				t.Run(strings.ReplaceAll(ch.name, " ", "_"), func(t *testing.T) {
					ch.old.name, ch.new.name = ch.name+" old", ch.name+" new"
					build := func(c preemptCase) (string, compiledSet) {
						sp := compileSpecVersion(t, preemptSpec(c), release)
						if sp.cluster == nil || sp.diags.HasErrors() {
							t.Fatalf("%s must lint without errors:\n%s", c.name, errorsText(sp.diags))
						}
						dir, set := renderSpecVersion(t, sp, release)
						return dir, compiledSet{sp, set}
					}
					oldDir, old := build(ch.old)
					newDir, new := build(ch.new)
					rep, err := diff.CompareWith(old.set, new.set, diff.Options{SlurmVersion: release})
					if err != nil {
						t.Fatal(err)
					}
					var found *diff.Change
					for i, c := range rep.Changes {
						t.Logf("diff: %s [%s] %s", c, c.Impact, c.HurtsJobs)
						if c.Subject() == ch.subject {
							found = &rep.Changes[i]
						}
					}
					switch {
					case found == nil:
						t.Fatalf("diff has no change of %s", ch.subject)
					case found.Impact != diff.Reconfigure:
						t.Errorf("diff: %s is %s, want reconfigure (the harness applies it so)", ch.subject, found.Impact)
					case (found.HurtsJobs != "") != ch.hurts:
						t.Errorf("diff: %s hurts jobs %q, want hurting %v", ch.subject, found.HurtsJobs, ch.hurts)
					}

					ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
					defer cancel()
					if err := cl.RestartController(ctx, oldDir); err != nil {
						t.Fatalf("restart slurmctld on the old slurm.conf: %v", err)
					}
					low := cl.submitLow(t, node, "low", "")
					var r pairResult
					if !ch.submitAfter {
						r = cl.submitHigh(t, node, "high", low)
						if r.outcome != outNone {
							t.Fatalf("before the change: low job %s, want not preempted", r.outcome)
						}
					}
					if err := cl.Reconfigure(ctx, newDir); err != nil {
						t.Fatalf("apply the new slurm.conf: %v", err)
					}
					var after pairResult
					if ch.submitAfter {
						after = cl.submitHigh(t, node, "high", low)
					} else {
						after = cl.decide(t, r.high.id, low, cl.mark(t))
					}
					want := ch.want
					if w, ok := ch.wantBy[release]; ok {
						want = w
					}
					t.Logf("%s: after the change the low job %s is %s (JobState=%s Restarts=%s); high job %s",
						release, low.id, after.outcome, after.low.fields["JobState"], after.low.fields["Restarts"], after.high.fields["JobState"])
					if after.outcome != want {
						t.Errorf("after the change: low job %s, want %s", after.outcome, want)
					}
					cl.cancelAll(t, low.id, after.high.id)
				})
			}
			t.Run("stop leaves no process", cl.stopAndCheck)
		})
	}
}

// compiledSet is a compiled spec and its rendered set.
type compiledSet struct {
	compiled
	set render.Set
}
