package jobmix

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// runSpec has a GPU partition whose DefMemPerGPU is more than an A4 node
// has per GPU (memory-default-unfit predicts the all-GPUs default fails),
// and a CPU partition that lets only account research in and needs two
// nodes per job (MinNodes=2: the partition is for larger jobs, so Derive
// makes only its two-node shapes; a job of -N1 would wait with
// PartitionConfig, one of -n1 run on two nodes on 22.05 and 24.11 and be
// refused on 26.05).
var runSpec = specgen.Small{
	Project: "jobmix", Name: "mix",
	Pools: []specgen.Pool{
		specgen.A4Pool("a4", 1, 2),
		{ID: "cpu", MachineType: "n2-standard-16", Min: 0, Max: 2},
	},
	DefaultPartition: "gpu",
	Partitions: []string{
		`{id: gpu, nodePoolIds: [a4], config: {DefMemPerGPU: "600000", MaxTime: "60"}}`,
		`{id: cpu, nodePoolIds: [cpu], config: {AllowAccounts: research, MinNodes: "2", DefMemPerCPU: "3000"}}`,
	},
}.YAML()

// TestRunOnRealSlurm runs runSpec's job mix on every release: each shape
// gets the verdict Slurm gives it, and Compare tells the predicted
// failure, the false negatives and the shapes that run.
func TestRunOnRealSlurm(t *testing.T) {
	want := map[string]Outcome{
		"gpu/a4/one-task":         Runs,
		"gpu/a4/one-task+sized":   Runs,
		"gpu/a4/one-gpu":          Runs,
		"gpu/a4/one-gpu+sized":    Runs,
		"gpu/a4/all-gpus":         Refused,
		"gpu/a4/all-gpus+sized":   Runs,
		"gpu/a4/whole-node":       Runs,
		"gpu/a4/whole-node+sized": Runs,
		"gpu/a4/two-nodes":        Runs,
		"gpu/a4/two-nodes+sized":  Runs,
		"gpu/a4/max-time":         Runs,
		"cpu/cpu/two-nodes":       Runs,
		"cpu/cpu/two-nodes+sized": Runs,
	}
	t.Parallel()
	for _, rel := range localslurm.Releases() {
		t.Run(rel, func(t *testing.T) {
			t.Parallel() // each release starts its own cluster: they share nothing
			slurmtest.Require(t, func() error { return localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}) })
			c, diags := analyse(t, "run.yaml", runSpec, rel)
			if diags.HasErrors() {
				t.Fatalf("runSpec must lint without errors for %s:\n%v", rel, diags)
			}
			dir := renderDir(t, c, rel)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			verdicts, err := Run(ctx, Options{Dir: dir, Cluster: c, Release: rel, Log: testLog{t}})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]Verdict{}
			for _, v := range verdicts {
				got[v.Shape.ID()] = v
			}
			if len(got) != len(want) {
				t.Errorf("%d shapes judged, want %d (no one-node shape in cpu, MinNodes=2)", len(got), len(want))
			}
			for id, w := range want {
				v, ok := got[id]
				switch {
				case !ok:
					t.Errorf("%s: not derived", id)
				case v.Outcome != w:
					t.Errorf("%s: %s %s, want %s", id, v.Outcome, v.Reason, w)
				}
			}
			if v := got["gpu/a4/all-gpus"]; !strings.Contains(v.Reason, "Requested node configuration is not available") {
				t.Errorf("gpu/a4/all-gpus refused with %q, want Slurm's \"Requested node configuration is not available\"", v.Reason)
			}
			judged := Compare(verdicts, Predict(Predictors(), c, diags, shapesOf(verdicts)))
			for _, j := range judged {
				if j.Class != Agree {
					t.Errorf("%s: %s (%s %s; predicted by %v), want agree", j.Shape.ID(), j.Class, j.Outcome, j.Reason, j.Predicted)
				}
			}
		})
	}
}

func shapesOf(vs []Verdict) []Shape {
	out := make([]Shape, len(vs))
	for i, v := range vs {
		out[i] = v.Shape
	}
	return out
}

// testLog writes the runner's progress to the test's log.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestSetupOnRealSlurm: Setup creates the partitions' accounts and QOS
// and daemon's associations, and a second Setup on the same database
// (the workload oracle's next spec) succeeds, on every release (their
// sacctmgr words "already there" differently); slurmctld then starts on
// the spec, whose AllowQos names a QOS Setup made (26.05 refuses to start
// without it).
func TestSetupOnRealSlurm(t *testing.T) {
	spec := strings.Replace(runSpec, `AllowAccounts: research,`, `AllowAccounts: research, AllowQos: high, QOS: part,`, 1)
	t.Parallel()
	for _, rel := range localslurm.Releases() {
		t.Run(rel, func(t *testing.T) {
			t.Parallel() // each release starts its own cluster: they share nothing
			slurmtest.Require(t, func() error { return localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}) })
			c, _ := analyse(t, "setup.yaml", spec, rel)
			dir := renderDir(t, withoutQOS(c), rel) // 26.05 does not start on a QOS it lacks
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cl, err := localslurm.Start(ctx, localslurm.Options{Dir: dir, Release: rel, Accounting: true})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := cl.Stop(); err != nil {
					t.Error(err)
				}
			}()
			for i := range 2 {
				if err := Setup(ctx, cl, c); err != nil {
					t.Fatalf("Setup #%d: %v", i+1, err)
				}
			}
			out, err := cl.Command(ctx, "sacctmgr", "-n", "-P", "list", "assoc", "user="+User, "format=account,qos").CombinedOutput()
			if err != nil {
				t.Fatalf("sacctmgr list assoc: %v: %s", err, out)
			}
			got := strings.Fields(string(out))
			slices.Sort(got)
			if want := []string{"jobmix|high,normal,part", "research|high,normal,part"}; !slices.Equal(got, want) {
				t.Errorf("associations of %s: %v, want %v", User, got, want)
			}
			if err := cl.RestartController(ctx, renderDir(t, c, rel)); err != nil {
				t.Errorf("slurmctld on the spec after Setup: %v", err)
			}
		})
	}
}
