package realslurm

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// verdict submits one job to a partition and returns what Slurm made of
// it: "runs", "refused: MESSAGE", or "pending: REASON" for a job that
// stays pending for a reason other than priority while the nodes are idle.
// The job is cancelled before verdict returns, and the nodes are idle
// again.
func (cl *cluster) verdict(t *testing.T, partition string, args ...string) string {
	t.Helper()
	all := append([]string{"--parsable", "-p", partition, "-D", "/tmp", "-o", "/dev/null"}, args...)
	out, err := cl.output("sbatch", append(all, "--wrap", "sleep 300")...)
	if err != nil {
		msg := strings.TrimSpace(out)
		if i := strings.LastIndex(msg, "error: "); i >= 0 {
			msg = msg[i+len("error: "):]
		}
		return "refused: " + msg
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	defer cl.cancelAndIdle(t, id)
	deadline := time.Now().Add(10 * time.Second)
	for {
		f := cl.job(t, id)
		switch {
		case f["JobState"] == "RUNNING":
			return "runs"
		case f["JobState"] != "PENDING":
			return "ended: " + f["JobState"] + " " + f["Reason"]
		case f["Reason"] != "None" && f["Reason"] != "Priority" && f["Reason"] != "Resources" && f["Reason"] != "":
			return "pending: " + f["Reason"]
		case time.Now().After(deadline):
			return "pending: " + f["Reason"]
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cancelAndIdle cancels a job and waits until it has ended and no node of
// the cluster is still completing it.
func (cl *cluster) cancelAndIdle(t *testing.T, id string) {
	t.Helper()
	cl.run(t, "scancel", id)
	cl.waitJob(t, id, "finished", func(f localslurm.Fields) bool { return finished(f["JobState"]) })
	deadline := time.Now().Add(jobTimeout)
	for {
		states := cl.run(t, "sinfo", "-h", "-N", "-o", "%T")
		if !strings.Contains(strings.ToLower(states), "completing") && !strings.Contains(states, "mix") && !strings.Contains(states, "alloc") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nodes not idle %v after job %s: %s", jobTimeout, id, states)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// shapePartition is one partition of shapesSpec: its config, what the
// shape-* rules must say about it (a severity per rule, none when empty),
// and jobs with whether each must run.
type shapePartition struct {
	id, config string
	findings   map[string]diag.Severity
	jobs       []shapeJob
	pool       string // "" for a4
}

// shapePartitions are the settings tried on real Slurm for the shape-*
// rules (lint/rules/shapes.go): those that stop a standard job shape, and
// look-alikes that stop none. Jobs give --mem unless the memory default
// is what is tested, so that the whole node's memory (the default without
// one) does not decide.
var shapePartitions = []shapePartition{
	{"maxnodes0", `{MaxNodes: "0"}`, map[string]diag.Severity{"shape-node-limits": diag.Error},
		[]shapeJob{{[]string{"-n1", "--mem=1G"}, false}, {[]string{"-N2", "--mem=1G"}, false}}, ""},
	{"minnodes3", `{MinNodes: "3"}`, map[string]diag.Severity{"shape-node-limits": diag.Error},
		[]shapeJob{{[]string{"-n1", "--mem=1G"}, false}, {[]string{"-N2", "--exclusive"}, false}}, ""},
	{"minmax", `{MinNodes: "2", MaxNodes: "1"}`, map[string]diag.Severity{"shape-node-limits": diag.Error},
		[]shapeJob{{[]string{"-n1", "--mem=1G"}, false}, {[]string{"-N2", "--mem=1G"}, false}}, ""},
	{"minnodes2", `{MinNodes: "2"}`, nil,
		[]shapeJob{{[]string{"-N2", "--mem=1G"}, true}}, ""},
	{"maxtime0", `{MaxTime: "0"}`, map[string]diag.Severity{"shape-time-limit": diag.Error},
		[]shapeJob{{[]string{"-n1", "--mem=1G", "--time=10"}, false}}, ""},
	{"deftime", `{DefaultTime: "120", MaxTime: "60"}`, nil,
		[]shapeJob{{[]string{"-n1", "--mem=1G"}, true}}, ""},
	{"maxcpus", `{MaxCPUsPerNode: "8"}`, map[string]diag.Severity{"shape-cpu-limit": diag.Error},
		[]shapeJob{{[]string{"--exclusive", "--mem=1G"}, false}, {[]string{"--gpus=8", "--mem=1G"}, true}}, ""},
	{"defcpugpu", `{DefCpuPerGPU: "64"}`, map[string]diag.Severity{"shape-cpu-limit": diag.Warning},
		[]shapeJob{{[]string{"--gpus=8", "--mem=1G"}, false}, {[]string{"--gpus=8", "--mem=1G", "--cpus-per-gpu=1"}, true}, {[]string{"--gpus=1", "--mem=1G"}, true}}, ""},
	{"defcpugpubig", `{DefCpuPerGPU: "300"}`, map[string]diag.Severity{"shape-cpu-limit": diag.Error},
		[]shapeJob{{[]string{"--gpus=1", "--mem=1G"}, false}, {[]string{"--gpus=1", "--mem=1G", "--cpus-per-gpu=2"}, true}}, ""},
	{"cpucap", `{DefCpuPerGPU: "4", MaxCPUsPerNode: "16"}`, map[string]diag.Severity{"shape-cpu-limit": diag.Error},
		[]shapeJob{{[]string{"--gpus=8", "--mem=1G"}, true}, {[]string{"--exclusive", "--mem=1G"}, false}}, ""},
	{"maxmemnode", `{MaxMemPerNode: "100000"}`, map[string]diag.Severity{"shape-mem-limit": diag.Warning},
		[]shapeJob{{[]string{"-n1"}, false}, {[]string{"--gpus=1", "--mem-per-gpu=1G"}, false}, {[]string{"--gpus=1", "--mem=1G"}, true}}, ""},
	{"defovermax", `{DefMemPerNode: "50000", MaxMemPerNode: "40000"}`, map[string]diag.Severity{"shape-mem-limit": diag.Warning},
		[]shapeJob{{[]string{"-n1"}, false}, {[]string{"-n1", "--mem=1G"}, true}}, ""},
	{"memnodeok", `{DefMemPerNode: "30000", MaxMemPerNode: "40000"}`, nil,
		[]shapeJob{{[]string{"-n1"}, true}, {[]string{"--gpus=1", "--mem-per-gpu=1G"}, true}}, ""},
	{"maxmemcpu", `{MaxMemPerCPU: "2000"}`, map[string]diag.Severity{"shape-mem-limit": diag.Warning},
		[]shapeJob{{[]string{"-n1"}, false}, {[]string{"-n1", "--mem=1G"}, true}}, ""},
	{"maxmemcpuok", `{MaxMemPerCPU: "20000"}`, nil,
		[]shapeJob{{[]string{"-n1"}, true}}, ""},
	{"defovermaxcpu", `{DefMemPerCPU: "8000", MaxMemPerCPU: "4000"}`, nil,
		[]shapeJob{{[]string{"-n1"}, true}, {[]string{"--exclusive"}, true}}, ""},
	{"exclusive", `{OverSubscribe: EXCLUSIVE, ExclusiveUser: "YES"}`, nil,
		[]shapeJob{{[]string{"-n1", "--mem=1G"}, true}}, ""},
	{"exclusivememcpu", `{OverSubscribe: EXCLUSIVE, DefMemPerCPU: "20000"}`, map[string]diag.Severity{"memory-default-unfit": diag.Error},
		[]shapeJob{{[]string{"-n1"}, false}, {[]string{"-n1", "--mem=1G"}, true}}, ""},
	{"exclusivememgpu", `{OverSubscribe: EXCLUSIVE, DefMemPerGPU: "600000"}`, map[string]diag.Severity{"memory-default-unfit": diag.Error},
		[]shapeJob{{[]string{"--gpus=1", "--mem=1G"}, false}, {[]string{"--gpus=1", "--mem-per-gpu=1G"}, true}, {[]string{"-n1"}, true}}, ""},
	{"exclusivecap", `{OverSubscribe: EXCLUSIVE, MaxCPUsPerNode: "8"}`, map[string]diag.Severity{"shape-cpu-limit": diag.Error},
		[]shapeJob{{[]string{"-n1", "--mem=1G"}, false}, {[]string{"--gpus=1", "--mem=1G"}, false}}, ""},
	// a4s keeps 220 of its 224 CPUs for the system (CoreSpecCount).
	{"corespec", `{DefCpuPerGPU: "1"}`, map[string]diag.Severity{"shape-cpu-limit": diag.Warning},
		[]shapeJob{{[]string{"--gpus=8", "--mem=1G"}, false}, {[]string{"--gpus=4", "--mem=1G"}, true}, {[]string{"--exclusive", "--mem=1G"}, true}}, "a4s"},
	{"corespecok", `{}`, nil,
		[]shapeJob{{[]string{"--gpus=8", "--mem=1G"}, true}, {[]string{"-n1"}, true}}, "a4s"},
}

// crCorePartitions are tried with SelectTypeParameters=CR_Core, which
// tracks no memory: MaxMemPerNode and MaxMemPerCPU still stop a job that
// has no memory default, and DefMemPerGPU stops nothing.
var crCorePartitions = []shapePartition{
	{"maxmemnode", `{MaxMemPerNode: "100000"}`, map[string]diag.Severity{"shape-mem-limit": diag.Warning},
		[]shapeJob{{[]string{"-n1"}, false}, {[]string{"-n1", "--mem=1G"}, true}, {[]string{"-n1", "--mem=200G"}, false}}, ""},
	{"maxmemcpu", `{MaxMemPerCPU: "2000"}`, map[string]diag.Severity{"shape-mem-limit": diag.Warning},
		[]shapeJob{{[]string{"-n1"}, false}, {[]string{"-n1", "--mem=1G"}, true}}, ""},
	{"defmemgpu", `{DefMemPerGPU: "600000"}`, nil,
		[]shapeJob{{[]string{"--gpus=8"}, true}}, ""},
}

// shapesSpec is a cluster of two static A4 nodes (pool a4) and one whose
// node set keeps 220 CPUs for the system (pool a4s), with the given
// cluster config (a YAML flow map) and partitions.
func shapesSpec(name, config string, parts []shapePartition) spec {
	var b strings.Builder
	b.WriteString(`nodePools:
- id: a4
  machineSpec: {machineType: a4-highgpu-8g}
  provisioningModel: SPOT
  scalingSpec: {minNodeCount: 2, maxNodeCount: 2}
  bootDisk: {bootDiskType: hyperdisk-balanced}
  zone: us-central1-b
- id: a4s
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
    config: ` + config + `
    nodeSets:
    - {nodePoolId: a4s, config: {CoreSpecCount: "220"}}
    defaultPartitionId: ` + parts[0].id + `
    partitions:
`)
	for _, p := range parts {
		pool := p.pool
		if pool == "" {
			pool = "a4"
		}
		fmt.Fprintf(&b, "    - {id: %s, nodePoolIds: [%s], config: %s}\n", p.id, pool, p.config)
	}
	return spec{name: name, data: []byte(b.String())}
}

// shapeRules are the rules TestShapeRules checks (memory-default-unfit for
// the whole-node partitions).
var shapeRules = []string{"shape-node-limits", "shape-time-limit", "shape-cpu-limit", "shape-mem-limit", "memory-default-unfit"}

// TestShapeRules checks on real slurmctld of every release what the
// shape-* rules say (issue 26): for each partition of shapesSpec, the
// findings lint gives, and that Slurm runs, or refuses or leaves pending,
// each job as the finding says; and that the look-alike settings the rules
// leave alone run their jobs. A job without --time in a MaxTime=0
// partition runs with a time limit of 0 and ends as TIMEOUT.
func TestShapeRules(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			// Two clusters, side by side: they share nothing.
			t.Run("default", func(t *testing.T) {
				t.Parallel()
				cl := checkShapes(t, release, shapesSpec("shapes.yaml", "{}", shapePartitions), shapePartitions)
				cl.timeLimitZero(t)
				cl.stopAndCheck(t)
			})
			t.Run("CR_Core", func(t *testing.T) {
				t.Parallel()
				cl := checkShapes(t, release, shapesSpec("shapes-cr-core.yaml", "{SelectTypeParameters: CR_Core}", crCorePartitions), crCorePartitions)
				cl.stopAndCheck(t)
			})
		})
	}
}

// checkShapes lints s for a release and checks, for each partition, the
// findings of the shape rules; then starts the spec (the shape rules
// disabled) with a stand-in for each static node, and checks each job's
// verdict. It returns the running cluster.
func checkShapes(t *testing.T, release string, s spec, parts []shapePartition) *cluster {
	t.Helper()
	all := compileSpecVersion(t, s, release)
	for _, p := range parts {
		for _, rule := range shapeRules {
			var got []diag.Severity
			for _, d := range all.diags {
				if d.Rule == rule && strings.Contains(d.Message, fmt.Sprintf("partition %q", p.id)) {
					got = append(got, d.Severity)
				}
			}
			want, ok := p.findings[rule]
			switch {
			case ok && !slices.Contains(got, want):
				t.Errorf("%s, partition %s: want a %s from %s, got %v:\n%s", s.name, p.id, want, rule, got, allText(all.diags))
			case !ok && len(got) > 0:
				t.Errorf("%s, partition %s: %s reports %v, want nothing", s.name, p.id, rule, got)
			}
		}
	}
	sp := compileSpecVersion(t, s, release, shapeRules...)
	if sp.cluster == nil || sp.diags.HasErrors() {
		t.Fatalf("%s must lint without errors (the shape rules disabled):\n%s", s.name, errorsText(sp.diags))
	}
	dir, _ := renderSpecVersion(t, sp, release)
	var static []string
	for _, id := range []string{"a4", "a4s"} {
		st, _ := poolNodes(sp.cluster, sp.cluster.Pool(id))
		static = append(static, st...)
	}
	cl := start(t, dir, localslurm.Options{Release: release, Accounting: true, StandIns: static})
	for _, p := range parts {
		for _, j := range p.jobs {
			v := cl.verdict(t, p.id, j.args...)
			if (v == "runs") != j.accepts {
				t.Errorf("%s, partition %s (%s), sbatch %s: %s, want running %v", s.name, p.id, p.config, strings.Join(j.args, " "), v, j.accepts)
			}
		}
	}
	return cl
}

// timeLimitZero checks that a job without --time in the MaxTime=0
// partition starts with a time limit of 0 and is ended as TIMEOUT.
func (cl *cluster) timeLimitZero(t *testing.T) {
	t.Helper()
	id := cl.submit(t, "-p", "maxtime0", "--mem=1G", "-D", "/tmp", "-o", "/dev/null", "--wrap", "sleep 300")
	f := cl.waitJob(t, id, "started", func(f localslurm.Fields) bool { return f["JobState"] != "PENDING" })
	if f["TimeLimit"] != "00:00:00" {
		t.Errorf("MaxTime=0: job %s TimeLimit=%s, want 00:00:00", id, f["TimeLimit"])
	}
	deadline := time.Now().Add(3 * jobTimeout)
	for !finished(f["JobState"]) && time.Now().Before(deadline) {
		time.Sleep(time.Second)
		f = cl.job(t, id)
	}
	if f["JobState"] != "TIMEOUT" {
		t.Errorf("MaxTime=0: job %s without --time is %s (Reason=%s) after %v, want TIMEOUT", id, f["JobState"], f["Reason"], 3*jobTimeout)
	}
	if !finished(f["JobState"]) {
		cl.cancelAndIdle(t, id)
	}
}
