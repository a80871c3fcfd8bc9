package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/render/jobshapes"
)

// job is one shape of the job mix and the submission that makes it.
type job struct {
	shape jobshapes.Shape
	spec  slurmapi.JobSpec
}

// jobs returns the spec's job mix as Slurm REST submissions, in order: the
// shapes of jobshapes.Derive, the ones lab/jobmix runs on a local Slurm to
// check lint, each with its options as the v0.0.42 job description's
// fields. Where a partition spans several pools, a job excludes the
// partition's nodes of the other pools (-x), so that it runs on a node of
// its own pool, whichever is free.
func jobs(c *ir.Cluster, e *expected) []job {
	byName := map[string]*partition{}
	for _, p := range e.partitions {
		byName[p.name] = p
	}
	var out []job
	for _, s := range jobshapes.Derive(c) {
		var others []string
		if p := byName[s.Partition]; p != nil {
			for _, name := range p.nodes {
				if n := e.nodes[name]; n == nil || n.pool == nil || n.pool.ID.Value != s.Pool {
					others = append(others, name)
				}
			}
		}
		out = append(out, job{shape: s, spec: submission(s, others)})
	}
	return out
}

// submission is the job description of a shape: each sbatch option of
// jobshapes.Job as the field sbatch fills, the nodes it may not use, and
// the script true.
func submission(s jobshapes.Shape, exclude []string) slurmapi.JobSpec {
	j := s.Job
	spec := slurmapi.JobSpec{
		Name: "slurmspec-verify", Partition: s.Partition, Script: "#!/bin/sh\ntrue\n",
		Tasks: int(j.Tasks), Nodes: int(j.Nodes), GPUs: int(j.GPUs), Exclusive: j.Exclusive,
		MemoryPerNode: j.Mem, MemoryPerGPU: j.MemPerGPU, Account: j.Account, QOS: j.QOS,
	}
	if j.HasTime {
		spec.TimeLimit = slurmapi.Number{Set: true, Number: j.Time}
	}
	if len(exclude) > 0 {
		// Compressed: a pool of many nodes is one range.
		items, err := hostlist.Split(hostlist.Compress(exclude))
		if err != nil {
			items = exclude
		}
		spec.ExcludedNodes = items
	}
	return spec
}

// Outcome is what became of a job.
type Outcome int

// Outcomes.
const (
	// Runs: the job started (RUNNING, CONFIGURING while nodes boot, or
	// already COMPLETED).
	Runs Outcome = iota
	// Refused: Slurm refused the job at submission.
	Refused
	// PendingConfig: the job pends for a reason only configuration ends.
	PendingConfig
	// Waiting: the job still pended for resources or priority when the
	// wait ended; no verdict.
	Waiting
	// Failed: the job ended without running its script (FAILED, NODE_FAIL,
	// BOOT_FAIL, ...).
	Failed
)

var outcomeNames = [...]string{"runs", "refused at submission", "pending for configuration", "still waiting", "failed"}

func (o Outcome) String() string { return outcomeNames[o] }

// Verdict is one shape's result.
type Verdict struct {
	Partition string
	// Shape is the job's shape; its id (partition/pool/kind[+sized]) is
	// the one lab/jobmix gives it.
	Shape   jobshapes.Shape
	Outcome Outcome
	JobID   int64
	// Detail is Slurm's reason: the refusal, the pending reason, the state.
	Detail string
	// Waited is, for a job still waiting, why: "reason R" (Slurm's
	// pending reason) or, where Slurm gives none, "state S".
	Waited string
}

// configReasons are pending reasons that only a change of configuration
// or accounting ends (Slurm's job_reason strings).
var configReasons = []string{
	"PartitionConfig", "PartitionNodeLimit", "PartitionTimeLimit", "PartitionDown", "PartitionInactive",
	"ReqNodeNotAvail", "BadConstraints", "InvalidAccount", "InvalidQOS", "AccountNotAllowed", "QOSNotAllowed",
	"JobHeldAdmin", "AssocMaxJobsLimit", "AssocMaxNodesPerJobLimit", "AssocMaxWallDurationPerJobLimit",
	"QOSMaxNodePerJobLimit", "QOSMaxWallDurationPerJobLimit", "QOSMaxGRESPerJob", "QOSMaxCpuPerJobLimit",
	"QOSMaxMemoryPerJob", "QOSMinGRES", "AssocGrpNodeLimit", "AssocGrpGRES", "QOSGrpNodeLimit", "QOSGrpGRES",
}

