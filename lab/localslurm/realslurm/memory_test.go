package realslurm

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// memorySpec is a cluster of one static A4 node whose gpu partition has
// the given config (a YAML flow map).
func memorySpec(name, partitionConfig string) spec {
	return spec{name: name, data: []byte(`
nodePools:
- id: a4
  machineSpec: {machineType: a4-highgpu-8g}
  provisioningModel: SPOT
  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}
  bootDisk: {bootDiskType: hyperdisk-balanced}
  zone: us-central1-b
- id: login
  machineSpec: {machineType: n2-standard-8}
  scalingSpec: {maxNodeCount: 1}
  zone: us-central1-b
orchestratorSpec:
  slurmSpec:
    loginNodePoolId: login
    homeDirectoryStorage: projects/acme-ml-prod/locations/us-central1-b/instances/home
    partitions:
    - {id: gpu, nodePoolIds: [a4], config: ` + partitionConfig + `}
`)}
}

// TestMemoryDefault checks on a real slurmctld what the rule
// memory-default-missing says: with memory tracked (the service default
// CR_Core_Memory) and no memory default, a one-GPU job that asks for no
// memory is given all of an A4 node's memory and a second one cannot start
// beside it; with the DefMemPerGPU the rule's hint gives, both run, each
// with that much memory.
func TestMemoryDefault(t *testing.T) {
	t.Parallel()
	requirePrereqs(t)
	a4, ok := machines.Default().Lookup("a4-highgpu-8g")
	if !ok {
		t.Fatal("a4-highgpu-8g is not in the machine catalog")
	}
	gpus, _ := a4.WholeGPUs()
	whole := a4.RealMemoryMiB()
	perGPU := whole / gpus
	for _, tc := range []struct {
		name, config string
		ruleFires    bool
		wantMem      int
		secondRuns   bool
	}{
		{"no default", "{MaxTime: \"60\"}", true, whole, false},
		{"DefMemPerGPU", "{DefMemPerGPU: \"" + strconv.Itoa(perGPU) + "\"}", false, perGPU, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := compileSpec(t, memorySpec("memory-"+strings.ReplaceAll(tc.name, " ", "-")+".yaml", tc.config))
			if c.cluster == nil || c.diags.HasErrors() {
				t.Fatalf("spec does not lint clean:\n%s", errorsText(c.diags))
			}
			if fires := slices.ContainsFunc(c.diags, func(d diag.Diagnostic) bool { return d.Rule == "memory-default-missing" }); fires != tc.ruleFires {
				t.Fatalf("memory-default-missing reported: %v, want %v", fires, tc.ruleFires)
			}
			dir, _ := renderSpec(t, c)
			node := jobNode(t, c.cluster)
			cl := start(t, dir, localslurm.Options{Accounting: true, StandIns: []string{node}})
			args := []string{"-p", "gpu", "-w", node, "--gpus=1", "-D", "/tmp", "-o", "/dev/null", "--wrap", "sleep 300"}
			first := cl.submit(t, args...)
			f := cl.waitJob(t, first, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] == "RUNNING" || finished(f["JobState"]) })
			if f["JobState"] != "RUNNING" {
				t.Fatalf("job %s: JobState=%s Reason=%s, want RUNNING", first, f["JobState"], f["Reason"])
			}
			want := "mem=" + strconv.Itoa(tc.wantMem) + "M"
			if !strings.Contains(","+f["TRES"]+",", ","+want+",") {
				t.Errorf("job %s without a memory request: TRES=%s, want %s", first, f["TRES"], want)
			}
			second := cl.submit(t, args...)
			var s localslurm.Fields
			if tc.secondRuns {
				s = cl.waitJob(t, second, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] == "RUNNING" || finished(f["JobState"]) })
			} else {
				s = cl.waitJob(t, second, "pending for resources", func(f localslurm.Fields) bool {
					return f["JobState"] != "PENDING" || (f["Reason"] != "None" && f["Reason"] != "")
				})
			}
			if got := s["JobState"] == "RUNNING"; got != tc.secondRuns {
				t.Errorf("second one-GPU job %s beside %s: JobState=%s Reason=%s, want running %v", second, first, s["JobState"], s["Reason"], tc.secondRuns)
			}
			t.Logf("first job TRES=%s; second job %s %s", f["TRES"], s["JobState"], s["Reason"])
			cl.stopAndCheck(t)
		})
	}
}
