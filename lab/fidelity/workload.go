package fidelity

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// The workload mode (issue 26, make fidelity FIDELITY_MODE=workload): each
// case is a spec of one GPU pool and one CPU pool of machine types drawn
// from the catalog, with scheduling settings drawn around those machines'
// sizes (memory per CPU and per GPU, CPUs, node counts); its job mix
// (lab/jobmix) is run on real Slurm and compared with lint's findings.

// Workload pools: their ids and node counts are fixed, so every case
// renders the same node names and one cluster per release serves them all
// (localslurm.Cluster.RestartController with the same stand-ins).
const (
	workloadCluster = "wl"
	workloadGPUPool = "gpu"
	workloadCPUPool = "cpu"
)

// workloadStandIns are the nodes of the two pools (two each), every one of
// which a shape may be pinned to.
var workloadStandIns = []string{"wl-gpu-0", "wl-gpu-1", "wl-cpu-0", "wl-cpu-1"}

// workloadGPUTypes and workloadCPUTypes are the machine types the cases
// draw from: GPU types of one to eight whole GPUs, and CPU types of four to
// thirty-two vCPUs of several families. TestWorkloadBaseLintsClean checks
// that each lints clean in the base workload spec.
var (
	workloadGPUTypes = []string{"a4-highgpu-8g", "a3-highgpu-8g", "a3-highgpu-1g", "a2-highgpu-1g", "a2-highgpu-2g", "a2-ultragpu-1g", "g2-standard-8", "g2-standard-24"}
	workloadCPUTypes = []string{"n2-standard-16", "c2-standard-8", "n2-highmem-8", "c3-standard-22", "e2-standard-4", "n2d-standard-32"}
)

// WorkloadPartition is one partition of a workload case.
type WorkloadPartition struct {
	ID     string
	Pools  []string
	Config map[string]string
}

// WorkloadCase is one generated spec of the workload mode.
type WorkloadCase struct {
	Index            int
	GPUType, CPUType string
	Partitions       []WorkloadPartition
	// NodeSets holds each pool's node set config (NodeName keys).
	NodeSets map[string]map[string]string
	// Global is the cluster's config.
	Global map[string]string
	// Settings lists every generated setting, for the report; a
	// partition's or node set's are scoped by its id ("partition gpu").
	Settings []Setting
}

// String names the case by its machine types and settings.
func (w WorkloadCase) String() string {
	parts := make([]string, len(w.Settings))
	for i, s := range w.Settings {
		parts[i] = s.How + " " + s.Key + "=" + s.Value
	}
	return fmt.Sprintf("case %d (%s, %s): %s", w.Index, w.GPUType, w.CPUType, strings.Join(parts, "; "))
}

// workloadPool is one node pool of the workload spec, YAML.
func workloadPool(id, machineType string, minNodes int) string {
	m, _ := machines.Default().Lookup(machineType)
	disk, model := "pd-ssd", ""
	if m != nil {
		for _, d := range m.BootDisks {
			if d.Confirmed {
				disk = d.Name
				break
			}
		}
		for _, p := range m.Provisioning {
			if p.Confirmed && (p.Name == "SPOT" || model == "") && p.Name != "RESERVATION" && p.Name != "FLEX_START" {
				model = p.Name
			}
		}
	}
	y := fmt.Sprintf("- id: %s\n  machineSpec: {machineType: %s}\n", id, machineType)
	if model != "" {
		y += "  provisioningModel: " + model + "\n"
	}
	return y + fmt.Sprintf("  bootDisk: {bootDiskType: %s, bootDiskSizeGb: 200}\n  scalingSpec: {minNodeCount: %d, maxNodeCount: 2}\n  zone: us-central1-b\n", disk, minNodes)
}

