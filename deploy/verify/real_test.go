package verify_test

import (
	"context"
	"fmt"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/deploy/verify"
	"github.com/slurmspec/slurmspec/lab/fakeslurmapi/apitest"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
	"github.com/slurmspec/slurmspec/lint/online"
)

// TestVerifyOnRealSlurm runs verify on a variant of the A4 example (variant)
// deployed on a local Slurm of each release that serves v0.0.42, through
// the double of the Slurm Job API and the release's real slurmrestd: first
// as deployed (no drift; every shape of render/jobshapes runs but, on
// 24.11, preempt's all-GPU job, refused at submission; slurmctld has each
// job as its sbatch options ask), then after two changes made on the live
// cluster with scontrol: partition train's MaxTime (drift, at the spec's
// MaxTime, and the max-time job pends with PartitionTimeLimit) and
// partition preempt's MaxNodes=1 (drift at the partition, and the two-node
// jobs pend with PartitionConfig).
func TestVerifyOnRealSlurm(t *testing.T) {
	for _, series := range []string{"24.11", "26.05"} {
		t.Run(series, func(t *testing.T) {
			t.Parallel()
			o := localslurm.Options{Release: series, RestAPI: true, StandIns: []string{"train-a4-0", "train-a4-1"}, Log: slurmtest.Log(t)}
			slurmtest.Require(t, func() error { return localslurm.PrereqsFor(o) })
			spec := variant(t)
			res, err := pipelinetest.Pipeline(t, series).Analyse(pipeline.File(spec, nil), pipeline.AnalyseOptions{})
			if err != nil || res.Cluster == nil || res.Failed() {
				t.Fatalf("the example does not compile: %v %v", err, res.Diags)
			}
			set, err := artifacts.Rendered(res.Cluster, series)
			if err != nil {
				t.Fatal(err)
			}
			conf := set.Get("slurm.conf").Data
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			name := "projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train"
			cl := apitest.Start(ctx, t, o, set, name, map[string]string{"ya29.daemon": "daemon"})
			api := &slurmapi.Client{HTTP: apitest.Client("ya29.daemon"), Endpoint: cl.URL, Cluster: name}
			opt := verify.Options{Wait: 30 * time.Second, Poll: 200 * time.Millisecond}

			r, err := verify.Run(ctx, api, res.Cluster, conf, opt)
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			logReport(t, r)
			// 26.05 takes the all-GPU job of preempt unpinned and runs it
			// with mem=4687.50G (8 x 600000M) on a node of 3943792M; pinned
			// (-w, as lab/jobmix submits it) it refuses it at submission
			// like 24.11 (measured: sbatch and REST alike).
			refused := series == "24.11"
			if refused && (len(r.Diags) != 1 || r.Diags[0].Rule != online.RuleVerifyJobRefused ||
				!strings.Contains(r.Diags[0].Message, "partition preempt refuses a job of shape preempt/a4/all-gpus (-N1 --gpus=8) at submission: Batch job submission failed: Requested node configuration is not available")) {
				t.Errorf("as deployed: findings %v, want one: preempt refuses every GPU of a node", r.Diags)
			}
			if !refused && len(r.Diags) != 0 {
				t.Errorf("as deployed: findings %v, want none", r.Diags)
			}
			for _, v := range r.Verdicts {
				want := verify.Runs
				if v.Shape.ID() == "preempt/a4/all-gpus" && refused {
					want = verify.Refused
				}
				if v.Outcome != want {
					t.Errorf("as deployed: partition %s, %s: %s (%s), want %s", v.Partition, v.Shape, v.Outcome, v.Detail, want)
				}
				checkSubmitted(ctx, t, cl.Cluster, v)
			}
			if len(r.Verdicts) != 22 {
				t.Errorf("%d verdicts, want 11 shapes in each of 2 partitions", len(r.Verdicts))
			}

			for _, args := range [][]string{
				{"update", "PartitionName=train", "MaxTime=1-00:00:00"},
				{"update", "PartitionName=preempt", "MaxNodes=1"},
			} {
				if out, err := cl.Command(ctx, "scontrol", args...).CombinedOutput(); err != nil {
					t.Fatalf("scontrol %v: %v: %s", args, err, out)
				}
			}
			r, err = verify.Run(ctx, api, res.Cluster, conf, opt)
			if err != nil {
				t.Fatalf("verify after the changes: %v", err)
			}
			logReport(t, r)
			var got []string
			for _, d := range r.Diags {
				got = append(got, fmt.Sprintf("%s %s: %s [%s]", d.Path, d.Severity, d.Message, d.Rule))
			}
			want := []string{
				"orchestratorSpec.slurmSpec.partitions[0].id error: in partition train a job of shape train/a4/max-time (-n1 --time=10080) pends with reason PartitionTimeLimit (job 33) [verify-job-pending]",
				"orchestratorSpec.slurmSpec.partitions[0].config.MaxTime warning: partition train has MaxTime=1440 minutes on the live cluster, the spec renders 7-00:00:00 [verify-partition-drift]",
				"orchestratorSpec.slurmSpec.partitions[1].id error: in partition preempt a job of shape preempt/a4/two-nodes (-N2) pends with reason PartitionConfig (job 42) [verify-job-pending]",
				"orchestratorSpec.slurmSpec.partitions[1].id error: in partition preempt a job of shape preempt/a4/two-nodes+sized (-N2 --mem=17606 --time=1) pends with reason PartitionConfig (job 43) [verify-job-pending]",
				"orchestratorSpec.slurmSpec.partitions[1].id error: partition preempt refuses a job of shape preempt/a4/all-gpus (-N1 --gpus=8) at submission: Batch job submission failed: Requested node configuration is not available [verify-job-refused]",
				"orchestratorSpec.slurmSpec.partitions[1].id warning: partition preempt has MaxNodes=1 on the live cluster, the spec leaves it at Slurm's default, UNLIMITED [verify-partition-drift]",
			}
			if !refused {
				want = slices.DeleteFunc(want, func(s string) bool { return strings.Contains(s, "[verify-job-refused]") })
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("after the changes, findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, c := range cl.Double.Calls() {
				if c.User != "daemon" {
					t.Errorf("call %s %s ran as %s, want daemon", c.Method, c.Path, c.User)
				}
			}
			// A job that excludes nodes (a pool's job in a partition of
			// several pools) has them in its ExcNodeList.
			id, err := api.Submit(ctx, slurmapi.JobSpec{Name: "x", Partition: "train", Script: "#!/bin/sh\ntrue\n", Tasks: 1, ExcludedNodes: []string{"train-a4-[0]"}, TimeLimit: slurmapi.Number{Set: true, Number: 0}})
			if err != nil {
				t.Fatalf("submit with excluded nodes: %v", err)
			}
			if f, err := cl.ShowJob(ctx, fmt.Sprint(id)); err != nil || f["ExcNodeList"] != "train-a4-0" || f["TimeLimit"] != "00:00:00" {
				t.Errorf("job %d: ExcNodeList=%q TimeLimit=%q (%v), want train-a4-0 and 00:00:00", id, f["ExcNodeList"], f["TimeLimit"], err)
			}
			if err := api.Cancel(ctx, id); err != nil {
				t.Errorf("cancel %d: %v", id, err)
			}
			// Every job is gone: none left pending or running.
			if out, err := cl.Command(ctx, "squeue", "-h", "-t", "PD,R,CF").CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "" {
				t.Errorf("jobs left behind (%v): %s", err, out)
			}
		})
	}
}

// variant writes the A4 example with two changes: two static nodes (no
// State=CLOUD nodes: the harness has no ResumeProgram, and a job placed on a
// powered-down node was requeued and held, JobHeldUser, measured on 24.11),
// partition preempt's DefMemPerGPU at 600000 MiB (issue 26: 8 x 600000
// MiB is more than an a4-highgpu-8g node has, so a job of all 8 GPUs is
// refused), and a prolog that does not call nvidia-smi, which the stand-in
// nodes lack.
func variant(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), "maxNodeCount: 4", "maxNodeCount: 2", 1)
	i := strings.LastIndex(s, `DefMemPerGPU: "492974"`)
	if i < 0 || !strings.Contains(s, "maxNodeCount: 2") {
		t.Fatal("the example changed: update variant")
	}
	s = s[:i] + `DefMemPerGPU: "600000"` + s[i+len(`DefMemPerGPU: "492974"`):]
	// The stand-in nodes have no nvidia-smi; the prolog's check passes.
	const smi = "count=$(nvidia-smi --list-gpus | wc -l)"
	if !strings.Contains(s, smi) {
		t.Fatal("the example's prolog changed: update variant")
	}
	s = strings.Replace(s, smi, "count=8", 1)
	p := filepath.Join(t.TempDir(), "a4.yaml")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVerifyOn2205 runs verify on the host's Slurm 22.05, whose slurmrestd
