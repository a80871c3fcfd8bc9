package fidelity

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/jobmix"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// The workload sample CI runs on every release (make fidelity
// FIDELITY_MODE=workload runs the full oracle).
const (
	workloadSampleSeed = 1
	workloadSampleN    = 4
)

// TestWorkloadSampleOnRealSlurm runs the workload oracle's fixed sample on
// every release (a real-Slurm test: see slurmtest). It fails on a false
// negative testdata/known-workload-false-negatives.txt does not list for
// the release: a shape that does not run in a spec lint passes, with no
// finding predicting it. Known ones and false positives are logged.
func TestWorkloadSampleOnRealSlurm(t *testing.T) {
	t.Parallel() // beside the package's other real-Slurm tests: their clusters share nothing
	known := readKnownWorkload(t)
	for _, rel := range localslurm.Releases() {
		t.Run(rel, func(t *testing.T) {
			t.Parallel() // the releases side by side: their clusters share nothing
			requirePrereqs(t, rel)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			rep, err := RunWorkload(ctx, WorkloadOptions{Options: Options{Release: rel, Seed: workloadSampleSeed, N: workloadSampleN}})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("\n%s", WorkloadTable([]*WorkloadReport{rep}))
			shapes := 0
			for _, x := range rep.Results {
				shapes += len(x.Shapes)
				for _, j := range x.Shapes {
					switch j.Class {
					case jobmix.FalseNegative:
						if why := knownWorkloadFor(known, rel, x.Case, j.Shape); why != "" {
							t.Logf("known false negative (%s): %s: %s %s", why, x.Case, j.Shape, j.Outcome)
							continue
						}
						t.Errorf("false negative: %s lints clean for Slurm %s, but %s is %s: %s", x.Case, rel, j.Shape, j.Outcome, j.Reason)
					case jobmix.FalsePositive:
						t.Logf("false positive: %s: %s runs, but %s", x.Case, j.Shape, strings.Join(j.Predicted, "; "))
					case jobmix.NotDecided:
						t.Logf("undecided: %s: %s: %s", x.Case, j.Shape, j.Reason)
					}
				}
			}
			if shapes == 0 {
				t.Errorf("the sample judged no shape")
			}
		})
	}
}

// readKnownWorkload reads testdata/known-workload-false-negatives.txt:
// lines "<release or *> <scope>/<Key> <kind> <why>", # comments.
func readKnownWorkload(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/known-workload-false-negatives.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 4)
		if len(fields) < 4 {
			t.Fatalf("known-workload-false-negatives.txt: %q: want <release> <scope>/<Key> <kind> <why>", line)
		}
		out[fields[0]+" "+strings.ToLower(fields[1])+" "+fields[2]] = fields[3]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// knownWorkloadFor returns why a shape's false negative in a case is
// known, or "": a line for the release (or every release, *), a setting of
// the case, and the shape's kind (with +sized, only the sized variant).
func knownWorkloadFor(known map[string]string, rel string, c WorkloadCase, s jobmix.Shape) string {
	kinds := []string{string(s.Kind)}
	if s.Sized {
		kinds = append(kinds, string(s.Kind)+"+sized")
	}
	for _, set := range c.Settings {
		key := strings.ToLower(set.Scope.String() + "/" + set.Key)
		for _, r := range []string{rel, "*"} {
			for _, k := range kinds {
				if why, ok := known[r+" "+key+" "+k]; ok {
					return set.Scope.String() + "/" + set.Key + " " + k + ": " + why
				}
			}
		}
	}
	return ""
}
