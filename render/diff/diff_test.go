package diff

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/render"
)

// base is the spec every test edits.
const base = `# A small cluster: one CPU pool, a login pool, two partitions.
displayName: train
labels:
  team: research
  cost-center: ml-42
network:
  network: projects/acme-ml/global/networks/ml-vpc
nodePools:
  - id: cpu
    machineSpec:
      machineType: n2-standard-8
    scalingSpec:
      minNodeCount: 1
      maxNodeCount: 4
    zone: us-central1-b
  - id: login
    machineSpec:
      machineType: n2-standard-4
    scalingSpec:
      minNodeCount: 1
      maxNodeCount: 1
    zone: us-central1-b
orchestratorSpec:
  slurmSpec:
    loginNodePoolId: login
    homeDirectoryStorage: projects/acme-ml/locations/us-central1-b/instances/home
    defaultPartitionId: train
    partitions:
      - id: train
        nodePoolIds: [cpu]
        config:
          PriorityTier: "10"
          PreemptMode: "OFF"
      - id: preempt
        nodePoolIds: [cpu]
        config:
          PriorityTier: "1"
          PreemptMode: REQUEUE
    nodeSets:
      - nodePoolId: cpu
        config:
          Features: cpu
    config:
      PreemptType: preempt/partition_prio
      PreemptMode: REQUEUE
      PriorityWeightAge: "1000"
    prologBashScripts:
      - |
        #!/bin/bash
        echo prolog
`

// renderer renders specs through the real pipeline.
type renderer struct {
	t *testing.T
}

func newRenderer(t *testing.T) *renderer {
	t.Helper()
	return &renderer{t}
}

// render renders a YAML spec for a Slurm series, failing on any error.
func (r *renderer) render(spec, version string) render.Set {
	r.t.Helper()
	set, l := render.Render(pipelinetest.Compile(r.t, "spec.yaml", spec), render.Options{SlurmVersion: version})
	if l.HasErrors() {
		r.t.Fatalf("render: %v", l)
	}
	return set
}

// compare renders old and new for a series and compares them.
func (r *renderer) compare(old, new, version string) *Report {
	r.t.Helper()
	rep, err := Compare(r.render(old, version), r.render(new, version))
	if err != nil {
		r.t.Fatal(err)
	}
	return rep
}

// edit replaces each old string of the pairs in spec, which must hold it.
func edit(t *testing.T, spec string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(spec, pairs[i]) {
			t.Fatalf("spec has no %q", pairs[i])
		}
		spec = strings.Replace(spec, pairs[i], pairs[i+1], 1)
	}
	return spec
}

// find returns the changes of a kind whose subject contains what.
func find(rep *Report, kind Kind, what string) []Change {
	var out []Change
	for _, c := range rep.Changes {
		if c.Kind == kind && strings.Contains(c.Subject(), what) {
			out = append(out, c)
		}
	}
	return out
}

func one(t *testing.T, rep *Report, kind Kind, what string) Change {
	t.Helper()
	cs := find(rep, kind, what)
	if len(cs) != 1 {
		t.Fatalf("want one %s change on %q, got %d; report:\n%s", kind, what, len(cs), text(t, rep))
	}
	return cs[0]
}

func text(t *testing.T, rep *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestNoSemanticChange(t *testing.T) {
	r := newRenderer(t)
	for name, spec := range map[string]string{
		"identical": base,
		"comments only": edit(t, base,
			"# A small cluster", "# Another comment entirely",
			"    zone: us-central1-b\n  - id: login", "    zone: us-central1-b # the zone\n  # login pool\n  - id: login"),
		"reordered maps": edit(t, base,
			"  team: research\n  cost-center: ml-42\n", "  cost-center: ml-42\n  team: research\n",
			"          PriorityTier: \"10\"\n          PreemptMode: \"OFF\"\n", "          PreemptMode: \"OFF\"\n          PriorityTier: \"10\"\n",
			"      PreemptType: preempt/partition_prio\n      PreemptMode: REQUEUE\n", "      PreemptMode: REQUEUE\n      PreemptType: preempt/partition_prio\n",
			"    scalingSpec:\n      minNodeCount: 1\n      maxNodeCount: 4\n    zone: us-central1-b\n", "    zone: us-central1-b\n    scalingSpec:\n      maxNodeCount: 4\n      minNodeCount: 1\n"),
		"other spelling": edit(t, base,
			"      PreemptMode: REQUEUE\n      PriorityWeightAge", "      preemptmode: REQUEUE\n      PriorityWeightAge",
			"PriorityTier: \"1\"\n", "prioritytier: \"1\"\n",
			"nodePoolIds: [cpu]\n        config:\n          PriorityTier: \"10\"", "node_pool_ids: [cpu]\n        config:\n          PriorityTier: \"10\"",
			"loginNodePoolId: login", "login_node_pool_id: login"),
		"explicit API defaults": edit(t, base,
			"      machineType: n2-standard-4\n", "      machineType: n2-standard-4\n    provisioningModel: ON_DEMAND\n    enablePublicIps: false\n    bootDisk:\n      bootDiskSizeGb: 100\n"),
	} {
		t.Run(name, func(t *testing.T) {
			rep := r.compare(base, spec, "26.05")
			if rep.HasChanges() || rep.MaxImpact() != None {
				t.Errorf("want no change, got:\n%s", text(t, rep))
			}
			if got := text(t, rep); got != "slurmspec: no changes; target Slurm 26.05\n" {
				t.Errorf("text = %q", got)
			}
		})
	}
}

// TestCommentsAndKeyCaseInSlurmConf edits a rendered slurm.conf directly:
// comments, blank lines, key case, pair order and host list spelling are
// not changes.
func TestCommentsAndKeyCaseInSlurmConf(t *testing.T) {
	r := newRenderer(t)
	old := r.render(base, "26.05")
	conf := string(old.Get("slurm.conf").Data)
	var lines []string
	for _, l := range strings.Split(conf, "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
			l = "# " + strings.ToUpper(l) + " nodePools[7]"
		case strings.HasPrefix(l, "PreemptType="):
			l = "preempttype=preempt/partition_prio   # trailing comment"
		case strings.HasPrefix(l, "PartitionName=train "):
			l = "PartitionName=train PriorityTier=10 Default=yes PreemptMode=OFF nodes=cpu"
		case strings.HasPrefix(l, "NodeSet=cpu"):
			l = "NodeSet=cpu Nodes=c-cpu-0,c-cpu-[1-2],\\\nc-cpu-3" // a continued line: Slurm joins it as written
		}
		lines = append(lines, l, "")
	}
	new := make(render.Set, len(old))
	copy(new, old)
	for i := range new {
		if new[i].Path == "slurm.conf" {
			new[i].Data = []byte(strings.Join(lines, "\n"))
		}
	}
	rep, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	if rep.HasChanges() {
		t.Errorf("want no change, got:\n%s", text(t, rep))
	}
}

