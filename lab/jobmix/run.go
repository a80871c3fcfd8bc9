package jobmix

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render/jobshapes"
)

// Outcome is what Slurm did with a shape's job.
type Outcome string

// The outcomes.
const (
	// Runs: the job was started (RUNNING).
	Runs Outcome = "runs"
	// Refused: sbatch refused the job; Verdict.Reason holds Slurm's message.
	Refused Outcome = "refused at submit"
	// Pending: the job waits for a reason of the configuration (Reason),
	// not for other jobs: PartitionConfig, PartitionNodeLimit,
	// PartitionTimeLimit, a QOS or association limit, ReqNodeNotAvail, or
	// Resources while every node it is pinned to is idle.
	Pending Outcome = "pending"
	// Undecided: within the wait, the job neither started nor got a
	// configuration reason (Reason holds the last one seen). Not counted
	// as failing or running.
	Undecided Outcome = "undecided"
)

// Fails reports whether the outcome is a shape that does not run.
func (o Outcome) Fails() bool { return o == Refused || o == Pending }

// Verdict is one shape's outcome on a real cluster.
type Verdict struct {
	Shape   Shape
	Outcome Outcome
	// Reason is sbatch's message (Refused) or the job's Reason (Pending,
	// Undecided).
	Reason string
}

// User is the user the runner submits as: the system user daemon (uid 1 on
// every Debian system), so nothing on the host changes (not nobody:
// slurmctld 26.05 does not resolve uid 65534; docs/fidelity.md).
const User = "daemon"

// Account is the account the runner creates for User when the cluster
// keeps accounting; its default account.
const Account = "jobmix"

// transient are the pending reasons a job has before the scheduler
// decides about it, or for other jobs: the runner waits on.
var transient = []string{"None", "Priority", "BeginTime", "Dependency", "Prolog", "Resources"}

// Runner submits shapes to a running cluster and judges them.
type Runner struct {
	Cluster *localslurm.Cluster
	// Wait bounds each wait (a job to start or get a configuration
	// reason, a cancelled job to end, its nodes to be idle); zero means
	// 60 seconds.
	Wait time.Duration
	// Log receives one line per verdict; nil discards it.
	Log io.Writer
}

func (r *Runner) wait() time.Duration {
	if r.Wait <= 0 {
		return 60 * time.Second
	}
	return r.Wait
}