// serves v0.0.36-38 only: it stops at the first call, in one line that
// says so.
func TestVerifyOn2205(t *testing.T) {
	o := localslurm.Options{Release: "22.05", RestAPI: true, Log: slurmtest.Log(t)}
	slurmtest.Require(t, func() error { return localslurm.PrereqsFor(o) })
	res, err := pipelinetest.Pipeline(t, "22.05").Analyse(pipeline.File(variant(t), nil), pipeline.AnalyseOptions{})
	if err != nil || res.Cluster == nil {
		t.Fatalf("the example does not compile: %v", err)
	}
	set, err := artifacts.Rendered(res.Cluster, "22.05")
	if err != nil {
		t.Fatal(err)
	}
	conf := set.Get("slurm.conf").Data
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	name := "projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train"
	cl := apitest.Start(ctx, t, o, set, name, map[string]string{"ya29.daemon": "daemon"})
	api := &slurmapi.Client{HTTP: apitest.Client("ya29.daemon"), Endpoint: cl.URL, Cluster: name}
	_, err = verify.Run(ctx, api, res.Cluster, conf, verify.Options{})
	want := "GET /slurm/v0.0.42/partitions: slurmrestd answered 404: Unable find requested URL. Please view /openapi/v3 for API reference; the cluster's slurmrestd does not serve Slurm REST v0.0.42, which Slurm 24.11 and later do (22.05 serves v0.0.36-v0.0.38)"
	if err == nil || err.Error() != want {
		t.Errorf("verify on 22.05: %v, want %q", err, want)
	}
}