func TestInPlace(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base,
		"displayName: train", "displayName: training",
		"team: research", "team: infra",
		"      machineType: n2-standard-4\n", "      machineType: n2-standard-4\n    bootDisk:\n      bootDiskSizeGb: 200\n",
		"echo prolog", "echo prolog v2",
	), "26.05")
	if got := rep.MaxImpact(); got != InPlace {
		t.Fatalf("max impact = %v, want in-place:\n%s", got, text(t, rep))
	}
	if c := one(t, rep, KindCluster, "displayName"); c.Old != "train" || c.New != "training" || c.HurtsJobs != "" {
		t.Errorf("displayName change = %+v", c)
	}
	one(t, rep, KindCluster, "labels.team")
	if c := one(t, rep, KindNodePool, "login bootDisk.bootDiskSizeGb"); c.Old != "100" || c.New != "200" {
		t.Errorf("boot disk change = %+v (the API default 100 is the old value)", c)
	}
	s := one(t, rep, KindScript, "prologBashScripts[0]")
	if !strings.Contains(s.Diff, "-echo prolog\n+echo prolog v2\n") {
		t.Errorf("script diff:\n%s", s.Diff)
	}
	if len(rep.Changes) != 4 {
		t.Errorf("want 4 changes, got:\n%s", text(t, rep))
	}
	if got, want := rep.Summary(), "4 changes — applies in place"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
}

func TestReconfigure(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base,
		`PriorityWeightAge: "1000"`, `PriorityWeightAge: "2000"`,
		"          Features: cpu", "          Features: cpu,fast",
	), "26.05")
	if got := rep.MaxImpact(); got != Reconfigure {
		t.Fatalf("max impact = %v, want reconfigure:\n%s", got, text(t, rep))
	}
	c := one(t, rep, KindGlobal, "PriorityWeightAge")
	if c.Op != OpChanged || c.Old != "1000" || c.New != "2000" || c.HurtsJobs != "" {
		t.Errorf("change = %+v", c)
	}
	n := one(t, rep, KindNode, "Features")
	if n.Path != "c-cpu-[0-3]" || n.Old != "cpu" || n.New != "cpu,fast" || n.Impact != Reconfigure {
		t.Errorf("node change = %+v", n)
	}
}

