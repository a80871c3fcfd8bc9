package fidelity

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/slurmspec/slurmspec/lab/jobmix"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/schema"
)

// WorkloadResult is one workload case's outcome.
type WorkloadResult struct {
	Case WorkloadCase
	// Lint holds the error-level findings as "rule: message"; Refused is
	// set when one of them is of a rule that predicts no shape
	// (jobmix.Predictors): the spec is lint-refused and not run.
	Lint    []string
	Refused bool
	// Warned holds the warnings as "rule: message".
	Warned []string
	// Up is false when slurmctld or a slurmd did not start on the rendered
	// spec (the start oracle's matter); Slurm then holds why.
	Up    bool
	Slurm []string
	// Shapes are the judged shapes.
	Shapes []jobmix.Judged
	// Harness is set when the harness failed while judging the case's
	// shapes: the case is not judged.
	Harness string
}

// maxHarnessErrors is how many cases in a row may fail in the harness
// before a run gives up.
const maxHarnessErrors = 5

// Count returns how many of the result's shapes are of the class.
func (r WorkloadResult) Count(c jobmix.Class) int {
	n := 0
	for _, j := range r.Shapes {
		if j.Class == c {
			n++
		}
	}
	return n
}

// WorkloadReport is one release's workload run.
type WorkloadReport struct {
	Release, Version string
	Seed             uint64
	Results          []WorkloadResult
	Elapsed          time.Duration
}

// Count returns how many shapes of every result are of the class.
func (r *WorkloadReport) Count(c jobmix.Class) int {
	n := 0
	for _, x := range r.Results {
		n += x.Count(c)
	}
	return n
}

// WorkloadOptions configures RunWorkload.
type WorkloadOptions struct {
	Options
	// WorkloadCases, when not nil, are run instead of generated ones.
	WorkloadCases []WorkloadCase
	// Wait bounds each wait for a job (jobmix.Runner.Wait).
	Wait time.Duration
	// Progress, when set, is called after each case with the report so
	// far (a long run's results are not lost when it is stopped).
	Progress func(*WorkloadReport)
}