// runShape submits one job, waits until it runs, is refused, pends for a
// configuration reason or the wait ends, and cancels it.
func runShape(ctx context.Context, api *slurmapi.Client, j job, wait, poll time.Duration) (Verdict, error) {
	v := Verdict{Partition: j.shape.Partition, Shape: j.shape}
	id, err := api.Submit(ctx, j.spec)
	var se *slurmapi.Error
	if errors.As(err, &se) && se.SlurmStatus != 0 {
		v.Outcome, v.Detail = Refused, se.Slurm
		return v, nil
	}
	if err != nil {
		return v, err
	}
	v.JobID = id
	defer func() {
		// Cancel whatever state the job is in; a finished job cannot be
		// cancelled, which is no error here. A fresh context: the caller's
		// may be over (an interrupt), and the job must not stay.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = api.Cancel(cctx, id)
	}()
	deadline := time.Now().Add(wait)
	for {
		j, err := api.Job(ctx, id)
		if err != nil {
			return v, err
		}
		// The list holds the base state and its flags: a failed job
		// whose nodes still clean up is ["NODE_FAIL","COMPLETING"], so a
		// failure is looked for before the flags of a started job.
		switch {
		case hasAny(j.State, "FAILED", "NODE_FAIL", "BOOT_FAIL", "OUT_OF_MEMORY", "DEADLINE", "TIMEOUT", "CANCELLED", "PREEMPTED"):
			v.Outcome, v.Detail = Failed, fmt.Sprintf("%v (reason %s)", j.State, j.Reason)
			return v, nil
		case hasAny(j.State, "RUNNING", "CONFIGURING", "COMPLETED", "COMPLETING"):
			v.Outcome, v.Detail = Runs, j.State[0]
			return v, nil
		case hasAny(j.State, "PENDING") && slices.Contains(configReasons, j.Reason):
			v.Outcome, v.Detail = PendingConfig, j.Reason
			return v, nil
		}
		if time.Now().After(deadline) {
			v.Outcome, v.Detail = Waiting, fmt.Sprintf("%v (reason %s) after %s", j.State, j.Reason, wait)
			v.Waited = "reason " + j.Reason
			if j.Reason == "" || j.Reason == "None" {
				v.Waited = fmt.Sprintf("state %v", j.State)
			}
			return v, nil
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(poll):
		}
	}
}

func hasAny(states []string, want ...string) bool {
	for _, s := range states {
		if slices.Contains(want, s) {
			return true
		}
	}
	return false
}

// jobFinding is the finding of a verdict that is one, else ok is false.
func jobFinding(c *ir.Cluster, p *partition, v Verdict) (diag.Diagnostic, bool) {
	switch v.Outcome {
	case Refused:
		return finding(c, p, "", online.VerifyJobRefused, diag.Error,
			fmt.Sprintf("partition %s refuses a job of shape %s at submission: %s", p.name, v.Shape.String(), v.Detail),
			"`slurmspec lint` may say why (memory defaults, limits); else check the partition's settings and the user's association"), true
	case PendingConfig, Failed:
		what := "pends with reason " + v.Detail
		if v.Outcome == Failed {
			what = "ended without running: " + v.Detail
		}
		return finding(c, p, "", online.VerifyJobPending, diag.Error,
			fmt.Sprintf("in partition %s a job of shape %s %s (job %d)", p.name, v.Shape.String(), what, v.JobID),
			"the partition's limits, state or the user's association keep it from running; `scontrol show job` on the cluster says more"), true
	}
	return diag.Diagnostic{}, false
}

// noVerdict is the finding of a partition's job shapes without a verdict,
// grouped by why their jobs still waited; ok is false when every shape of
// the partition has one. Nothing shows that such a shape runs: the
// finding is an error unless opt.AllowPending accepts it.
func noVerdict(c *ir.Cluster, p *partition, verdicts []Verdict, opt Options) (diag.Diagnostic, bool) {
	var (
		total, waiting int
		reasons        []string
		shapes         = map[string][]string{}
	)
	for _, v := range verdicts {
		if v.Partition != p.name {
			continue
		}
		total++
		if v.Outcome != Waiting {
			continue
		}
		waiting++
		if _, ok := shapes[v.Waited]; !ok {
			reasons = append(reasons, v.Waited)
		}
		shapes[v.Waited] = append(shapes[v.Waited], v.Shape.ID())
	}
	if waiting == 0 {
		return diag.Diagnostic{}, false
	}
	var groups []string
	for _, r := range reasons {
		groups = append(groups, fmt.Sprintf("with %s: %s", r, strings.Join(shapes[r], ", ")))
	}
	sev, hint := diag.Error, "nothing shows that these shapes run: the nodes are busy, still powering up, or never come up "+
		"(`sinfo -R` and `scontrol show node` on the cluster say which); verify again with a longer --wait, "+
		"or accept shapes without a verdict with --allow-pending (deploy up: --verify-wait, --verify-allow-pending)"
	if opt.AllowPending {
		sev, hint = diag.Warning, "accepted by --allow-pending: nothing shows that these shapes run; verify again with a longer --wait to know"
	}
	return finding(c, p, "", online.VerifyJobNoVerdict, sev,
		fmt.Sprintf("in partition %s %d of %d job shapes have no verdict: their jobs still pended when the wait of %s ended, %s",
			p.name, waiting, total, opt.Wait, strings.Join(groups, "; ")),
		hint), true
}