func TestRestart(t *testing.T) {
	r := newRenderer(t)
	spec := edit(t, base, "      PriorityWeightAge", "      SelectTypeParameters: CR_CPU_Memory\n      PriorityWeightAge")

	// Before 23.11 scontrol reconfigure re-reads slurm.conf in the running
	// daemons, which cannot change SelectTypeParameters.
	rep := r.compare(base, spec, "23.02")
	c := one(t, rep, KindGlobal, "SelectTypeParameters")
	if c.Impact != Restart || c.Old != "CR_Core_Memory" || c.New != "CR_CPU_Memory" {
		t.Errorf("23.02: change = %+v", c)
	}
	if !strings.Contains(c.Reason, "slurm.conf(5) 22.05/23.02") || !strings.Contains(c.Reason, "Slurm 23.02") {
		t.Errorf("reason does not cite its source: %q", c.Reason)
	}
	if got := rep.Summary(); got != "1 change — restarts slurmctld" {
		t.Errorf("summary = %q", got)
	}
	if rep.SlurmVersion != "23.02" {
		t.Errorf("version read from the header = %q", rep.SlurmVersion)
	}

	// From 23.11 reconfigure starts new daemons, which read it afresh.
	rep = r.compare(base, spec, "26.05")
	if c := one(t, rep, KindGlobal, "SelectTypeParameters"); c.Impact != Reconfigure {
		t.Errorf("26.05: change = %+v", c)
	}

	// Listening settings and TLS need a restart in every series.
	rep = r.compare(base, edit(t, base, "      PriorityWeightAge", "      TLSType: tls/s2n\n      PriorityWeightAge"), "26.05")
	if c := one(t, rep, KindGlobal, "TLSType"); c.Impact != Restart || c.Op != OpAdded || !strings.Contains(c.Reason, "unsure") {
		t.Errorf("TLSType change = %+v", c)
	}

	// Up to 23.02, adding nodes needs a restart too.
	rep = r.compare(base, edit(t, base, "maxNodeCount: 4", "maxNodeCount: 6"), "23.02")
	n := one(t, rep, KindNode, "c-cpu-[4-5]")
	if n.Op != OpAdded || n.Impact != Restart || n.New != "CPUs=8 Features=cpu RealMemory=31408 State=CLOUD" {
		t.Errorf("node change = %+v", n)
	}
}

func TestRestartOption(t *testing.T) {
	r := newRenderer(t)
	old := edit(t, base, "      PriorityWeightAge", "      SchedulerParameters: bf_continue\n      PriorityWeightAge")
	rep := r.compare(old, edit(t, old, "bf_continue", "bf_continue,bf_interval=60"), "23.02")
	if c := one(t, rep, KindGlobal, "SchedulerParameters"); c.Impact != Reconfigure {
		t.Errorf("option without a restart rule: %+v", c)
	}
	rep = r.compare(old, edit(t, old, "bf_continue", "bf_continue,no_backup_scheduling"), "23.02")
	if c := one(t, rep, KindGlobal, "SchedulerParameters"); c.Impact != Restart {
		t.Errorf("no_backup_scheduling toggled: %+v", c)
	}
}

// TestPoolFieldReplacesCluster: a ForceNew field inside nodePools[]
// replaces the whole cluster (pulumi-gcp), not only the pool.
func TestPoolFieldReplacesCluster(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base, "machineType: n2-standard-8", "machineType: n2-standard-16"), "26.05")
	if got := rep.MaxImpact(); got != ReplaceCluster {
		t.Fatalf("max impact = %v:\n%s", got, text(t, rep))
	}
	c := rep.Changes[0]
	if c.Kind != KindNodePool || c.Path != "cpu" || c.Key != "machineSpec.machineType" || c.Old != "n2-standard-8" || c.New != "n2-standard-16" {
		t.Errorf("first change = %+v", c)
	}
	if c.HurtsJobs == "" || !strings.Contains(c.Reason, "forces replacement") || !strings.Contains(c.Reason, "the whole cluster is replaced") {
		t.Errorf("replacement must say why and that it hurts jobs: %+v", c)
	}
	// The new machine also changes the nodes' CPUs and memory.
	if cs := find(rep, KindNode, "CPUs"); len(cs) != 1 || cs[0].Old != "8" || cs[0].New != "16" {
		t.Errorf("CPUs changes = %+v", cs)
	}
	if got := rep.Summary(); !strings.Contains(got, "replaces the whole cluster") {
		t.Errorf("summary = %q", got)
	}
	for _, tt := range []struct{ what, old, new string }{
		{"provisioningModel", "      machineType: n2-standard-4\n", "      machineType: n2-standard-4\n    provisioningModel: SPOT\n"},
		{"confidentialInstanceConfig.confidentialInstanceType", "      machineType: n2-standard-4\n", "      machineType: n2-standard-4\n    confidentialInstanceConfig: {confidentialInstanceType: SEV}\n"},
	} {
		rep := r.compare(base, edit(t, base, tt.old, tt.new), "26.05")
		if c := one(t, rep, KindNodePool, tt.what); c.Impact != ReplaceCluster {
			t.Errorf("%s: %+v", tt.what, c)
		}
	}
	// Mutable pool fields stay in place.
	rep = r.compare(base, edit(t, base, "maxNodeCount: 4", "maxNodeCount: 6"), "26.05")
	if c := one(t, rep, KindNodePool, "scalingSpec.maxNodeCount"); c.Impact != InPlace {
		t.Errorf("scaling: %+v", c)
	}
}

// TestReorderedPoolsReplaceCluster: the provider compares nodePools
// element by element, so a new order replaces the cluster.
func TestReorderedPoolsReplaceCluster(t *testing.T) {
	r := newRenderer(t)
	for name, spec := range map[string]string{
		"reordered node pools": edit(t, base,
			"  - id: cpu\n    machineSpec:\n      machineType: n2-standard-8\n    scalingSpec:\n      minNodeCount: 1\n      maxNodeCount: 4\n    zone: us-central1-b\n", "",
			"    zone: us-central1-b\norchestratorSpec:", "    zone: us-central1-b\n  - id: cpu\n    machineSpec:\n      machineType: n2-standard-8\n    scalingSpec:\n      minNodeCount: 1\n      maxNodeCount: 4\n    zone: us-central1-b\norchestratorSpec:"),
	} {
		rep := r.compare(base, spec, "26.05")
		c := one(t, rep, KindNodePool, "node pool order")
		if c.Impact != ReplaceCluster || c.Old != "cpu, login" || c.New != "login, cpu" || len(rep.Changes) != 1 {
			t.Errorf("%s: %+v\n%s", name, c, text(t, rep))
		}
	}
}