// RunWorkload runs the workload cases on the release: one cluster (munged,
// MariaDB, slurmdbd, slurmctld, a stand-in slurmd for each of the four
// nodes) started on the base case; for each case, lint; unless a finding
// of a rule that predicts no shape is an error, render, create the
// accounts and QOS it names (jobmix.Setup), restart slurmctld and the
// stand-ins on it, and judge its job mix against the findings.
func RunWorkload(ctx context.Context, o WorkloadOptions) (*WorkloadReport, error) {
	began := time.Now()
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = 30 * time.Second
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "workload %s: "+format+"\n", append([]any{o.Release}, args...)...)
		}
	}
	sch, err := schema.New()
	if err != nil {
		return nil, fmt.Errorf("fidelity: %w", err)
	}
	work, err := os.MkdirTemp("", "workload-")
	if err != nil {
		return nil, fmt.Errorf("fidelity: %w", err)
	}
	defer os.RemoveAll(work)

	base := WorkloadCase{Index: -1, GPUType: workloadGPUTypes[0], CPUType: workloadCPUTypes[0],
		Partitions: []WorkloadPartition{{ID: "gpu", Pools: []string{workloadGPUPool}}, {ID: "cpu", Pools: []string{workloadCPUPool}}}}
	c, l, _ := lintSpec(sch, "base.yaml", base.Spec(), o.Release, nil)
	if c == nil || len(l) > 0 {
		return nil, fmt.Errorf("fidelity: the workload base spec does not lint clean for Slurm %s: %v", o.Release, l)
	}
	baseDir := filepath.Join(work, "base")
	if _, err := renderTo(c, o.Release, baseDir); err != nil {
		return nil, err
	}
	cl, err := localslurm.Start(ctx, localslurm.Options{Dir: baseDir, Release: o.Release, Accounting: true, ReadyTimeout: o.ReadyTimeout, StandIns: workloadStandIns})
	if err != nil {
		return nil, fmt.Errorf("fidelity: start Slurm %s on the workload base spec: %w", o.Release, err)
	}
	defer cl.Stop()
	rep := &WorkloadReport{Release: o.Release, Version: cl.Release().Version, Seed: o.Seed}
	logf("running %s, seed %d", cl.Release(), o.Seed)
	predictors := jobmix.Predictors()
	runner := &jobmix.Runner{Cluster: cl, Wait: o.Wait}

	cases := o.WorkloadCases
	if cases == nil {
		cases = GenerateWorkload(o.Seed, o.N)
	}
	harnessErrors := 0 // in a row
	for _, k := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := WorkloadResult{Case: k}
		c, errs, warns := lintSpec(sch, fmt.Sprintf("workload-%d.yaml", k.Index), k.Spec(), o.Release, o.Disabled)
		for _, d := range errs {
			res.Lint = append(res.Lint, d.Rule+": "+d.Message)
			if _, ok := predictors[d.Rule]; !ok {
				res.Refused = true
			}
		}
		for _, d := range warns {
			res.Warned = append(res.Warned, d.Rule+": "+d.Message)
		}
		dir := filepath.Join(work, fmt.Sprintf("case-%d", k.Index))
		if c == nil {
			res.Refused = true
		}
		if !res.Refused {
			if _, err := renderTo(c, o.Release, dir); err != nil {
				res.Lint = append(res.Lint, "render: "+err.Error())
				res.Refused = true
			}
		}
		if res.Refused {
			logf("%s: lint-refused", k)
			rep.Results = append(rep.Results, res)
			progress(o, rep, began)
			continue
		}
		if err := jobmix.Setup(ctx, cl, c); err != nil {
			return nil, fmt.Errorf("fidelity: %s: %w", k, err)
		}
		err := cl.RestartController(ctx, dir)
		var se *localslurm.StartError
		switch {
		case err == nil:
			res.Up = true
		case errors.As(err, &se):
			res.Slurm = append(se.LogErrors, oneLine(se.Stage+": "+se.Err.Error()))
			logf("%s: Slurm did not start: %s", k, res.Slurm[len(res.Slurm)-1])
			rep.Results = append(rep.Results, res)
			progress(o, rep, began)
			continue
		default:
			return nil, fmt.Errorf("fidelity: %s: %w", k, err)
		}
		groups, err := localslurm.NodeGroups(dir)
		if err != nil {
			return nil, fmt.Errorf("fidelity: %s: %w", k, err)
		}
		shapes := jobmix.Derive(c, jobmix.PoolNodes(groups))
		verdicts, err := runner.Judge(ctx, shapes)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// The harness failed on this case (a job that would not end on
			// a loaded host): reported, not judged; the next case's
			// restart starts afresh.
			res.Harness = err.Error()
			logf("%s: harness error, not judged: %v", k, err)
			if harnessErrors++; harnessErrors >= maxHarnessErrors {
				return nil, fmt.Errorf("fidelity: %d cases in a row failed in the harness, the last: %w", harnessErrors, err)
			}
			rep.Results = append(rep.Results, res)
			progress(o, rep, began)
			continue
		}
		harnessErrors = 0
		all := slices.Concat(errs, warns)
		res.Shapes = jobmix.Compare(verdicts, jobmix.Predict(predictors, c, all, shapes))
		logf("%s: %d shapes, %d false negatives, %d false positives", k, len(res.Shapes), res.Count(jobmix.FalseNegative), res.Count(jobmix.FalsePositive))
		for _, j := range res.Shapes {
			if j.Class != jobmix.Agree {
				logf("  %s: %s: %s %s %v", j.Class, j.Shape, j.Outcome, j.Reason, j.Predicted)
			}
		}
		rep.Results = append(rep.Results, res)
		os.RemoveAll(dir)
		progress(o, rep, began)
	}
	rep.Elapsed = time.Since(began)
	return rep, nil
}

// progress hands Progress a copy of the report so far: the caller may
// keep it while the run goes on.
func progress(o WorkloadOptions, rep *WorkloadReport, began time.Time) {
	if o.Progress == nil {
		return
	}
	cp := *rep
	cp.Results = slices.Clone(rep.Results)
	cp.Elapsed = time.Since(began)
	o.Progress(&cp)
}
