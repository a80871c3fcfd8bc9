package importconf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// foreignConf is a hand-written slurm.conf of the kind a site runs today.
const foreignConf = `# slurm.conf for the research cluster
# (maintained by hand)
ClusterName=Research-01
SlurmctldHost=head01(10.0.0.1)
AuthType=auth/munge
SlurmctldPort=6817
StateSaveLocation=/data/slurm/state
Include /etc/slurm/site.conf

SchedulerType=sched/backfill
SelectType=select/cons_tres
selecttypeparameters=CR_Core_Memory
ProctrackType=proctrack/cgroup
TaskPlugin=task/affinity,task/cgroup
GresTypes=gpu
Prolog=/etc/slurm/prolog.sh
PriorityType=priority/multifactor
MailProg="/usr/bin/mail -s"
SuspendProgram=/opt/slurm/suspend.sh
FooBarBaz=1
DefMemPerCPU=4000
DefMemPerCPU=4096   # raised in March

# GPU nodes: a3-mega, eight H100 each
NodeName=DEFAULT State=UNKNOWN
NodeName=gpu[001-004] Sockets=2 CoresPerSocket=52 ThreadsPerCore=2 RealMemory=1860000 Gres=gpu:8 Features=h100 NodeAddr=10.1.0.[1-4]
NodeName=gpu[005-008] Sockets=2 CoresPerSocket=52 ThreadsPerCore=2 RealMemory=1860000 Gres=gpu:8 Features=h100 State=CLOUD
NodeName=cpu-[1-4] CPUs=62 RealMemory=257000
DownNodes=gpu003 Reason=bad_dimm State=DOWN

PartitionName=DEFAULT MaxTime=1-00:00:00 State=UP
PartitionName=GPU Nodes=gpu[001-008] Default=YES PriorityTier=10
PartitionName=cpu Nodes=cpu-[1-4],gpu[001-002]
PartitionName=debug Nodes=ALL maxtime=30
PartitionName=empty Nodes=nosuch[1-2]
`

const foreignGres = `AutoDetect=off
NodeName=gpu[001-008] Name=gpu Type=nvidia_h100_80gb_hbm3 File=/dev/nvidia[0-7]
`