func TestReplaceCluster(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base, "instances/home", "instances/home2"), "26.05")
	c := one(t, rep, KindCluster, "homeDirectoryStorage")
	if c.Impact != ReplaceCluster || c.HurtsJobs == "" || rep.MaxImpact() != ReplaceCluster {
		t.Errorf("change = %+v", c)
	}
	if len(rep.Changes) != 1 {
		t.Errorf("want 1 change:\n%s", text(t, rep))
	}
	if got := rep.Summary(); got != "1 change — replaces the whole cluster, 1 may hurt running jobs" {
		t.Errorf("summary = %q", got)
	}

	rep = r.compare(base, edit(t, base, "networks/ml-vpc", "networks/other"), "26.05")
	if c := one(t, rep, KindCluster, "network.network"); c.Impact != ReplaceCluster {
		t.Errorf("network change = %+v", c)
	}

	// The resource name is not in the rendered files; the caller passes it.
	set := r.render(base, "26.05")
	rep, err := CompareWith(set, set, Options{
		OldName: "projects/acme-ml/locations/us-central1/modelDevelopmentClusters/c",
		NewName: "projects/acme-ml/locations/europe-west4/modelDevelopmentClusters/c"})
	if err != nil {
		t.Fatal(err)
	}
	if c := one(t, rep, KindCluster, "name"); c.Impact != ReplaceCluster {
		t.Errorf("name change = %+v", c)
	}
}

func TestRemovedPartitionHurtsJobs(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base,
		"      - id: preempt\n        nodePoolIds: [cpu]\n        config:\n          PriorityTier: \"1\"\n          PreemptMode: REQUEUE\n", ""), "26.05")
	c := one(t, rep, KindPartition, "partition preempt")
	if c.Op != OpRemoved || c.Key != "" || !strings.Contains(c.HurtsJobs, "cancelled") {
		t.Errorf("change = %+v", c)
	}
	if c.Old != "Nodes=cpu PreemptMode=REQUEUE PriorityTier=1" {
		t.Errorf("old line = %q", c.Old)
	}
	if len(rep.Changes) != 1 {
		t.Errorf("want 1 change:\n%s", text(t, rep))
	}
}

func TestDefaultPartitionMoved(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base, "defaultPartitionId: train", "defaultPartitionId: preempt"), "26.05")
	c := one(t, rep, KindPartition, "default partition")
	if c.Old != "train" || c.New != "preempt" || c.Impact != Reconfigure || !strings.Contains(c.HurtsJobs, "preempt instead of train") {
		t.Errorf("change = %+v", c)
	}
	if len(rep.Changes) != 1 {
		t.Errorf("want 1 change:\n%s", text(t, rep))
	}
	// Without defaultPartitionId the first partition is the default, so
	// swapping the partitions moves it.
	noDefault := edit(t, base, "    defaultPartitionId: train\n", "")
	swapped := edit(t, noDefault,
		"      - id: train\n        nodePoolIds: [cpu]\n        config:\n          PriorityTier: \"10\"\n          PreemptMode: \"OFF\"\n", "",
		"          PreemptMode: REQUEUE\n    nodeSets", "          PreemptMode: REQUEUE\n      - id: train\n        nodePoolIds: [cpu]\n        config:\n          PriorityTier: \"10\"\n          PreemptMode: \"OFF\"\n    nodeSets")
	rep = r.compare(noDefault, swapped, "26.05")
	if c := one(t, rep, KindPartition, "default partition"); c.Old != "train" || c.New != "preempt" {
		t.Errorf("swapped partitions: %+v", c)
	}
}

func TestMaxNodeCountLowered(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base, "maxNodeCount: 4", "maxNodeCount: 2"), "26.05")
	p := one(t, rep, KindNodePool, "cpu scalingSpec.maxNodeCount")
	if p.Impact != InPlace || p.HurtsJobs != "nodes c-cpu-[2-3] may be deleted under running jobs" {
		t.Errorf("pool change = %+v", p)
	}
	n := one(t, rep, KindNode, "c-cpu-[2-3]")
	if n.Op != OpRemoved || n.HurtsJobs == "" {
		t.Errorf("node change = %+v", n)
	}
	one(t, rep, KindNodeSet, "cpu Nodes")
	// Raising it hurts nothing.
	rep = r.compare(base, edit(t, base, "maxNodeCount: 4", "maxNodeCount: 8"), "26.05")
	if n := rep.HurtsJobs(); n != 0 {
		t.Errorf("raising maxNodeCount: %d changes hurt jobs:\n%s", n, text(t, rep))
	}
}