// checkSubmitted checks that slurmctld has a verdict's job as its sbatch
// options ask: the time limit, --mem and --mem-per-gpu of the sized jobs,
// the GPUs of the GPU shapes.
func checkSubmitted(ctx context.Context, t *testing.T, cl *localslurm.Cluster, v verify.Verdict) {
	t.Helper()
	if v.JobID == 0 {
		return
	}
	f, err := cl.ShowJob(ctx, fmt.Sprint(v.JobID))
	if err != nil || f == nil {
		t.Errorf("%s: job %d: %v", v.Shape, v.JobID, err)
		return
	}
	for _, a := range v.Shape.Args() {
		opt, val, _ := strings.Cut(a, "=")
		key, want := "", ""
		switch opt {
		case "--time":
			if val == "1" {
				key, want = "TimeLimit", "00:01:00"
			}
		case "--mem":
			key, want = "MinMemoryNode", val+"M"
		case "--mem-per-gpu":
			key, want = "MemPerTres", "gres/gpu:"+val
		case "--gpus":
			key, want = "TresPerJob", "gres/gpu:"+val
		}
		if key != "" && f[key] != want {
			t.Errorf("%s: job %d has %s=%q, want %q (%s)", v.Shape, v.JobID, key, f[key], want, a)
		}
	}
}

func logReport(t *testing.T, r *verify.Report) {
	t.Helper()
	var b strings.Builder
	_ = r.WriteVerdicts(&b)
	for _, d := range r.Diags {
		b.WriteString(d.String() + "\n")
	}
	t.Logf("%d partitions, %d nodes:\n%s", r.Partitions, r.Nodes, b.String())
}