func TestForeignConf(t *testing.T) {
	spec, notes, err := Import([]byte(foreignConf), []byte(foreignGres), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		t.Log(n)
	}
	want := []struct {
		line   int
		substr string
	}{
		{4, "SlurmctldHost=head01(10.0.0.1) dropped: the service sets the cluster's identity"},
		{3, "ClusterName=Research-01 is not a valid cluster id"},
		{7, "StateSaveLocation=/data/slurm/state dropped"},
		{8, "Include /etc/slurm/site.conf not followed: name the directory holding site.conf with --include-dir"},
		{16, "Prolog=/etc/slurm/prolog.sh is a path, not a script: put the text of the scripts it runs into prologBashScripts, or name the directory holding them with --include-dir"},
		{18, `MailProg="/usr/bin/mail -s" dropped`},
		{19, "SuspendProgram=/opt/slurm/suspend.sh dropped: the service provisions and releases nodes itself"},
		{20, "FooBarBaz is not in the Slurm parameter catalog"},
		{22, "DefMemPerCPU is set again (line 21 set 4000)"},
		{26, "NodeAddr dropped"},
		{26, "a3-edgegpu-8g, a3-edgegpu-8g-nolssd, a3-highgpu-8g, a3-megagpu-8g alike; machineType is the placeholder TODO-choose-a3-edgegpu-8g-or-a3-edgegpu-8g-nolssd-or-a3-highgpu-8g-or-a3-megagpu-8g"},
		{26, `pool "gpu": CoresPerSocket=52 Sockets=2 ThreadsPerCore=2 dropped: they describe the on-premises CPUs`},
		{26, "are named research01-gpu-[0-7] on the service"},
		{26, `pool "gpu": slurm.conf does not say how the GPUs are bought`},
		{28, "no machine type in the catalog has 62 vCPUs, RealMemory=257000 and no GPUs"},
		{28, "TODO-cpus-62-mem-257000"},
		{29, "DownNodes line dropped: the service manages node state"},
		{31, "State=UP of PartitionName=DEFAULT not copied into partitions GPU, cpu, debug: UP is the state of a partition that sets none"},
		{32, `partition GPU becomes "gpu"`},
		{33, `partition cpu has 2 of the 8 nodes of pool "gpu"`},
		{35, "partition empty names nodes no NodeName line defines: nosuch1,nosuch2"},
		{35, "partition empty has no nodes the import knows; dropped"},
		{0, "the service adds defaults slurm.conf does not set: JobAcctGatherType=jobacct_gather/cgroup ReturnToService=2 SlurmctldParameters=cloud_dns"},
		{0, `node pool "login" (1 node) is the loginNodePoolId; choose its machineType in place of TODO-choose-login-machine-type`},
		{0, "homeDirectoryStorage is not in slurm.conf"},
		// One note lists what is left out as equal to the managed baseline.
		{0, "left out as the managed baseline, which the service writes with the same values: AuthType=auth/munge SlurmctldPort=6817 SelectType=select/cons_tres SelectTypeParameters=CR_Core_Memory ProctrackType=proctrack/cgroup"},
	}
	for _, w := range want {
		found := false
		for _, n := range notes {
			if n.Line == w.line && strings.Contains(n.Message, w.substr) {
				found = true
			}
		}
		if !found {
			t.Errorf("no note at line %d containing %q", w.line, w.substr)
		}
	}
	for _, n := range notes {
		for _, bad := range []string{"AuthType", "SlurmctldPort"} {
			if strings.Contains(n.Message, bad) && !strings.HasPrefix(n.Message, "left out as the managed baseline") {
				t.Errorf("note about %s, which equals the service's value, besides the baseline's: %s", bad, n)
			}
		}
	}

	for _, w := range []string{
		"name: projects/PROJECT_ID/locations/REGION/modelDevelopmentClusters/research01\n",
		"machineType: TODO-choose-a3-edgegpu-8g-or-a3-edgegpu-8g-nolssd-or-a3-highgpu-8g-or-a3-megagpu-8g # TODO",
		"provisioningModel: TODO-choose-ON_DEMAND-or-SPOT-or-FLEX_START-or-RESERVATION # TODO",
		"machineType: TODO-choose-login-machine-type # TODO",
		"# Decide (each placeholder fails the schema until you do):\n#   - slurm.conf:26: pool \"gpu\": 208 vCPUs",
		"# Chosen by the import from slurm.conf (check them):\n#   - slurm.conf:3: ClusterName=Research-01",
		"#   - slurm.conf:33: partition cpu has 2 of the 8 nodes of pool \"gpu\"; it gets the whole pool",
		"#   - slurm.conf: the service adds defaults slurm.conf does not set: JobAcctGatherType=jobacct_gather/cgroup",
		"      minNodeCount: 4\n      maxNodeCount: 8\n",
		"machineType: TODO-cpus-62-mem-257000 # TODO: choose the machine type",
		"defaultPartitionId: gpu\n",
		"      - id: gpu\n        nodePoolIds: [gpu]\n        config:\n          MaxTime: 1-00:00:00\n          PriorityTier: \"10\"\n    ",
		"      - id: cpu\n        nodePoolIds: [cpu, gpu]\n",
		"      - id: debug\n        nodePoolIds: [gpu, cpu]\n        config:\n          MaxTime: \"30\"\n",
		"      - nodePoolId: gpu\n        config:\n          Features: h100\n    config:",
		"      DefMemPerCPU: \"4096\"\n      FooBarBaz: \"1\"\n      GresTypes: gpu\n      PriorityType: priority/multifactor\n      SchedulerType: sched/backfill\n      TaskPlugin: task/affinity,task/cgroup\n",
	} {
		if !strings.Contains(string(spec), w) {
			t.Errorf("spec lacks %q", w)
		}
	}
	body := specBody(spec)
	for _, bad := range []string{"SelectType:", "SelectTypeParameters", "ProctrackType", "empty", "Prolog", "NodeAddr", "ClusterName", "Sockets"} {
		if strings.Contains(body, bad) {
			t.Errorf("spec holds %q", bad)
		}
	}

	// The placeholders fail the schema loudly, naming the candidates ...
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.Bytes("imported.yaml", spec), pipeline.AnalyseOptions{Schema: sch, Settings: &pipeline.Settings{}})
	if err != nil {
		t.Fatal(err)
	}
	l := r.Diags
	// A placeholder longer than diag.MaxEcho bytes is echoed cut, as every
	// long value is; the import's note names each choice whole.
	for _, want := range []string{diag.Shorten("TODO-choose-a3-edgegpu-8g-or-a3-edgegpu-8g-nolssd-or-a3-highgpu-8g-or-a3-megagpu-8g"), "TODO-cpus-62-mem-257000", "TODO-choose-login-machine-type", `"TODO-choose-ON_DEMAND-or-SPOT-or-FLEX_START-or-RESERVATION" is not one of`} {
		if !strings.Contains(fmt.Sprint(l), want) {
			t.Errorf("the schema does not report %s: %v", want, l)
		}
	}
	// ... and once someone decides, the spec compiles and renders.
	fixed := decide(t, spec, map[string]string{
		"TODO-cpus-62-mem-257000": "n2-standard-32", "TODO-choose-login-machine-type": "n2-standard-8",
		"TODO-choose-a3-edgegpu-8g-or-a3-edgegpu-8g-nolssd-or-a3-highgpu-8g-or-a3-megagpu-8g": "a3-megagpu-8g",
		"TODO-choose-ON_DEMAND-or-SPOT-or-FLEX_START-or-RESERVATION":                          "SPOT",
	})
	c := compile(t, "fixed.yaml", []byte(fixed), compiler.Identity{})
	conf := renderTo(t, c, t.TempDir()).Get("slurm.conf").Data
	for _, w := range []string{
		"NodeName=research01-gpu-[0-3] CPUs=208 RealMemory=1860368 Gres=gpu:h100:8 Features=h100\n",
		"NodeName=research01-gpu-[4-7] CPUs=208 RealMemory=1860368 Gres=gpu:h100:8 Features=h100 State=CLOUD\n",
		"PartitionName=gpu Nodes=gpu Default=YES MaxTime=1-00:00:00 PriorityTier=10\n",
		"PartitionName=debug Nodes=gpu,cpu MaxTime=30\n",
		"DefMemPerCPU=4096\n",
	} {
		if !strings.Contains(string(conf), w) {
			t.Errorf("rendered slurm.conf lacks %q\n%s", w, conf)
		}
	}

	// Deterministic.
	again, notes2, err := Import([]byte(foreignConf), []byte(foreignGres), Options{})
	if err != nil || !bytes.Equal(again, spec) || len(notes2) != len(notes) {
		t.Errorf("a second import differs (err %v)", err)
	}
}

