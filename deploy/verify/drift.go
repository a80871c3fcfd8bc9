package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// drift compares the live partitions and nodes with what the spec renders.
func drift(c *ir.Cluster, e *expected, parts []slurmapi.Partition, nodes []slurmapi.Node) diag.List {
	var out diag.List
	live := map[string]slurmapi.Partition{}
	for _, p := range parts {
		live[p.Name] = p
	}
	rendered := map[string]bool{}
	for _, p := range e.partitions {
		rendered[p.name] = true
		lp, ok := live[p.name]
		if !ok {
			out.Add(finding(c, p, "", online.VerifyPartitionMissing, diag.Error,
				fmt.Sprintf("partition %s is not on the live cluster, or the caller's Linux account may not see it", p.name),
				"deploy the spec (slurmspec deploy up); a partition whose AllowGroups, AllowAccounts or Hidden=YES keeps the caller out is hidden from the caller too"))
			continue
		}
		out = append(out, partitionDrift(c, p, lp)...)
	}
	var extra []string
	for _, p := range parts {
		if !rendered[p.Name] {
			extra = append(extra, p.Name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		out.Add(diag.Diagnostic{Rule: online.RuleVerifyPartitionUnexpected, Severity: online.VerifyPartitionUnexpected.Severity,
			Pos: c.Slurm.Pos, Path: c.Slurm.Path,
			Message: fmt.Sprintf("the live cluster has partition %s, which the spec does not render", name),
			Hint:    "add it to the spec, or remove it from the cluster (scontrol delete partition=" + name + ")"})
	}
	out = append(out, nodeDrift(c, e, nodes)...)
	return out
}

// partitionDrift compares one partition's nodes, state and settings.
func partitionDrift(c *ir.Cluster, p *partition, lp slurmapi.Partition) diag.List {
	var out diag.List
	liveNodes, err := hostlist.Expand(lp.Nodes.Configured, hostlist.NewBudget(maxNodes))
	if err != nil {
		liveNodes = nil
	}
	if missing, extra := difference(p.nodes, liveNodes); len(missing) > 0 || len(extra) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "lacks "+hostlist.Compress(missing))
		}
		if len(extra) > 0 {
			parts = append(parts, "also has "+hostlist.Compress(extra))
		}
		out.Add(finding(c, p, "Nodes", online.VerifyPartitionDrift, diag.Warning,
			fmt.Sprintf("partition %s has %d nodes on the live cluster, the spec renders %d: it %s", p.name, len(liveNodes), len(p.nodes), strings.Join(parts, " and ")),
			"scontrol update changed the partition, or the spec's pools changed since it was deployed; deploy the spec to bring them back"))
	}
	if !slices.Contains(lp.Partition.State, "UP") {
		if want, _ := p.line.Get("State"); want == "" || strings.EqualFold(want, "UP") {
			out.Add(finding(c, p, "State", online.VerifyPartitionDrift, diag.Error,
				fmt.Sprintf("partition %s is %s on the live cluster, the spec renders it UP: it takes or starts no jobs", p.name, strings.Join(lp.Partition.State, ",")),
				"scontrol update PartitionName="+p.name+" State=UP, once whatever made it "+strings.Join(lp.Partition.State, ",")+" is over"))
		}
	}
	// Each setting against the rendered line, or Slurm's default when the
	// line does not give it (slurm.conf(5): MaxTime and MaxNodes
	// UNLIMITED, MinNodes 0, PriorityTier 1, DefaultTime unset).
	for _, k := range []struct {
		key, also, def string
		live           slurmapi.Number
		time           bool
	}{
		{"MaxTime", "", "UNLIMITED", lp.Maximums.Time, true},
		{"DefaultTime", "", "", lp.Defaults.Time, true},
		{"PriorityTier", "Priority", "1", slurmapi.Number{Set: true, Number: lp.Priority.Tier}, false},
		{"MaxNodes", "", "UNLIMITED", lp.Maximums.Nodes, false},
		{"MinNodes", "", "0", slurmapi.Number{Set: true, Number: lp.Minimums.Nodes}, false},
	} {
		want, ok := p.line.Get(k.key)
		if !ok && k.also != "" {
			want, ok = p.line.Get(k.also)
		}
		if !ok {
			if k.def == "" {
				continue
			}
			want = k.def
		}
		if same(want, k.live, k.time) {
			continue
		}
		got := k.live.String()
		if k.time && got != "" && !k.live.Infinite {
			got += " minutes"
		}
		if got == "" {
			got = "unset"
		}
		renders := "the spec renders " + want
		if !ok {
			renders = "the spec leaves it at Slurm's default, " + want
		}
		out.Add(finding(c, p, k.key, online.VerifyPartitionDrift, diag.Warning,
			fmt.Sprintf("partition %s has %s=%s on the live cluster, %s", p.name, k.key, got, renders),
			"scontrol update changed it, or the spec changed since it was deployed; deploy the spec (or run scontrol reconfigure) to bring it back"))
	}
	return out
}

