package realslurm

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// shapeJob is one job of a standard shape, submitted to the gpu partition
// of memorySpec's A4 node, and whether Slurm must accept it.
type shapeJob struct {
	args    []string
	accepts bool
}

// TestMemoryDefaultUnfit checks on real slurmctld of every release what
// the rule memory-default-unfit says about the standard job shapes
// (issue 26): with DefMemPerGPU above an A4 node's memory per GPU, a job
// asking for all 8 GPUs is refused at submit even with --mem, and runs
// with --mem-per-gpu; with DefMemPerGPU above the node's memory no GPU job
// runs without --mem-per-gpu; with DefMemPerCPU above the node's memory
// per CPU only a whole-node (--exclusive) job is refused.
func TestMemoryDefaultUnfit(t *testing.T) {
	t.Parallel()
	gpus := func(n string, more ...string) []string { return append([]string{"--gpus=" + n}, more...) }
	for _, tc := range []struct {
		name, config string
		severity     diag.Severity
		jobs         []shapeJob
	}{
		{"DefMemPerGPU above the memory per GPU", `{DefMemPerGPU: "600000"}`, diag.Warning, []shapeJob{
			{gpus("8"), false},
			{gpus("8", "--mem=100G"), false},
			{gpus("8", "--mem-per-gpu=400000"), true},
			{gpus("1"), true},
		}},
		{"DefMemPerGPU above the node's memory", `{DefMemPerGPU: "4000000"}`, diag.Error, []shapeJob{
			{gpus("1"), false},
			{gpus("1", "--mem=100G"), false},
			{gpus("1", "--mem-per-gpu=400000"), true},
			{[]string{"-n1"}, true},
		}},
		{"DefMemPerCPU above the memory per CPU of a whole node", `{DefMemPerCPU: "20000"}`, diag.Warning, []shapeJob{
			{[]string{"--exclusive"}, false},
			{[]string{"--exclusive", "--mem=0"}, true},
			{[]string{"-n1"}, true},
		}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			for _, release := range localslurm.Releases() {
				t.Run(release, func(t *testing.T) {
					t.Parallel() // each case and release starts its own cluster: they share nothing
					requirePrereqsFor(t, release)
					s := memorySpec("unfit-"+strings.ReplaceAll(tc.name, " ", "-")+".yaml", tc.config)
					all := compileSpecVersion(t, s, release)
					if !hasFinding(all.diags, "memory-default-unfit", tc.severity) {
						t.Errorf("lint: want a %s from memory-default-unfit, got:\n%s", tc.severity, allText(all.diags))
					}
					sp := compileSpecVersion(t, s, release, "memory-default-unfit")
					if sp.cluster == nil || sp.diags.HasErrors() {
						t.Fatalf("spec must lint without errors (memory-default-unfit disabled):\n%s", errorsText(sp.diags))
					}
					dir, _ := renderSpecVersion(t, sp, release)
					node := jobNode(t, sp.cluster)
					cl := start(t, dir, localslurm.Options{Release: release, Accounting: true, StandIns: []string{node}})
					for _, j := range tc.jobs {
						args := append([]string{"--parsable", "-p", "gpu", "-w", node, "-D", "/tmp", "-o", "/dev/null"}, j.args...)
						out, err := cl.output("sbatch", append(args, "--wrap", "sleep 300")...)
						if accepted := err == nil; accepted != j.accepts {
							t.Errorf("sbatch %s: accepted %v, want %v: %s", strings.Join(j.args, " "), accepted, j.accepts, strings.TrimSpace(out))
							continue
						}
						if err != nil {
							if !strings.Contains(out, "Requested node configuration is not available") {
								t.Errorf("sbatch %s refused with %q, want \"Requested node configuration is not available\"", strings.Join(j.args, " "), strings.TrimSpace(out))
							}
							continue
						}
						id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
						f := cl.waitJob(t, id, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] == "RUNNING" || finished(f["JobState"]) })
						if f["JobState"] != "RUNNING" {
							t.Errorf("sbatch %s: job %s JobState=%s Reason=%s, want RUNNING", strings.Join(j.args, " "), id, f["JobState"], f["Reason"])
						}
						cl.run(t, "scancel", id)
						cl.waitJob(t, id, "finished", func(f localslurm.Fields) bool { return finished(f["JobState"]) })
					}
					cl.stopAndCheck(t)
				})
			}
		})
	}
}