func TestPreemptionChanges(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base,
		"      PreemptMode: REQUEUE\n      PriorityWeightAge", "      PreemptMode: CANCEL\n      PriorityWeightAge",
		`PriorityTier: "1"`, `PriorityTier: "5"`,
		`PreemptMode: "OFF"`, `PreemptMode: SUSPEND`), "26.05")
	for _, c := range []Change{
		one(t, rep, KindGlobal, "PreemptMode"),
		one(t, rep, KindPartition, "preempt PriorityTier"),
		one(t, rep, KindPartition, "train PreemptMode"),
	} {
		if c.HurtsJobs == "" || !strings.Contains(c.HurtsJobs, "preempted") || c.Impact != Reconfigure {
			t.Errorf("change %v: hurts = %q, impact %v", c, c.HurtsJobs, c.Impact)
		}
	}
	if rep.HurtsJobs() != 3 {
		t.Errorf("want 3 changes that hurt jobs:\n%s", text(t, rep))
	}
}

// TestPreemptionChangesWithoutPartitionPrio: without
// preempt/partition_prio a partition's tier or mode preempts nothing
// (checked with jobs: lab/localslurm/realslurm TestPreemptionDiffWithJobs
// and TestPreemptionWithJobs), so diff does not say such a change hurts
// running jobs, and says why.
func TestPreemptionChangesWithoutPartitionPrio(t *testing.T) {
	r := newRenderer(t)
	for _, tc := range []struct{ name, preemptType, want string }{
		{"unset", "", "PreemptType is unset"},
		{"qos", "      PreemptType: preempt/qos\n", "PreemptType=preempt/qos"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := edit(t, base, "      PreemptType: preempt/partition_prio\n", tc.preemptType)
			rep := r.compare(old, edit(t, old, `PriorityTier: "1"`, `PriorityTier: "5"`, `PreemptMode: "OFF"`, `PreemptMode: CANCEL`), "26.05")
			for _, c := range []Change{one(t, rep, KindPartition, "preempt PriorityTier"), one(t, rep, KindPartition, "train PreemptMode")} {
				if c.HurtsJobs != "" || !strings.Contains(c.Reason, "it preempts no running job: "+tc.want) {
					t.Errorf("change %v: hurts = %q, reason %q", c, c.HurtsJobs, c.Reason)
				}
			}
		})
	}
}

// TestPartitionNodesPreempt: under preempt/partition_prio a partition that
// gains nodes may preempt the running jobs of lower-tier partitions there
// (checked with jobs: lab/localslurm/realslurm TestPreemptionDiffWithJobs);
// one that gains nodes no lower-tier partition with preemptable jobs
// holds hurts none.
func TestPartitionNodesPreempt(t *testing.T) {
	r := newRenderer(t)
	withGPU := edit(t, base, "    zone: us-central1-b\n  - id: login",
		"    zone: us-central1-b\n  - id: gpu\n    machineSpec:\n      machineType: n2-standard-8\n    scalingSpec:\n      minNodeCount: 1\n      maxNodeCount: 1\n    zone: us-central1-b\n  - id: login")
	trainOnGPU := edit(t, withGPU, "      - id: train\n        nodePoolIds: [cpu]", "      - id: train\n        nodePoolIds: [gpu]")
	for _, tc := range []struct {
		name, old, new, subject string
		hurts                   bool
	}{
		{"high tier gains the low tier's nodes", trainOnGPU, withGPU, "train Nodes", true},
		{"low tier gains the high tier's nodes", trainOnGPU, edit(t, trainOnGPU, "      - id: preempt\n        nodePoolIds: [cpu]", "      - id: preempt\n        nodePoolIds: [cpu, gpu]"), "preempt Nodes", false},
		{"without partition_prio", edit(t, trainOnGPU, "      PreemptType: preempt/partition_prio\n", ""), edit(t, withGPU, "      PreemptType: preempt/partition_prio\n", ""), "train Nodes", false},
		{"lower tier not preemptable", edit(t, trainOnGPU, "PreemptMode: REQUEUE\n    nodeSets", "PreemptMode: \"OFF\"\n    nodeSets"), edit(t, withGPU, "PreemptMode: REQUEUE\n    nodeSets", "PreemptMode: \"OFF\"\n    nodeSets"), "train Nodes", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := one(t, r.compare(tc.old, tc.new, "26.05"), KindPartition, tc.subject)
			if (c.HurtsJobs != "") != tc.hurts {
				t.Errorf("change %v: hurts = %q, want hurting %v", c, c.HurtsJobs, tc.hurts)
			}
		})
	}
}

// TestPreemptExemptTimeChanges: a shorter (or removed) PreemptExemptTime
// may preempt running jobs at once (checked with jobs: lab/localslurm/realslurm
// TestPreemptionDiffWithJobs); a longer one hurts none.
func TestPreemptExemptTimeChanges(t *testing.T) {
	r := newRenderer(t)
	withExempt := func(v string) string {
		return edit(t, base, "      PriorityWeightAge", "      PreemptExemptTime: \""+v+"\"\n      PriorityWeightAge")
	}
	for _, tc := range []struct {
		name, old, new string
		hurts          bool
	}{
		{"shortened", withExempt("01:00:00"), withExempt("00:00:01"), true},
		{"removed", withExempt("10"), base, true},
		{"lengthened", withExempt("00:00:01"), withExempt("01:00:00"), false},
		{"added", base, withExempt("10"), false},
		{"to UNLIMITED", withExempt("10"), withExempt("UNLIMITED"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := one(t, r.compare(tc.old, tc.new, "26.05"), KindGlobal, "PreemptExemptTime")
			if (c.HurtsJobs != "") != tc.hurts {
				t.Errorf("change %v: hurts = %q, want hurting %v", c, c.HurtsJobs, tc.hurts)
			}
		})
	}
}