// same reports whether a rendered value equals the live number.
func same(rendered string, live slurmapi.Number, isTime bool) bool {
	var want int64
	if isTime {
		m, ok := catalog.ParseTime(rendered)
		if !ok {
			return true // lint reports a malformed time; nothing to compare
		}
		if m == catalog.Infinite {
			return live.Infinite
		}
		want = m
	} else {
		if strings.EqualFold(rendered, "UNLIMITED") || strings.EqualFold(rendered, "INFINITE") {
			return live.Infinite
		}
		n, err := strconv.ParseInt(rendered, 10, 64)
		if err != nil {
			return true
		}
		want = n
	}
	return live.Set && !live.Infinite && live.Number == want
}

// difference returns the names of want not in got, and of got not in want.
func difference(want, got []string) (missing, extra []string) {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	w, g := in(want), in(got)
	for _, s := range want {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	for _, s := range got {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	return missing, extra
}

// finding makes a finding about a partition: at the key in the
// partition's config when the spec sets it there, else at the partition's
// id.
func finding(c *ir.Cluster, p *partition, key string, e ids.Entry, sev diag.Severity, msg, hint string) diag.Diagnostic {
	d := diag.Diagnostic{Rule: e.ID, Severity: sev, Message: msg, Hint: hint, Pos: c.Slurm.Pos, Path: c.Slurm.Path}
	if p.spec == nil {
		return d
	}
	d.Pos, d.Path = p.spec.ID.Pos, p.spec.ID.Path
	for _, kv := range p.spec.Config {
		if strings.EqualFold(kv.Key.Value, key) {
			d.Pos, d.Path = kv.Value.Pos, kv.Value.Path
		}
	}
	return d
}

// nodeDrift compares every rendered node with the live one, one finding
// per pool and difference.
func nodeDrift(c *ir.Cluster, e *expected, nodes []slurmapi.Node) diag.List {
	live := map[string]slurmapi.Node{}
	for _, n := range nodes {
		live[n.Name] = n
	}
	type group struct {
		pool  *ir.NodePool
		what  string // "missing", or "CPUs", "RealMemory", "GPUs"
		want  int64
		got   int64
		names []string
	}
	var groups []*group
	add := func(n *node, what string, want, got int64) {
		for _, g := range groups {
			if g.pool == n.pool && g.what == what && g.want == want && g.got == got {
				g.names = append(g.names, n.name)
				return
			}
		}
		groups = append(groups, &group{pool: n.pool, what: what, want: want, got: got, names: []string{n.name}})
	}
	names := make([]string, 0, len(e.nodes))
	for name := range e.nodes {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if hostlist.Less(a, b) {
			return -1
		}
		if hostlist.Less(b, a) {
			return 1
		}
		return 0
	})
	for _, name := range names {
		n := e.nodes[name]
		ln, ok := live[name]
		if !ok {
			add(n, "missing", 0, 0)
			continue
		}
		if n.cpus > 0 && ln.CPUs != n.cpus {
			add(n, "CPUs", int64(n.cpus), int64(ln.CPUs))
		}
		if n.realMemory > 0 && ln.RealMemory != n.realMemory {
			add(n, "RealMemory", n.realMemory, ln.RealMemory)
		}
		if got := liveGPUs(ln.Gres); got != n.gpus {
			add(n, "GPUs", n.gpus, got)
		}
	}
	var out diag.List
	for _, g := range groups {
		d := diag.Diagnostic{Rule: online.RuleVerifyNodeDrift, Severity: online.VerifyNodeDrift.Severity, Pos: c.Slurm.Pos, Path: c.Slurm.Path}
		of := ""
		if g.pool != nil {
			d.Pos, d.Path = g.pool.MachineType.Pos, g.pool.MachineType.Path
			of = " of pool " + g.pool.ID.Value
		}
		list := hostlist.Compress(g.names)
		unit := ""
		if g.what == "RealMemory" {
			unit = " MiB"
		}
		if g.what == "missing" {
			d.Message = fmt.Sprintf("nodes %s%s are not on the live cluster", list, of)
			d.Hint = "deploy the spec; a node slurmctld does not know takes no jobs"
		} else {
			d.Message = fmt.Sprintf("nodes %s%s have %s=%d%s on the live cluster, the spec renders %d%s", list, of, g.what, g.got, unit, g.want, unit)
			d.Hint = "the machines differ from the machine type's catalog figures, or the node was changed with scontrol; jobs sized for the rendered figures may be refused"
		}
		out.Add(d)
	}
	return out
}

// liveGPUs counts the GPUs of a live node's Gres ("gpu:b200:8(S:0-1)").
func liveGPUs(gres string) int64 {
	var n int64
	for item := range strings.SplitSeq(gres, ",") {
		item, _, _ = strings.Cut(item, "(")
		fields := strings.Split(item, ":")
		if len(fields) < 2 || fields[0] != "gpu" {
			continue
		}
		if count, ok := slurmconfCount(fields[len(fields)-1]); ok {
			n += count
		}
	}
	return n
}
