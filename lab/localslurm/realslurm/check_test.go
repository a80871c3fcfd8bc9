package realslurm

import (
	"fmt"
	"github.com/slurmspec/slurmspec/lab/fidelity"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// showConfigKey maps a slurm.conf key to the `scontrol show config` key
// where the two differ by more than case.
var showConfigKey = map[string]string{
	"slurmctldhost": "SlurmctldHost[0]",
}

// partitionField maps a partition key to its `scontrol show partition`
// field where the two differ by more than case.
var partitionField = map[string]string{
	"shared":   "OverSubscribe", // the old name of OverSubscribe
	"priority": "PriorityTier",  // the old Priority sets PriorityJobFactor and PriorityTier
}

// nodeField maps a NodeName key to its `scontrol show node` field where the
// two differ by more than case.
var nodeField = map[string]string{
	"cpus":        "CPUTot",
	"procs":       "CPUTot",
	"feature":     "AvailableFeatures",
	"features":    "AvailableFeatures",
	"nodeaddr":    "NodeAddr",
	"cpuspeclist": "CPUSpecList",
}

// poolNodes returns the Slurm node names of a compute pool, derived from
// the spec: <cluster id>-<pool id>-<i> for i below maxNodeCount. The first
// minNodeCount are static; the rest are State=CLOUD.
func poolNodes(c *ir.Cluster, p *ir.NodePool) (static, cloud []string) {
	for i := range p.MaxNodeCount.Value {
		name := fmt.Sprintf("%s-%s-%d", c.ID.Value, p.ID.Value, i)
		if i < p.MinNodeCount.Value {
			static = append(static, name)
		} else {
			cloud = append(cloud, name)
		}
	}
	return static, cloud
}

// cloudStandIns returns, for each compute pool with State=CLOUD nodes, its
// first CLOUD node. Slurm 22.05 does not show powered-down CLOUD nodes, so
// a stand-in slurmd makes one node of each such NodeName line visible.
func cloudStandIns(c *ir.Cluster) []string {
	var out []string
	for _, p := range c.ComputePools() {
		if _, cloud := poolNodes(c, p); len(cloud) > 0 {
			out = append(out, cloud[0])
		}
	}
	return out
}

// checkSpec checks, on the running cluster, that slurmctld accepted the
// rendered spec and shows what the spec asks for.
func checkSpec(t *testing.T, cl *cluster, sp compiled, set render.Set) {
	t.Run("accepted", func(t *testing.T) {
		// A line a warning of the spec predicts (fidelity.WarnedRules, as
		// the oracle and the import corpus count it) is the answer lint
		// gave; any other error line is a false negative.
		warned := fidelity.WarnedRules()
		var errs []string
		for _, line := range cl.LogErrors() {
			if w := warnedLine(line, sp.diags, warned); w != "" {
				t.Logf("%s: slurmctld logged %q, as lint warned (%s)", sp.name, line, w)
				continue
			}
			errs = append(errs, line)
		}
		if len(errs) > 0 {
			t.Errorf("slurmctld logged error lines for %s:\n  %s", sp.name, strings.Join(errs, "\n  "))
		}
	})
	t.Run("config", func(t *testing.T) { checkConfig(t, cl, sp, set) })
	t.Run("partitions", func(t *testing.T) { checkPartitions(t, cl, sp) })
	t.Run("nodes", func(t *testing.T) { checkNodes(t, cl, sp) })
}

// checkConfig compares `scontrol show config` with every user config key
// of the spec, and with every other global key of the rendered slurm.conf
// that the harness did not override.
func checkConfig(t *testing.T, cl *cluster, sp compiled, set render.Set) {
	cfg, err := cl.ShowConfig()
	if err != nil {
		t.Fatal(err)
	}
	overridden := map[string]localslurm.Override{}
	for _, ov := range cl.Overrides() {
		overridden[strings.ToLower(ov.Key)] = ov
	}
	show := func(key string) (string, string, bool) {
		if k, ok := showConfigKey[strings.ToLower(key)]; ok {
			key = k
		}
		return lookupFold(cfg, key)
	}
	checked := map[string]bool{}
	for _, kv := range sp.cluster.Slurm.Config {
		key, want := kv.Key.Value, kv.Value.Value
		checked[strings.ToLower(key)] = true
		if ov, ok := overridden[strings.ToLower(key)]; ok {
			t.Logf("user key %s=%s not compared: the harness runs %s", key, want, ov)
			continue
		}
		shownKey, got, ok := show(key)
		switch {
		case !ok:
			t.Errorf("spec config %s=%s (%s): slurmctld does not show %s in scontrol show config", key, want, kv.Key.Path, key)
		case !sameValue(want, got):
			t.Errorf("spec config %s=%s (%s): slurmctld shows %s = %q", key, want, kv.Key.Path, shownKey, got)
		}
	}
	f, err := slurmconf.Parse(set.Get("slurm.conf").Data)
	if err != nil {
		t.Fatalf("parse rendered slurm.conf: %v", err)
	}
	n := 0
	for _, p := range f.Global {
		if checked[strings.ToLower(p.Key)] {
			continue
		}
		want, _ := f.GetGlobal(p.Key) // the last value wins, as in Slurm
		checked[strings.ToLower(p.Key)] = true
		if _, ok := overridden[strings.ToLower(p.Key)]; ok {
			continue
		}
		n++
		shownKey, got, ok := show(p.Key)
		switch {
		case !ok:
			t.Errorf("rendered %s=%s: slurmctld does not show %s in scontrol show config", p.Key, want, p.Key)
		case !sameValue(want, got):
			t.Errorf("rendered %s=%s: slurmctld shows %s = %q", p.Key, want, shownKey, got)
		}
	}
	t.Logf("%d user keys and %d other rendered global keys compared; %d overridden by the harness", len(sp.cluster.Slurm.Config), n, len(overridden))
}

// checkPartitions compares `scontrol show partition` with the spec's
// partitions: names, the default, the node sets and the nodes they expand
// to, the totals, and every partition config key.
func checkPartitions(t *testing.T, cl *cluster, sp compiled) {
	c := sp.cluster
	parts, err := cl.ShowPartitions()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]localslurm.Fields{}
	var names, want []string
	for _, p := range parts {
		byName[p["PartitionName"]] = p
		names = append(names, p["PartitionName"])
	}
	for _, p := range c.Slurm.Partitions {
		want = append(want, p.ID.Value)
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("partitions %v, spec has %v", names, want)
	}
	var powerSave map[string]localslurm.Fields
	for _, p := range c.Slurm.Partitions {
		got, ok := byName[p.ID.Value]
		if !ok {
			continue
		}
		id := p.ID.Value
		wantDefault := "NO"
		if id == c.Slurm.DefaultPartitionID.Value {
			wantDefault = "YES"
		}
		if got["Default"] != wantDefault {
			t.Errorf("partition %s: Default=%s, want %s (spec default partition %q)", id, got["Default"], wantDefault, c.Slurm.DefaultPartitionID.Value)
		}
		var pools, nodes []string
		var cpus, mem int64
		known := true
		for _, ref := range p.NodePoolIDs {
			pools = append(pools, ref.Value)
			pool := c.Pool(ref.Value)
			static, cloud := poolNodes(c, pool)
			nodes = append(nodes, append(static, cloud...)...)
			if m := pool.Machine; m != nil && m.VCPUs > 0 && m.RealMemoryMiB() > 0 {
				cpus += int64(m.VCPUs) * pool.MaxNodeCount.Value
				mem += int64(m.RealMemoryMiB()) * pool.MaxNodeCount.Value
			} else {
				known = false
			}
		}
		if !sameSet(pools, strings.Split(got["NodeSets"], ",")) {
			t.Errorf("partition %s: NodeSets=%s, want the spec's node pools %v", id, got["NodeSets"], pools)
		}
		gotNodes := cl.hostnames(t, got["Nodes"])
		slices.Sort(gotNodes)
		slices.Sort(nodes)
		if !slices.Equal(gotNodes, nodes) {
			t.Errorf("partition %s: Nodes=%s expands to %v, want the nodes of pools %v: %v", id, got["Nodes"], gotNodes, pools, nodes)
		}
		if got["TotalNodes"] != strconv.Itoa(len(nodes)) {
			t.Errorf("partition %s: TotalNodes=%s, want %d", id, got["TotalNodes"], len(nodes))
		}
		if known {
			// Totals count the hidden CLOUD nodes too: they prove every
			// node's CPUs and RealMemory, visible or not.
			if got["TotalCPUs"] != strconv.FormatInt(cpus, 10) {
				t.Errorf("partition %s: TotalCPUs=%s, want %d (vCPUs of every node of %v)", id, got["TotalCPUs"], cpus, pools)
			}
			if gotMem, ok := tresMemMiB(got["TRES"]); !ok || math.Abs(gotMem-float64(mem)) > gotMem*0.0001 {
				t.Errorf("partition %s: TRES=%s, want mem=%dM (RealMemory of every node of %v)", id, got["TRES"], mem, pools)
			}
		}
		for _, kv := range p.Config {
			key, value := kv.Key.Value, kv.Value.Value
			field := key
			if f, ok := partitionField[strings.ToLower(key)]; ok {
				field = f
			}
			shown, v, ok := lookupFold(got, field)
			if !ok {
				// DefMemPerGPU and DefCpuPerGPU are shown inside JobDefaults.
				shown, v, ok = jobDefault(got, key)
			}
			if !ok && powerSaveShown[strings.ToLower(field)] {
				if powerSave == nil {
					powerSave = cl.powerSavePartitions(t)
				}
				shown, v, ok = lookupFold(powerSave[id], field)
			}
			switch {
			case exclusiveShown(key, value, got):
			case ok && memUnlimitedShown(key, value, v):
			case ok && overSubscribeShown(key, value, v):
			case !ok:
				t.Errorf("partition %s: spec config %s=%s (%s) has no %s in scontrol show partition", id, key, value, kv.Key.Path, field)
			case !sameValue(value, v):
				t.Errorf("partition %s: spec config %s=%s (%s), slurmctld shows %s=%s", id, key, value, kv.Key.Path, shown, v)
			}
		}
	}
}