// TestEffectiveValues: a partition key that falls back to the global one
// is compared by what Slurm uses. The preempt partition's PreemptMode
// removed while the global PreemptMode is the same value changes nothing
// for jobs; removed while the global one differs, it does, and the report
// says which value applies; a global change names the partitions that
// take it.
func TestEffectiveValues(t *testing.T) {
	r := newRenderer(t)
	removed := edit(t, base, "          PriorityTier: \"1\"\n          PreemptMode: REQUEUE\n", "          PriorityTier: \"1\"\n")
	rep := r.compare(base, removed, "26.05")
	c := one(t, rep, KindPartition, "preempt PreemptMode")
	if c.HurtsJobs != "" || c.Effective != "unchanged (REQUEUE, now the global PreemptMode)" || rep.HurtsJobs() != 0 {
		t.Errorf("same global value: hurts %q, effective %q:\n%s", c.HurtsJobs, c.Effective, text(t, rep))
	}

	otherGlobal := edit(t, removed, "      PreemptMode: REQUEUE\n      PriorityWeightAge", "      PreemptMode: CANCEL\n      PriorityWeightAge")
	rep = r.compare(base, otherGlobal, "26.05")
	c = one(t, rep, KindPartition, "preempt PreemptMode")
	if c.HurtsJobs == "" || c.Effective != "REQUEUE (the partition's own) → CANCEL (the global PreemptMode)" {
		t.Errorf("another global value: hurts %q, effective %q", c.HurtsJobs, c.Effective)
	}
	g := one(t, rep, KindGlobal, "PreemptMode")
	if g.Effective != "partitions that take it (no PreemptMode of their own): preempt" {
		t.Errorf("global change: effective %q", g.Effective)
	}

	// No global value: Slurm's default, OFF, is what the train partition
	// had written.
	noGlobal := edit(t, base, "      PreemptMode: REQUEUE\n      PriorityWeightAge", "      PriorityWeightAge",
		"          PriorityTier: \"10\"\n          PreemptMode: \"OFF\"\n", "          PriorityTier: \"10\"\n")
	rep = r.compare(edit(t, base, "      PreemptMode: REQUEUE\n      PriorityWeightAge", "      PriorityWeightAge"), noGlobal, "26.05")
	c = one(t, rep, KindPartition, "train PreemptMode")
	if c.HurtsJobs != "" || c.Effective != "unchanged (OFF, now Slurm's default)" {
		t.Errorf("default: hurts %q, effective %q", c.HurtsJobs, c.Effective)
	}
}

// TestSummaryAndConfLines: the headline lists the most severe impact
// first; the slurm.conf block shows whole lines as slurm.conf holds them;
// every change says who applies it; no source uses the abbreviations I or
// FN.
func TestSummaryAndConfLines(t *testing.T) {
	rep := representative(t)
	if got := rep.Summary(); !strings.HasPrefix(got, "11 changes — replaces the whole cluster,") {
		t.Errorf("summary %q", got)
	}
	for _, want := range []string{"\n-PartitionName=train Nodes=cpu Default=YES PreemptMode=OFF PriorityTier=10\n", "\n+PartitionName=train Nodes=cpu PreemptMode=OFF PriorityTier=20\n"} {
		if !strings.Contains(rep.ConfDiff, want) {
			t.Errorf("slurm.conf diff lacks the whole line %q:\n%s", want, rep.ConfDiff)
		}
	}
	if strings.Contains(rep.ConfDiff, "#") {
		t.Errorf("slurm.conf diff shows comments:\n%s", rep.ConfDiff)
	}
	for _, c := range rep.Changes {
		if c.AppliedBy == "" || c.AppliedBy != c.Impact.AppliedBy() {
			t.Errorf("%v: applied by %q", c, c.AppliedBy)
		}
		if strings.Contains(c.Reason, " I;") || strings.Contains(c.Reason, " FN") {
			t.Errorf("%v: abbreviation in %q", c, c.Reason)
		}
	}
}

func TestSelectTypeLosesJobs(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base, "      PriorityWeightAge", "      SelectType: select/linear\n      PriorityWeightAge"), "26.05")
	c := one(t, rep, KindGlobal, "SelectType")
	if c.Impact != Reconfigure || !strings.Contains(c.HurtsJobs, "jobs are lost") {
		t.Errorf("change = %+v", c)
	}
}