// specBody is the spec without its head comment.
func specBody(spec []byte) string {
	var out []string
	for _, l := range strings.Split(string(spec), "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// decide replaces placeholder values (not their mentions in comments) as
// a person would, failing the test when one is missing; a placeholder
// not in choices is also a failure.
func decide(t *testing.T, spec []byte, choices map[string]string) []byte {
	t.Helper()
	used := map[string]bool{}
	out := decideFn(t, spec, func(_, _, v string) string {
		c, ok := choices[v]
		if !ok {
			t.Fatalf("no choice for placeholder %s", v)
		}
		used[v] = true
		return c
	})
	for k := range choices {
		if !used[k] {
			t.Errorf("placeholder %s not in the spec", k)
		}
	}
	return out
}

// decideFn replaces every "TODO-" placeholder value by choose(pool, field,
// placeholder), pool being the id of the node pool it is in ("" outside).
func decideFn(t *testing.T, spec []byte, choose func(pool, field, placeholder string) string) []byte {
	t.Helper()
	var out []string
	pool := ""
	for _, l := range strings.Split(string(spec), "\n") {
		if id, ok := strings.CutPrefix(l, "  - id: "); ok {
			pool = strings.Trim(id, `"`)
		}
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			if i := strings.Index(l, ": TODO-"); i >= 0 {
				field := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l[:i]), "- "))
				l = l[:i+2] + choose(pool, field, strings.Fields(l[i+2:])[0])
			}
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

func TestOptionsOverrideIdentity(t *testing.T) {
	conf := "ClusterName=old\nNodeName=n[1-2] CPUs=22 RealMemory=87072\nPartitionName=p Nodes=n[1-2]\n"
	spec, notes, err := Import([]byte(conf), nil, Options{ClusterID: "new", Project: "acme-prod", Region: "us-central1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/new\n",
		"homeDirectoryStorage: projects/acme-prod/locations/ZONE/instances/FILESTORE_INSTANCE_ID",
		"machineType: TODO-choose-c3-standard-22-or-c3-standard-22-lssd # TODO",
	} {
		if !strings.Contains(string(spec), w) {
			t.Errorf("spec lacks %q\n%s", w, spec)
		}
	}
	for _, w := range []string{"ClusterName=old replaced by the cluster id new", "fits c3-standard-22, c3-standard-22-lssd alike; machineType is the placeholder TODO-choose-c3-standard-22-or-c3-standard-22-lssd", "no partition is marked Default=YES"} {
		if !hasNote(notes, w) {
			t.Errorf("no note %q: %v", w, notes)
		}
	}
	if _, _, err := Import([]byte(conf), nil, Options{ClusterID: "Bad_ID"}); err == nil {
		t.Error("an invalid cluster id was accepted")
	}
}

func TestErrors(t *testing.T) {
	for name, conf := range map[string]string{
		"syntax":   "ClusterName=a b=c\n",
		"hostlist": "NodeName=n[3-1] CPUs=2\n",
		"quote":    "NodeName=n1 Features=\"a\n",
	} {
		if _, _, err := Import([]byte(conf), nil, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, _, err := Import([]byte("ClusterName=a\n"), []byte("Name=gpu Type"), Options{}); err == nil || !strings.Contains(err.Error(), "gres.conf") {
		t.Errorf("bad gres.conf: %v", err)
	}
}

func TestScriptsDirMissingScripts(t *testing.T) {
	conf := "ClusterName=a\nEpilog=/etc/slurm/epilog.d/*\nNodeName=a-c-0 CPUs=22 RealMemory=87072\nPartitionName=p Nodes=a-c-0\n"
	spec, notes, err := Import([]byte(conf), nil, Options{ScriptsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !hasNote(notes, "holds no *.sh scripts") || strings.Contains(string(spec), "epilogBashScripts") {
		t.Errorf("notes %v\n%s", notes, spec)
	}
	// Node a-c-0 of cluster a is pool "c": no renaming note.
	if !strings.Contains(string(spec), "- id: c\n") || hasNote(notes, "are named") {
		t.Errorf("pool id not recovered from the node name\n%s\n%v", spec, notes)
	}
}

func TestInferMachine(t *testing.T) {
	cat := machines.Default()
	a4, _ := cat.Lookup("a4-highgpu-8g")
	exact := a4.RealMemoryMiB()
	for _, tc := range []struct {
		hw   hardware
		want string
		why  string
	}{
		{hardware{CPUs: 224, RealMemory: exact, GPUModel: "b200", GPUType: "b200", GPUs: 8}, "a4-highgpu-8g", ""},
		{hardware{CPUs: 224, RealMemory: exact * 95 / 100, GPUModel: "b200", GPUType: "b200", GPUs: 8}, "a4-highgpu-8g", "within tolerance"},
		{hardware{CPUs: 224, RealMemory: 3968 * 1024, GPUModel: "b200", GPUType: "b200", GPUs: 8}, "a4-highgpu-8g", "within tolerance"},
		{hardware{CPUs: 224, RealMemory: 3968*1024 + 1, GPUModel: "b200", GPUType: "b200", GPUs: 8}, "", "no machine type"},
		{hardware{CPUs: 224, RealMemory: exact * 85 / 100, GPUModel: "b200", GPUType: "b200", GPUs: 8}, "", "closest: a4-highgpu-8g"},
		{hardware{CPUs: 224, RealMemory: exact, GPUType: "gpu", GPUs: 8}, "a4-highgpu-8g", "not a catalog model"},
		{hardware{CPUs: 224, RealMemory: exact, GPUModel: "h100", GPUType: "h100", GPUs: 8}, "", "no machine type"},
		{hardware{CPUs: 16}, "", "RealMemory would tell them apart"},
		{hardware{CPUs: 6, RealMemory: 22*1024 - 400 - 30*22}, "g4-standard-6", ""},
		{hardware{}, "", "no CPUs"},
	} {
		got, why, _ := inferMachine(cat, tc.hw, "")
		if got != tc.want || !strings.Contains(why, tc.why) || (tc.why == "") != (why == "") {
			t.Errorf("%+v: got %q (%s), want %q (%s)", tc.hw, got, why, tc.want, tc.why)
		}
	}
	// A hint that matches the rendered hardware exactly wins a tie.
	n4, _ := cat.Lookup("n4-standard-16")
	if got, why, _ := inferMachine(cat, hardware{CPUs: 16, RealMemory: n4.RealMemoryMiB()}, "n4-standard-16"); got != "n4-standard-16" || why != "" {
		t.Errorf("hint ignored: %q %q", got, why)
	}
	// A hint for a type the catalog lacks stands when the line has no hardware.
	if got, _, _ := inferMachine(cat, hardware{}, "z9-future-8"); got != "z9-future-8" {
		t.Errorf("hint without facts: %q", got)
	}
	if got := todoMachineType(hardware{CPUs: 96, RealMemory: 1000, GPUs: 8, GPUType: "Tesla_V100"}); got != "TODO-cpus-96-mem-1000-gpus-8-tesla-v100" {
		t.Errorf("todo: %q", got)
	}
}

func TestParseGres(t *testing.T) {
	for in, want := range map[string]gresSpec{
		"gpu:h100:8":               {Type: "h100", Count: 8},
		"gpu:8":                    {Count: 8},
		"gpu":                      {Count: 1},
		"gpu:a100:4(S:0-1)":        {Type: "a100", Count: 4},
		"gpu:a100:2,gpu:a100:2":    {Type: "a100", Count: 4},
		"gpu:l4:1,nvme:1":          {Type: "l4", Count: 1, Other: []string{"nvme:1"}},
		"gpu:a100:1,gpu:h100:1":    {Type: "a100", Count: 1, OtherTypes: []string{"gpu:h100:1"}},
		"(null)":                   {},
		"gpu:tesla:a:b":            {Other: []string{"gpu:tesla:a:b"}},
		"gpu:a100:no_consume:4":    {Other: []string{"gpu:a100:no_consume:4"}},
		"gpu:nvidia_h100_80gb:8,x": {Type: "nvidia_h100_80gb", Count: 8, Other: []string{"x"}},
	} {
		got := (&importer{}).parseGres(1, in)
		if got.Type != want.Type || got.Count != want.Count || strings.Join(got.Other, ",") != strings.Join(want.Other, ",") {
			t.Errorf("parseGres(%q) = %+v, want %+v", in, got, want)
		}
	}
	cat := machines.Default()
	for in, want := range map[string]string{
		"h100": "h100", "nvidia_h100_80gb_hbm3": "h100", "NVIDIA_B200": "b200", "tesla_a100": "a100",
		"a100-sxm4-80gb": "a100", "gb200": "gb200", "rtx_pro_6000": "rtxpro6000", "gh200": "", "v100": "",
	} {
		if got := gpuModel(cat, in); got != want {
			t.Errorf("gpuModel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseGresConf(t *testing.T) {
	gc, notes, err := parseGresConf([]byte(`# GPUs
AutoDetect=nvml
Name=gpu Type=l4 Count=1
NodeName=big[1-2] Name=gpu Type=h100 File=/dev/nvidia[0-3]
NodeName=big2 Name=gpu Type=h100 File=/dev/nvidia[4-7]
NodeName=big[1-2] Name=nvme Count=2
NodeName=odd Name=gpu Count=lots
`), hostlist.NewBudget(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0].Message, "gres.conf:7: Count=lots") {
		t.Errorf("notes: %v", notes)
	}
	for node, want := range map[string]struct {
		types string
		count int
	}{"big1": {"h100,l4", 5}, "big2": {"h100,l4", 9}, "small": {"l4", 1}} {
		types, count := gc.forNode(node)
		if strings.Join(types, ",") != want.types || count != want.count {
			t.Errorf("%s: %v %d, want %v %d", node, types, count, want.types, want.count)
		}
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{"Research-01": "research01", "01abc": "abc", "---": "cluster", "averyveryverylongname": "averyveryv"} {
		if got := sanitizeClusterID(in); got != want {
			t.Errorf("sanitizeClusterID(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"gpu_nodes": "gpu-nodes", "GPU.Nodes-": "gpu-nodes", "9x": "x", "": "pool", strings.Repeat("a", 40): strings.Repeat("a", 28)} {
		if got := sanitizePoolID(in); got != want {
			t.Errorf("sanitizePoolID(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"GPU": "gpu", "long_queue": "long_queue", "q-": "q", "_x": "x", "": "part"} {
		if got := sanitizePartitionID(in); got != want {
			t.Errorf("sanitizePartitionID(%q) = %q, want %q", in, got, want)
		}
	}
}

// A node with two GPU types (Gres=gpu:h100:8,gpu:a100:2) is matched on the
// first: a machine type has one GPU model. The second type is dropped,
// and the header says so as a choice the import made.
func TestTwoGPUTypesOnOneNode(t *testing.T) {
	conf := "ClusterName=a\nGresTypes=gpu\nNodeName=g[1-2] CPUs=208 RealMemory=1860000 Gres=gpu:h100:8,gpu:a100:2\nPartitionName=p Nodes=g[1-2]\n"
	spec, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "Gres=gpu:h100:8,gpu:a100:2 puts more than one GPU type on a node, and a machine type has one GPU model: the pool's machine type is matched on the first, gpu:h100:8, and gpu:a100:2 is dropped; give those GPUs node pools of their own"
	found := false
	for _, n := range notes {
		if n.Line == 3 && n.Kind == NoteChoice && n.Message == want {
			found = true
		}
	}
	if !found {
		t.Errorf("no choice %q at line 3 in %v", want, notes)
	}
	if !strings.Contains(string(spec), "#   - slurm.conf:3: "+want+"\n") {
		t.Errorf("the header does not list the dropped GPU type:\n%s", spec)
	}
	if !strings.Contains(string(spec), "machineType: TODO-choose-a3-") {
		t.Errorf("the machine type is not matched on the 8 H100:\n%s", spec)
	}
}