// StandIns returns the nodes the shapes are pinned to, each once, in
// order: the stand-in slurmd daemons their cluster needs.
func StandIns(shapes []Shape) []string {
	var out []string
	for _, s := range shapes {
		for _, n := range s.Nodes {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// Setup creates in the cluster's slurmdbd what a site creates before its
// users submit: the account Account with User in it (its default), every
// account a partition allows or denies with User in it too, and every QOS
// a partition names (QOS, AllowQos, DenyQos; normal exists), which User's
// associations may use. slurmctld reads them when it starts: call Setup
// before RestartController on the spec. It is idempotent.
func Setup(ctx context.Context, cl *localslurm.Cluster, c *ir.Cluster) error {
	var accounts, qos []string
	for _, p := range c.Slurm.Partitions {
		accounts = appendNew(accounts, jobshapes.Names(p, "AllowAccounts")...)
		accounts = appendNew(accounts, jobshapes.Names(p, "DenyAccounts")...)
		for _, k := range []string{"QOS", "AllowQos", "DenyQos"} {
			for _, q := range jobshapes.Names(p, k) {
				if !strings.EqualFold(q, "normal") {
					qos = appendNew(qos, q)
				}
			}
		}
	}
	sacctmgr := func(args ...string) error {
		out, err := cl.Command(ctx, "sacctmgr", append([]string{"-i"}, args...)...).CombinedOutput()
		// What is there already is no error: 22.05 says "Nothing new
		// added", 24.11 and 26.05 "Already existing account X on cluster
		// Y" and, for a user, "Request didn't affect anything"; a modify
		// that changes nothing, "Nothing modified".
		if err != nil && !slices.ContainsFunc([]string{"Nothing new added", "Already existing", "already exists", "Nothing modified", "didn't affect anything"},
			func(m string) bool { return strings.Contains(string(out), m) }) {
			return fmt.Errorf("jobmix: sacctmgr %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	for _, a := range appendNew([]string{Account}, accounts...) {
		if err := sacctmgr("add", "account", a); err != nil {
			return err
		}
	}
	for _, q := range qos {
		if err := sacctmgr("add", "qos", q); err != nil {
			return err
		}
	}
	if err := sacctmgr("add", "user", User, "DefaultAccount="+Account, "Accounts="+strings.Join(appendNew([]string{Account}, accounts...), ",")); err != nil {
		return err
	}
	if len(qos) > 0 {
		if err := sacctmgr("modify", "user", "where", "name="+User, "set", "QOS="+strings.Join(append([]string{"normal"}, qos...), ",")); err != nil {
			return err
		}
	}
	return nil
}

func appendNew(list []string, names ...string) []string {
	for _, n := range names {
		if !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	return list
}

// Judge submits the shapes, as User, each pinned to its nodes; waits for
// each to start or to wait for a configuration reason; cancels it and
// waits until it has ended and its nodes are idle again. Shapes whose nodes
// are disjoint are judged side by side (rounds), the others in turn: a
// job's verdict then depends on its own nodes only. Every job is cancelled,
// also on error. The verdicts are in the shapes' order.
func (r *Runner) Judge(ctx context.Context, shapes []Shape) ([]Verdict, error) {
	out := make([]Verdict, len(shapes))
	errs := make([]error, len(shapes))
	for _, round := range rounds(shapes) {
		var wg sync.WaitGroup
		for _, i := range round {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i], errs[i] = r.judge(ctx, shapes[i])
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		for _, i := range round {
			if r.Log != nil {
				fmt.Fprintf(r.Log, "jobmix: %s: %s %s\n", shapes[i], out[i].Outcome, out[i].Reason)
			}
		}
	}
	return out, nil
}

// rounds groups the shapes' indexes, in order, into rounds whose shapes
// are pinned to disjoint nodes: each shape joins the first round none of
// whose shapes shares a node with it.
func rounds(shapes []Shape) [][]int {
	var out [][]int
	var used []map[string]bool
next:
	for i, s := range shapes {
		for k := range out {
			if !slices.ContainsFunc(s.Nodes, func(n string) bool { return used[k][n] }) {
				out[k] = append(out[k], i)
				for _, n := range s.Nodes {
					used[k][n] = true
				}
				continue next
			}
		}
		m := map[string]bool{}
		for _, n := range s.Nodes {
			m[n] = true
		}
		out, used = append(out, []int{i}), append(used, m)
	}
	return out
}

func (r *Runner) judge(ctx context.Context, s Shape) (Verdict, error) {
	v := Verdict{Shape: s}
	if _, err := r.poll(ctx, "idle nodes", func() (bool, error) { return r.idle(ctx, s.Nodes) }); err != nil {
		return v, fmt.Errorf("jobmix: before %s: %w", s.ID(), err)
	}
	args := append([]string{"-u", User, "--", "sbatch", "--parsable", "-J", "jobmix", "-p", s.Partition, "-w", strings.Join(s.Nodes, ","),
		"-D", "/tmp", "-o", "/dev/null"}, s.Args()...)
	args = append(args, "--wrap", "sleep 600")
	sctx, cancel := context.WithTimeout(ctx, r.wait())
	out, err := r.Cluster.Command(sctx, "runuser", args...).CombinedOutput()
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return v, ctx.Err()
		}
		v.Outcome, v.Reason = Refused, firstLine(string(out))
		return v, nil
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" {
		return v, fmt.Errorf("jobmix: sbatch for %s printed no job id: %q", s.ID(), out)
	}
	defer func() {
		// Cancel and wait for the end, whatever happened.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.wait())
		defer cancel()
		_ = r.Cluster.Command(cctx, "scancel", id).Run()
	}()
	last := ""
	decided, err := r.poll(ctx, "started or held for a configuration reason", func() (bool, error) {
		f, err := r.Cluster.ShowJob(ctx, id)
		if err != nil || f == nil {
			return false, err
		}
		state, reason := f["JobState"], f["Reason"]
		last = state + " Reason=" + reason
		switch {
		case state == "RUNNING" || state == "COMPLETING" || state == "COMPLETED" || f["StartTime"] != "" && state != "PENDING" && f["NodeList"] != "(null)" && f["NodeList"] != "":
			v.Outcome, v.Reason = Runs, ""
			return true, nil
		case state != "PENDING":
			v.Outcome, v.Reason = Refused, "ended "+last
			return true, nil
		case reason == "Resources":
			idle, err := r.idle(ctx, s.Nodes)
			if idle {
				v.Outcome, v.Reason = Pending, reason
			}
			return idle, err
		case !slices.Contains(transient, reason):
			v.Outcome, v.Reason = Pending, reason
			return true, nil
		}
		return false, nil
	})
	if err != nil {
		return v, fmt.Errorf("jobmix: job %s of %s: %w", id, s.ID(), err)
	}
	if !decided {
		v.Outcome, v.Reason = Undecided, last
	}
	if err := r.Cluster.Command(ctx, "scancel", id).Run(); err != nil {
		return v, fmt.Errorf("jobmix: scancel %s: %w", id, err)
	}
	state := ""
	gone := func() (bool, error) {
		f, err := r.Cluster.ShowJob(ctx, id)
		if f != nil {
			state = f["JobState"] + " Reason=" + f["Reason"] + " NodeList=" + f["NodeList"]
		}
		return f == nil || f["JobState"] != "PENDING" && f["JobState"] != "RUNNING" && f["JobState"] != "COMPLETING" && f["JobState"] != "CONFIGURING", err
	}
	ended, err := r.poll(ctx, "ended", gone)
	if err == nil && !ended {
		// A loaded host can be slow to end the step: SIGKILL, once more.
		if err := r.Cluster.Command(ctx, "scancel", "--signal=KILL", "--full", id).Run(); err != nil {
			return v, fmt.Errorf("jobmix: scancel --signal=KILL %s: %w", id, err)
		}
		ended, err = r.poll(ctx, "ended", gone)
	}
	if err != nil {
		return v, fmt.Errorf("jobmix: job %s of %s: %w", id, s.ID(), err)
	}
	if !ended {
		nodes := ""
		for _, n := range s.Nodes {
			if f, err := r.Cluster.ShowNode(ctx, n); err == nil && f != nil {
				nodes += " " + n + "=" + f["State"]
			}
		}
		return v, fmt.Errorf("jobmix: job %s of %s did not end within %v of scancel: %s; nodes%s", id, s.ID(), r.wait(), state, nodes)
	}
	return v, nil
}

// idle reports whether every node is idle: registered, neither allocated
// nor completing a job.
func (r *Runner) idle(ctx context.Context, nodes []string) (bool, error) {
	for _, n := range nodes {
		f, err := r.Cluster.ShowNode(ctx, n)
		if err != nil || f == nil {
			return false, err
		}
		st := f["State"]
		if !strings.HasPrefix(st, "IDLE") || strings.Contains(st, "COMPLETING") || strings.Contains(st, "NOT_RESPONDING") {
			return false, nil
		}
	}
	return true, nil
}

// poll calls cond every 100 ms until it holds (true) or the wait is over
// (false). An error of cond ends it; so does ctx.
func (r *Runner) poll(ctx context.Context, what string, cond func() (bool, error)) (bool, error) {
	deadline := time.Now().Add(r.wait())
	for {
		ok, err := cond()
		if err != nil {
			return false, fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "error") {
			return strings.TrimSpace(l)
		}
	}
	l, _, _ := strings.Cut(s, "\n")
	return l
}

var errNoShape = errors.New("jobmix: the spec has no shape to run (no partition over a pool of a known machine type)")