func TestScriptsAddedAndRemoved(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base,
		"    prologBashScripts:\n      - |\n        #!/bin/bash\n        echo prolog\n",
		"    epilogBashScripts:\n      - |\n        #!/bin/bash\n        echo epilog\n"), "26.05")
	if c := one(t, rep, KindScript, "epilogBashScripts[0]"); c.Op != OpAdded || !strings.Contains(c.Diff, "+echo epilog") {
		t.Errorf("epilog = %+v", c)
	}
	if c := one(t, rep, KindScript, "prologBashScripts[0]"); c.Op != OpRemoved {
		t.Errorf("prolog = %+v", c)
	}
	if c := one(t, rep, KindGlobal, "Epilog"); c.Op != OpAdded || c.Impact != Reconfigure || c.New != "/etc/slurm/epilog.d/*" {
		t.Errorf("Epilog key = %+v", c)
	}
	one(t, rep, KindGlobal, "Prolog")
}

func TestNodePoolAddedAndRemoved(t *testing.T) {
	r := newRenderer(t)
	spec := edit(t, base,
		"  - id: login\n", "  - id: gpu\n    machineSpec:\n      machineType: n2-standard-16\n    scalingSpec:\n      maxNodeCount: 2\n  - id: login\n",
		"nodePoolIds: [cpu]\n        config:\n          PriorityTier: \"1\"", "nodePoolIds: [gpu, cpu]\n        config:\n          PriorityTier: \"1\"")
	rep := r.compare(base, spec, "26.05")
	if c := one(t, rep, KindNodePool, "node pool gpu"); c.Op != OpAdded || c.Impact != ReplaceCluster || c.HurtsJobs == "" {
		t.Errorf("added pool = %+v", c)
	}
	if c := one(t, rep, KindPartition, "preempt Nodes"); c.Old != "cpu" || c.New != "gpu,cpu" {
		t.Errorf("partition nodes = %+v", c)
	}
	one(t, rep, KindNodeSet, "gpu")
	one(t, rep, KindNode, "c-gpu-[0-1]")

	rep = r.compare(spec, base, "26.05")
	if c := one(t, rep, KindNodePool, "node pool gpu"); c.Op != OpRemoved || c.Impact != ReplaceCluster || c.HurtsJobs == "" {
		t.Errorf("removed pool = %+v", c)
	}
	// Reordering a partition's pools is not a change.
	rep = r.compare(spec, edit(t, spec, "[gpu, cpu]", "[cpu, gpu]"), "26.05")
	if rep.HasChanges() {
		t.Errorf("reordered nodePoolIds:\n%s", text(t, rep))
	}
}

func TestErrors(t *testing.T) {
	r := newRenderer(t)
	set := r.render(base, "26.05")
	var noConf render.Set
	for _, a := range set {
		if a.Path != "slurm.conf" {
			noConf = append(noConf, a)
		}
	}
	if _, err := Compare(set, noConf); err == nil || !strings.Contains(err.Error(), "new: the rendered set has no slurm.conf") {
		t.Errorf("missing slurm.conf: %v", err)
	}
	bad := make(render.Set, len(set))
	copy(bad, set)
	for i := range bad {
		if bad[i].Path == "cluster.json" {
			bad[i].Data = []byte("{")
		}
	}
	if _, err := Compare(bad, set); err == nil || !strings.Contains(err.Error(), "old cluster.json") {
		t.Errorf("broken cluster.json: %v", err)
	}
	if _, err := CompareWith(set, set, Options{SlurmVersion: "latest"}); err == nil {
		t.Error("bad Slurm version accepted")
	}
	inc := make(render.Set, len(set))
	copy(inc, set)
	for i := range inc {
		if inc[i].Path == "slurm.conf" {
			inc[i].Data = append([]byte("Include /etc/slurm/extra.conf\n"), inc[i].Data...)
		}
	}
	if _, err := Compare(set, inc); err == nil || !strings.Contains(err.Error(), "line 1: Include is not supported") {
		t.Errorf("Include: %v", err)
	}
}

func TestVersionFallback(t *testing.T) {
	r := newRenderer(t)
	set := r.render(base, "26.05")
	strip := func(s render.Set) render.Set {
		out := make(render.Set, len(s))
		copy(out, s)
		for i := range out {
			if out[i].Path == "slurm.conf" {
				out[i].Data = bytes.ReplaceAll(out[i].Data, []byte("for Slurm 26.05"), nil)
			}
		}
		return out
	}
	rep, err := Compare(strip(set), strip(set))
	if err != nil {
		t.Fatal(err)
	}
	if rep.SlurmVersion != fallbackSeries.String() {
		t.Errorf("version = %q, want the fallback %s", rep.SlurmVersion, fallbackSeries)
	}
	rep, err = CompareWith(set, set, Options{SlurmVersion: "24.11"})
	if err != nil || rep.SlurmVersion != "24.11" {
		t.Errorf("explicit version: %v, %v", rep, err)
	}
}