// Spec returns the case's spec (YAML).
func (w WorkloadCase) Spec() []byte {
	enc := func(m map[string]string) string {
		if m == nil {
			m = map[string]string{}
		}
		b, err := json.Marshal(m) // sorted keys: the same bytes every time
		if err != nil {
			panic(err) // a map of strings always marshals
		}
		return string(b)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name: projects/fidelity/locations/us-central1/modelDevelopmentClusters/%s\n", workloadCluster)
	b.WriteString("network: {network: projects/fidelity/global/networks/net}\nnodePools:\n")
	b.WriteString(workloadPool(workloadGPUPool, w.GPUType, 1))
	b.WriteString(workloadPool(workloadCPUPool, w.CPUType, 0))
	b.WriteString("- id: login\n  machineSpec: {machineType: n2-standard-8}\n  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}\n  zone: us-central1-b\n")
	b.WriteString("orchestratorSpec:\n  slurmSpec:\n    loginNodePoolId: login\n")
	b.WriteString("    homeDirectoryStorage: projects/fidelity/locations/us-central1-b/instances/home\n")
	fmt.Fprintf(&b, "    defaultPartitionId: %s\n    partitions:\n", w.Partitions[0].ID)
	for _, p := range w.Partitions {
		fmt.Fprintf(&b, "    - {id: %s, nodePoolIds: [%s], config: %s}\n", p.ID, strings.Join(p.Pools, ", "), enc(p.Config))
	}
	if len(w.NodeSets) > 0 {
		b.WriteString("    nodeSets:\n")
		for _, id := range []string{workloadGPUPool, workloadCPUPool} {
			if c, ok := w.NodeSets[id]; ok {
				fmt.Fprintf(&b, "    - {nodePoolId: %s, config: %s}\n", id, enc(c))
			}
		}
	}
	fmt.Fprintf(&b, "    config: %s\n", enc(w.Global))
	return []byte(b.String())
}

// wlSizes are a pool's node figures the generator draws values around.
type wlSizes struct {
	cpus, gpus, mem int64 // mem: RealMemory as rendered, MiB
}

func wlSizesOf(machineType string) wlSizes {
	m, _ := machines.Default().Lookup(machineType)
	if m == nil {
		return wlSizes{cpus: 1, mem: 1}
	}
	g, _ := m.WholeGPUs()
	return wlSizes{cpus: int64(m.VCPUs), gpus: int64(g), mem: int64(m.RealMemoryMiB())}
}

// GenerateWorkload returns n workload cases for the seed: the same cases
// for the same seed, every release. Each case draws a GPU and a CPU
// machine type, the partitions gpu, cpu and, in one case of three, all
// (both pools), and one to four scheduling settings (workloadDraws), some
// of which bring companions (workloadDraw.more).
func GenerateWorkload(seed uint64, n int) []WorkloadCase {
	r := rand.New(rand.NewPCG(seed, seed^0x776f726b6c6f6164)) // "workload"
	out := make([]WorkloadCase, 0, n)
	for i := range n {
		w := WorkloadCase{Index: i, GPUType: wlPick(r, workloadGPUTypes), CPUType: wlPick(r, workloadCPUTypes),
			NodeSets: map[string]map[string]string{}, Global: map[string]string{}}
		w.Partitions = []WorkloadPartition{
			{ID: "gpu", Pools: []string{workloadGPUPool}, Config: map[string]string{}},
			{ID: "cpu", Pools: []string{workloadCPUPool}, Config: map[string]string{}},
		}
		if r.IntN(3) == 0 {
			w.Partitions = append(w.Partitions, WorkloadPartition{ID: "all", Pools: []string{workloadGPUPool, workloadCPUPool}, Config: map[string]string{}})
		}
		for range 1 + r.IntN(4) {
			wlDraw(r, &w)
		}
		out = append(out, w)
	}
	return out
}

func wlPick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// wlDraw adds one setting to the case: a key of workloadDraws with a value
// made from the sizes of the pool it concerns.
func wlDraw(r *rand.Rand, w *WorkloadCase) { wlApply(r, w, wlPick(r, workloadDraws)) }

// wlApply sets the draw's key (and its companions) in a partition, node
// set or the cluster's config of the case.
func wlApply(r *rand.Rand, w *WorkloadCase, d workloadDraw) {
	part := &w.Partitions[r.IntN(len(w.Partitions))]
	pool := part.Pools[r.IntN(len(part.Pools))]
	z := wlSizesOf(w.GPUType)
	if pool == workloadCPUPool {
		z = wlSizesOf(w.CPUType)
	}
	value := d.value(r, z)
	if value == "" {
		return // not for this pool (a GPU key on a CPU pool)
	}
	set := func(key, value string) {
		var how string
		switch d.scope {
		case catalog.ScopeGlobal:
			w.Global[key] = value
			how = "global"
		case catalog.ScopePartition:
			part.Config[key] = value
			how = "partition " + part.ID
		case catalog.ScopeNode:
			if w.NodeSets[pool] == nil {
				w.NodeSets[pool] = map[string]string{}
			}
			w.NodeSets[pool][key] = value
			how = "node set " + pool
		}
		// A key drawn twice in one place keeps its last value, as the
		// config map does.
		w.Settings = slices.DeleteFunc(w.Settings, func(s Setting) bool { return s.How == how && s.Key == key })
		w.Settings = append(w.Settings, Setting{Scope: d.scope, Key: key, Value: value, How: how})
	}
	set(d.key, value)
	if d.more != nil {
		for _, kv := range d.more(r, z, value) {
			set(kv[0], kv[1])
		}
	}
}

// workloadDraw is one key the generator sets, and how its value is made.
type workloadDraw struct {
	scope catalog.Scope
	key   string
	value func(r *rand.Rand, z wlSizes) string
	// more, when set, returns companion keys (key, value pairs) set in
	// the same place: the rest of a node topology, or a second limit that
	// meets the first (DefCPUPerGPU beside MaxCPUsPerNode).
	more func(r *rand.Rand, z wlSizes, value string) [][2]string
}

// wlOf returns a draw whose value is one of a list.
func wlOf(scope catalog.Scope, key string, values ...string) workloadDraw {
	return workloadDraw{scope: scope, key: key, value: func(r *rand.Rand, _ wlSizes) string { return wlPick(r, values) }}
}

// wlSized returns a draw whose value is one of the numbers f makes of the
// pool's sizes.
func wlSized(scope catalog.Scope, key string, f func(z wlSizes) []int64) workloadDraw {
	return workloadDraw{scope: scope, key: key, value: func(r *rand.Rand, z wlSizes) string {
		vs := f(z)
		if len(vs) == 0 {
			return ""
		}
		return strconv.FormatInt(max(wlPick(r, vs), 0), 10)
	}}
}

// workloadDraws are the scheduling settings of issue 26, §3: memory
// (defaults, maxima, MemSpecLimit, the CR_* units), limits, GRES and
// TRES, access, node features and weights, core specialisation. Memory
// values fall at and around the node's memory per CPU, per GPU and per
// node: just below, equal, just above.
var workloadDraws = slices.Concat(workloadBaseDraws, workloadWideDraws)

// workloadBaseDraws are the draws of sessions 7 and 8 (seeds up to
// 20261231 drew only these).
var workloadBaseDraws = []workloadDraw{
	wlSized(catalog.ScopePartition, "DefMemPerCPU", func(z wlSizes) []int64 {
		per := z.mem / z.cpus
		return []int64{per / 2, per, per + 1, z.mem + 1}
	}),
	wlSized(catalog.ScopeGlobal, "DefMemPerCPU", func(z wlSizes) []int64 { return []int64{z.mem / z.cpus, z.mem/z.cpus + 1} }),
	wlSized(catalog.ScopePartition, "DefMemPerGPU", func(z wlSizes) []int64 {
		if z.gpus == 0 {
			return nil
		}
		per := z.mem / z.gpus
		return []int64{per / 2, per, per + 1, z.mem + 1}
	}),
	wlSized(catalog.ScopeGlobal, "DefMemPerGPU", func(z wlSizes) []int64 {
		if z.gpus == 0 {
			return nil
		}
		return []int64{z.mem / z.gpus, z.mem/z.gpus + 1}
	}),
	wlSized(catalog.ScopePartition, "DefMemPerNode", func(z wlSizes) []int64 { return []int64{z.mem / 2, z.mem, z.mem + 1} }),
	wlSized(catalog.ScopePartition, "MaxMemPerCPU", func(z wlSizes) []int64 { return []int64{z.mem / z.cpus / 4, z.mem / z.cpus} }),
	wlSized(catalog.ScopePartition, "MaxMemPerNode", func(z wlSizes) []int64 { return []int64{z.mem / 2, z.mem} }),
	wlSized(catalog.ScopeNode, "MemSpecLimit", func(z wlSizes) []int64 { return []int64{1024, z.mem / 2} }),
	wlSized(catalog.ScopeNode, "RealMemory", func(z wlSizes) []int64 { return []int64{z.mem / 2, z.mem} }),
	wlOf(catalog.ScopeGlobal, "SelectTypeParameters", "CR_Core_Memory", "CR_CPU_Memory", "CR_Socket_Memory", "CR_Core", "CR_CPU"),
	wlOf(catalog.ScopePartition, "MaxNodes", "1", "2", "UNLIMITED"),
	wlOf(catalog.ScopePartition, "MinNodes", "1", "2"),
	wlOf(catalog.ScopePartition, "MaxTime", "30", "1-00:00:00", "UNLIMITED", "0"),
	wlOf(catalog.ScopePartition, "DefaultTime", "10", "2:00:00"),
	wlSized(catalog.ScopePartition, "MaxCPUsPerNode", func(z wlSizes) []int64 { return []int64{1, z.cpus / 2, z.cpus} }),
	wlSized(catalog.ScopePartition, "MaxCPUsPerSocket", func(z wlSizes) []int64 { return []int64{1, z.cpus / 4} }),
	wlOf(catalog.ScopePartition, "OverSubscribe", "NO", "YES", "EXCLUSIVE", "FORCE:2"),
	wlOf(catalog.ScopePartition, "ExclusiveUser", "YES", "NO"),
	wlOf(catalog.ScopePartition, "LLN", "YES", "NO"),
	wlOf(catalog.ScopeGlobal, "AccountingStorageTRES", "gres/gpu", "gres/gpu,cpu,mem"),
	wlOf(catalog.ScopePartition, "TRESBillingWeights", "CPU=1.0,Mem=0.25G,GRES/gpu=2.0"),
	wlOf(catalog.ScopeGlobal, "AccountingStorageEnforce", "associations", "associations,limits,qos", "limits"),
	wlOf(catalog.ScopePartition, "AllowAccounts", "research", "research,jobmix"),
	wlOf(catalog.ScopePartition, "AllowGroups", "daemon", "daemon,root"),
	wlOf(catalog.ScopePartition, "AllowQos", "normal", "high", "normal,high"),
	wlOf(catalog.ScopePartition, "DenyAccounts", "guest"),
	wlOf(catalog.ScopePartition, "QOS", "part"),
	wlOf(catalog.ScopeNode, "Feature", "fast", "fast,big"),
	wlOf(catalog.ScopeNode, "Weight", "1", "100"),
	wlOf(catalog.ScopeNode, "CoreSpecCount", "1", "2"),
	wlOf(catalog.ScopeNode, "CpuSpecList", "0,1"),
}