// exclusiveShown reports whether a partition's OverSubscribe=EXCLUSIVE,
// ExclusiveUser or ExclusiveTopo is shown as Slurm 26.05 shows them: one
// field, Exclusive=TOPO|NODE|USER|NO, and OverSubscribe=NO for an
// exclusive partition (src/api/partition_info.c at slurm-26-05-3-1:
// EXCLUSIVE is max_share 0, printed as OverSubscribe=NO and Exclusive=NODE;
// TOPO wins over NODE, NODE over USER). Earlier releases print
// OverSubscribe=EXCLUSIVE, ExclusiveUser= and ExclusiveTopo= instead, and
// have no Exclusive field, so this never applies to them.
func exclusiveShown(key, value string, got localslurm.Fields) bool {
	excl, ok := got["Exclusive"]
	if !ok {
		return false
	}
	yes := boolValue(value) == "yes"
	switch strings.ToLower(key) {
	case "oversubscribe":
		if strings.EqualFold(value, "EXCLUSIVE") {
			return got["OverSubscribe"] == "NO" && (excl == "NODE" || excl == "TOPO")
		}
		return false
	case "exclusiveuser":
		if yes {
			return excl == "USER" || excl == "NODE" || excl == "TOPO"
		}
		return excl != "USER"
	case "exclusivetopo":
		return yes == (excl == "TOPO")
	}
	return false
}

