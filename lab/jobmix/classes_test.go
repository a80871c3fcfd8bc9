package jobmix

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// classSpec is a cluster of one partition over two static n2-standard-16
// nodes (16 vCPUs, 63216 MiB) with the given partition config.
func classSpec(config string) string {
	return `name: projects/jobmix/locations/us-central1/modelDevelopmentClusters/cls
network: {network: projects/jobmix/global/networks/net}
nodePools:
- id: cpu
  machineSpec: {machineType: n2-standard-16}
  scalingSpec: {minNodeCount: 2, maxNodeCount: 2}
  zone: us-central1-b
- id: login
  machineSpec: {machineType: n2-standard-8}
  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}
  zone: us-central1-b
orchestratorSpec:
  slurmSpec:
    loginNodePoolId: login
    homeDirectoryStorage: projects/jobmix/locations/us-central1-b/instances/home
    partitions:
    - {id: cpu, nodePoolIds: [cpu], config: ` + config + `}
`
}

// TestFalseNegativeClasses runs, on every release, the minimal spec of
// each false-negative class the workload oracle found (docs/fidelity.md,
// "The workload oracle"): each lints without an error, and the shapes
// fail as listed (defaults only, or sized too) while the others run. The
// test pins Slurm's behaviour, not lint's: when a rule comes to predict a
// class, the shapes still fail and Compare calls them agreed.
func TestFalseNegativeClasses(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		// fail lists the shape ids (partition/pool/kind[+sized]) that must
		// fail; every other shape must run.
		fail []string
	}{
		{"MaxMemPerNode below the node's memory, no memory default", `{MaxMemPerNode: "30000"}`,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		{"MaxMemPerCPU below the node's memory per CPU, no memory default", `{MaxMemPerCPU: "1000"}`,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		// A job without --time runs; one with --time waits
		// (PartitionConfig on 22.05, PartitionTimeLimit later).
		{"MaxTime 0", `{MaxTime: "0"}`,
			[]string{"cpu/cpu/one-task+sized", "cpu/cpu/whole-node+sized", "cpu/cpu/two-nodes+sized", "cpu/cpu/max-time"}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			for _, rel := range localslurm.Releases() {
				t.Run(rel, func(t *testing.T) {
					slurmtest.Require(t, func() error { return localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}) })
					c, diags := analyse(t, "class.yaml", classSpec(tc.config), rel)
					if diags.HasErrors() {
						t.Fatalf("the spec must lint without errors:\n%v", diags)
					}
					dir := renderDir(t, c, rel)
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
					defer cancel()
					verdicts, err := Run(ctx, Options{Dir: dir, Cluster: c, Release: rel})
					if err != nil {
						t.Fatal(err)
					}
					for _, v := range verdicts {
						wantFail := false
						for _, id := range tc.fail {
							wantFail = wantFail || id == v.Shape.ID()
						}
						if v.Outcome.Fails() != wantFail || v.Outcome == Undecided {
							t.Errorf("%s: %s %s, want it to %s", v.Shape, v.Outcome, v.Reason, map[bool]string{true: "fail", false: "run"}[wantFail])
							continue
						}
						if wantFail {
							t.Logf("%s: %s: %s", v.Shape.ID(), v.Outcome, v.Reason)
						}
					}
				})
			}
		})
	}
}