func TestImpact(t *testing.T) {
	order := []Impact{None, InPlace, Reconfigure, Restart, ReplacePool, ReplaceCluster}
	for i, imp := range order {
		got, err := ParseImpact(strings.ToUpper(imp.String()))
		if err != nil || got != imp {
			t.Errorf("ParseImpact(%q) = %v, %v", imp, got, err)
		}
		if i > 0 && !(order[i-1] < imp) {
			t.Errorf("%v is not above %v", imp, order[i-1])
		}
	}
	if got, err := ParseImpact("replace"); err != nil || got != ReplacePool {
		t.Errorf("ParseImpact(replace) = %v, %v", got, err)
	}
	if _, err := ParseImpact("reboot"); err == nil {
		t.Error("ParseImpact accepted reboot")
	}
	var imp Impact
	if err := json.Unmarshal([]byte(`"replace-cluster"`), &imp); err != nil || imp != ReplaceCluster {
		t.Errorf("unmarshal = %v, %v", imp, err)
	}
}

// golden compares got with testdata/name, rewriting it when
// SLURMSPEC_UPDATE=1.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if os.Getenv("SLURMSPEC_UPDATE") == "1" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with SLURMSPEC_UPDATE=1 to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with SLURMSPEC_UPDATE=1 to update):\n--- got\n%s", path, got)
	}
}

// representative is a change set touching every part of a report.
func representative(t *testing.T) *Report {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base,
		"machineType: n2-standard-8", "machineType: n2-standard-16",
		"maxNodeCount: 4", "maxNodeCount: 3",
		"defaultPartitionId: train", "defaultPartitionId: preempt",
		`PriorityTier: "10"`, `PriorityTier: "20"`,
		"      PriorityWeightAge", "      SelectTypeParameters: CR_CPU_Memory\n      PriorityWeightAge",
		"team: research", "team: infra",
		"echo prolog", "echo prolog | tee -a /tmp/`hostname`.log",
	), "23.02")
	rep.Target = "Slurm 23.02 (the service's build)"
	return rep
}

// TestTargetInFirstLine: the text and Markdown forms name the target
// (Options.Target) in their first line, and the Markdown footer too.
func TestTargetInFirstLine(t *testing.T) {
	r := newRenderer(t)
	old := r.render(base, "24.11")
	new := r.render(edit(t, base, "team: research", "team: infra"), "24.11")
	rep, err := CompareWith(old, new, Options{SlurmVersion: "24.11", Target: "Slurm 24.11 (Debian's packages)"})
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(text(t, rep), "\n", 2)[0]
	if first != "slurmspec: 1 change — applies in place; target Slurm 24.11 (Debian's packages)" {
		t.Errorf("text first line: %q", first)
	}
	var b bytes.Buffer
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if first := strings.SplitN(md, "\n", 2)[0]; !strings.HasSuffix(first, "** — target Slurm 24.11 (Debian's packages)") {
		t.Errorf("markdown first line: %q", first)
	}
	if !strings.Contains(md, "<sub>Classified for Slurm 24.11 (Debian's packages). ") {
		t.Errorf("markdown footer: %s", md)
	}
}

func TestGoldenMarkdown(t *testing.T) {
	rep := representative(t)
	var b bytes.Buffer
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "representative.md", b.Bytes())
	if !strings.HasPrefix(b.String(), "**slurmspec: 11 changes — replaces the whole cluster, 5 may hurt running jobs, restarts slurmctld, needs scontrol reconfigure** — target Slurm 23.02 (the service's build)\n") {
		t.Errorf("summary line: %s", strings.SplitN(b.String(), "\n", 2)[0])
	}
}

func TestGoldenJSON(t *testing.T) {
	rep := representative(t)
	var b bytes.Buffer
	if err := rep.JSON(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "representative.json", b.Bytes())
	var v struct {
		Version   int    `json:"version"`
		Changed   bool   `json:"changed"`
		MaxImpact Impact `json:"maxImpact"`
		Changes   []Change
	}
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v.Version != 1 || !v.Changed || v.MaxImpact != ReplaceCluster || len(v.Changes) != len(rep.Changes) {
		t.Errorf("decoded = %+v", v)
	}
}

func TestEmptyJSON(t *testing.T) {
	var b bytes.Buffer
	if err := (&Report{SlurmVersion: "26.05"}).JSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "slurmVersion": "26.05",
  "changed": false,
  "maxImpact": "none",
  "hurtsJobs": 0,
  "summary": "no changes",
  "changes": []
}
`
	if b.String() != want {
		t.Errorf("got %s", b.String())
	}
}

// TestScriptAppended: the renderer numbers scripts counting down (Slurm runs
// them in reverse alphabetical order), so appending one renames every file;
// the diff compares by place in the list and reports only the new one.
func TestScriptAppended(t *testing.T) {
	r := newRenderer(t)
	rep := r.compare(base, edit(t, base,
		"    prologBashScripts:\n      - |\n        #!/bin/bash\n        echo prolog\n",
		"    prologBashScripts:\n      - |\n        #!/bin/bash\n        echo prolog\n      - |\n        #!/bin/bash\n        echo second\n"), "26.05")
	if c := one(t, rep, KindScript, "prologBashScripts[1]"); c.Op != OpAdded || !strings.Contains(c.Diff, "+echo second") {
		t.Errorf("appended script = %+v", c)
	}
	for _, c := range rep.Changes {
		if c.Path == "prologBashScripts[0]" {
			t.Errorf("the unchanged first script is reported: %+v", c)
		}
	}
}