// powerSaveShown lists the partition fields that `scontrol show partition`
// of Slurm 23.02 and later prints only when the client's own slurm.conf
// names both SuspendProgram and ResumeProgram (src/api/partition_info.c,
// power_save_on: read at slurm-24-11-5-1 and slurm-26-05-3-1); 22.05 prints
// them whenever one is set. The harness's slurm.conf names neither
// (SuspendProgram is the service's), so they are read through a client-only
// slurm.conf that does (powerSavePartitions).
var powerSaveShown = map[string]bool{"resumetimeout": true, "suspendtimeout": true, "suspendtime": true, "powerdownonidle": true}

// powerSavePartitions shows the partitions, by name, through a client-only
// slurm.conf naming SuspendProgram and ResumeProgram: no daemon reads it,
// so power saving stays as the rendered file has it.
func (cl *cluster) powerSavePartitions(t *testing.T) map[string]localslurm.Fields {
	t.Helper()
	parts, err := cl.ShowPartitionsClientConf("SuspendProgram=/bin/true\nResumeProgram=/bin/true\n")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]localslurm.Fields{}
	for _, p := range parts {
		out[p["PartitionName"]] = p
	}
	return out
}

// jobDefault finds key in the JobDefaults=K=V,... field of a partition.
func jobDefault(fields map[string]string, key string) (string, string, bool) {
	_, list, ok := lookupFold(fields, "JobDefaults")
	if !ok {
		return "", "", false
	}
	for item := range strings.SplitSeq(list, ",") {
		if k, v, ok := strings.Cut(item, "="); ok && strings.EqualFold(k, key) {
			return "JobDefaults " + k, v, true
		}
	}
	return "", "", false
}

// tresMemMiB returns the mem= of a TRES list in MiB. Slurm prints it with
// a unit and two decimals: mem=15775168M, or mem=11460.50G.
func tresMemMiB(tres string) (float64, bool) {
	for item := range strings.SplitSeq(tres, ",") {
		v, ok := strings.CutPrefix(item, "mem=")
		if !ok || v == "" {
			continue
		}
		scale := map[byte]float64{'M': 1, 'G': 1 << 10, 'T': 1 << 20, 'P': 1 << 30}[v[len(v)-1]]
		n, err := strconv.ParseFloat(v[:len(v)-1], 64)
		if scale == 0 || err != nil {
			return 0, false
		}
		return n * scale, true
	}
	return 0, false
}

