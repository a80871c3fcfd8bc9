package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lint/online"
)

// Shape is one job of the mix.
type Shape struct {
	// Name says what the job asks for, such as "every GPU of one node".
	Name string
	Job  slurmapi.JobSpec
}

// shapes returns the job mix of a partition whose largest node is n: one
// task; one GPU, every GPU of one node (GPU nodes); a whole node; two
// nodes where the partition has two. Each job keeps the partition's
// defaults (no --mem, no --time). This is the short mix a live cluster
// can afford; the full mix of issue 26 (explicit sizes, MaxTime, the
// verdicts' classification against a local Slurm) lives in lab/jobmix.
func shapes(partition string, n *node, nodes int) []Shape {
	base := slurmapi.JobSpec{Partition: partition, Script: "#!/bin/sh\ntrue\n"}
	with := func(name string, f func(*slurmapi.JobSpec)) Shape {
		j := base
		j.Name = "slurmspec-verify"
		f(&j)
		return Shape{Name: name, Job: j}
	}
	out := []Shape{with("one task", func(j *slurmapi.JobSpec) { j.Tasks = 1 })}
	if n != nil && n.gpus > 0 {
		out = append(out,
			with("one GPU", func(j *slurmapi.JobSpec) { j.Tasks, j.GPUs = 1, 1 }),
			with(fmt.Sprintf("every GPU of one node (%d)", n.gpus), func(j *slurmapi.JobSpec) { j.Nodes, j.GPUsPerNode = 1, int(n.gpus) }))
	}
	out = append(out, with("a whole node", func(j *slurmapi.JobSpec) { j.Nodes, j.Exclusive = 1, true }))
	if nodes >= 2 {
		out = append(out, with("two nodes", func(j *slurmapi.JobSpec) { j.Nodes, j.Tasks = 2, 2 }))
	}
	return out
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
	Shape     string
	Outcome   Outcome
	JobID     int64
	// Detail is Slurm's reason: the refusal, the pending reason, the state.
	Detail string
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
func runShape(ctx context.Context, api *slurmapi.Client, partition string, s Shape, wait, poll time.Duration) (Verdict, error) {
	v := Verdict{Partition: partition, Shape: s.Name}
	id, err := api.Submit(ctx, s.Job)
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
		switch {
		case hasAny(j.State, "RUNNING", "CONFIGURING", "COMPLETED", "COMPLETING"):
			v.Outcome, v.Detail = Runs, j.State[0]
			return v, nil
		case hasAny(j.State, "FAILED", "NODE_FAIL", "BOOT_FAIL", "OUT_OF_MEMORY", "DEADLINE", "TIMEOUT", "CANCELLED", "PREEMPTED"):
			v.Outcome, v.Detail = Failed, fmt.Sprintf("%v (reason %s)", j.State, j.Reason)
			return v, nil
		case hasAny(j.State, "PENDING") && slices.Contains(configReasons, j.Reason):
			v.Outcome, v.Detail = PendingConfig, j.Reason
			return v, nil
		}
		if time.Now().After(deadline) {
			v.Outcome, v.Detail = Waiting, fmt.Sprintf("%v (reason %s) after %s", j.State, j.Reason, wait)
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
			fmt.Sprintf("partition %s refuses a job of %s at submission: %s", p.name, v.Shape, v.Detail),
			"`slurmspec lint` may say why (memory defaults, limits); else check the partition's settings and the user's association"), true
	case PendingConfig, Failed:
		what := "pends with reason " + v.Detail
		if v.Outcome == Failed {
			what = "ended without running: " + v.Detail
		}
		return finding(c, p, "", online.VerifyJobPending, diag.Error,
			fmt.Sprintf("in partition %s a job of %s %s (job %d)", p.name, v.Shape, what, v.JobID),
			"the partition's limits, state or the user's association keep it from running; `scontrol show job` on the cluster says more"), true
	}
	return diag.Diagnostic{}, false
}