// checkNodes compares `scontrol show node` with the spec's compute pools:
// every static node, and every stand-in, must be shown with the pool's
// CPUs, RealMemory, GRES, partitions and node set config. A pool without a
// visible node fails: nothing would prove its GRES.
func checkNodes(t *testing.T, cl *cluster, sp compiled) {
	c := sp.cluster
	nodes, err := cl.ShowNodes()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]localslurm.Fields{}
	for _, n := range nodes {
		byName[n["NodeName"]] = n
	}
	for _, pool := range c.ComputePools() {
		static, cloud := poolNodes(c, pool)
		var parts []string
		for _, p := range c.Slurm.Partitions {
			if slices.ContainsFunc(p.NodePoolIDs, func(s ir.Str) bool { return s.Value == pool.ID.Value }) {
				parts = append(parts, p.ID.Value)
			}
		}
		want := map[string]string{}
		if m := pool.Machine; m != nil {
			if m.VCPUs > 0 {
				want["CPUTot"] = strconv.Itoa(m.VCPUs)
			}
			if mem := m.RealMemoryMiB(); mem > 0 {
				want["RealMemory"] = strconv.Itoa(mem)
			}
			if n, whole := m.WholeGPUs(); m.HasGPU() && whole {
				want["Gres"] = fmt.Sprintf("gpu:%s:%d", m.GPUModel, n)
			} else {
				want["Gres"] = "(null)"
			}
		}
		var extra [][2]string
		if ns := c.Slurm.NodeSetFor(pool.ID.Value); ns != nil {
			for _, kv := range ns.Config {
				extra = append(extra, [2]string{kv.Key.Value, kv.Value.Value})
			}
		}
		seen := 0
		for _, name := range append(static, cloud...) {
			n, ok := byName[name]
			if !ok {
				if slices.Contains(static, name) {
					t.Errorf("pool %s: static node %s not shown by scontrol show node", pool.ID.Value, name)
				}
				continue
			}
			seen++
			for field, v := range want {
				got := n[field]
				if field == "Gres" && v != "(null)" && (got == "" || got == "(null)") {
					t.Errorf("node %s: Gres=%s, want %s: slurmctld dropped the rendered GRES", name, got, v)
					continue
				}
				if !sameValue(v, got) {
					t.Errorf("node %s: %s=%s, want %s (machine type %s)", name, field, got, v, pool.MachineType.Value)
				}
			}
			if !sameSet(parts, strings.Split(n["Partitions"], ",")) {
				t.Errorf("node %s: Partitions=%s, want %v", name, n["Partitions"], parts)
			}
			for _, kv := range extra {
				field := kv[0]
				if f, ok := nodeField[strings.ToLower(field)]; ok {
					field = f
				}
				shown, got, ok := lookupFold(n, field)
				if strings.EqualFold(field, "SocketsPerBoard") {
					// scontrol shows Sockets (Boards × SocketsPerBoard) and
					// Boards, not SocketsPerBoard.
					shown, got, ok = socketsPerBoard(n)
				}
				switch {
				case !ok:
					t.Errorf("node %s: node set config %s=%s has no %s in scontrol show node", name, kv[0], kv[1], field)
				case !sameValue(kv[1], got):
					t.Errorf("node %s: node set config %s=%s, slurmctld shows %s=%s", name, kv[0], kv[1], shown, got)
				}
			}
		}
		t.Logf("pool %s: %d of %d nodes shown (powered-down CLOUD nodes are not) and checked against %v", pool.ID.Value, seen, len(static)+len(cloud), want)
		if seen == 0 {
			t.Errorf("pool %s: no node of %v is shown by scontrol show node, so its hardware and GRES are unchecked", pool.ID.Value, append(static, cloud...))
		}
	}
}

// socketsPerBoard derives a node's SocketsPerBoard from what scontrol show
// node displays: Sockets divided by Boards.
func socketsPerBoard(n map[string]string) (shown, value string, ok bool) {
	sockets, err1 := strconv.Atoi(n["Sockets"])
	boards, err2 := strconv.Atoi(n["Boards"])
	if err1 != nil || err2 != nil || boards == 0 {
		return "", "", false
	}
	return "Sockets/Boards", strconv.Itoa(sockets / boards), true
}
