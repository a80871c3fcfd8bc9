package importconf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// pool is one node pool of the spec.
type pool struct {
	id          string
	machineType string
	machine     *machines.Machine // nil for a TODO placeholder
	todo        bool
	min, max    int64
	config      []kv
	login       bool
	// standIn marks the pool that stands in when slurm.conf defines no
	// nodes.
	standIn bool
	// provisioning is the provisioningModel to write ("" for none): a
	// placeholder naming the candidates for a GPU pool.
	provisioning string
	// static and cloud are the node names slurm.conf gives, in order.
	static, cloud []string
	line          int
}

// partition is one partition of the spec.
type partition struct {
	id     string
	pools  []string
	config []kv
}

// node is one node of a NodeName line.
type node struct {
	name  string
	line  int
	cloud bool
	hw    hardware
	// config is the NodeName keys that go into nodeSets config.
	config []kv
	// sig identifies nodes that can share a pool: same hardware and config.
	sig string
}

// renderedNodeKeys are the NodeName keys the renderer writes itself.
var renderedNodeKeys = map[string]bool{"nodename": true, "cpus": true, "procs": true, "realmemory": true, "gres": true, "state": true}

// perNodeKeys name one node each; the service names and addresses nodes.
var perNodeKeys = map[string]bool{"nodeaddr": true, "nodehostname": true, "port": true, "bcastaddr": true}

// withDefaults applies NAME=DEFAULT lines to the lines after them, as
// Slurm does, and drops the DEFAULT lines. Keys are matched as Slurm
// matches them: ignoring case, an alias as its key (Feature as Features).
func withDefaults(lines []slurmconf.Line, scope catalog.Scope) []slurmconf.Line {
	var defaults []slurmconf.Pair
	var out []slurmconf.Line
	for _, l := range lines {
		if strings.EqualFold(l.Name(), "DEFAULT") {
			for _, p := range l.Pairs[1:] {
				defaults = setPair(defaults, p, scope)
			}
			continue
		}
		// A line's own key replaces a default; a key the line gives twice
		// stays twice, for lastOfEach to report.
		var own []slurmconf.Pair
		for _, p := range defaults {
			if !slices.ContainsFunc(l.Pairs[1:], func(q slurmconf.Pair) bool { return sameKey(scope, p.Key, q.Key) }) {
				own = append(own, p)
			}
		}
		pairs := append([]slurmconf.Pair{l.Pairs[0]}, own...)
		pairs = append(pairs, l.Pairs[1:]...)
		out = append(out, slurmconf.Line{Num: l.Num, Pairs: pairs})
	}
	return out
}

func setPair(pairs []slurmconf.Pair, p slurmconf.Pair, scope catalog.Scope) []slurmconf.Pair {
	for i := range pairs {
		if sameKey(scope, pairs[i].Key, p.Key) {
			pairs[i] = p
			return pairs
		}
	}
	return append(pairs, p)
}

// sameKey reports whether two keys are one to Slurm.
func sameKey(scope catalog.Scope, a, b string) bool {
	ka, _ := slurmconf.CanonicalKey(scope, a)
	kb, _ := slurmconf.CanonicalKey(scope, b)
	return strings.EqualFold(ka, kb)
}

// readNodes expands the NodeName lines into nodes.
func (im *importer) readNodes(f *slurmconf.File) ([]*node, error) {
	var out []*node
	seen := map[string]int{}
	for _, l := range withDefaults(f.Nodes, catalog.ScopeNode) {
		names, err := hostlist.Expand(l.Name(), im.budget)
		if err != nil {
			return nil, fmt.Errorf("slurm.conf %s: %w", im.where(l.Num), err)
		}
		hw, cloud, cfg := im.nodeLine(l, names)
		var parts []string
		for _, p := range cfg {
			parts = append(parts, p.Key+"="+p.Value)
		}
		hwOf := im.gresConfTypes(l, names, hw)
		var dups []string
		prev := 0
		for _, n := range names {
			if p, dup := seen[n]; dup {
				dups, prev = append(dups, n), p
				continue
			}
			seen[n] = l.Num
			h := hw
			if own, ok := hwOf[n]; ok {
				h = own
			}
			sig := fmt.Sprintf("%d|%d|%s|%d|%s", h.CPUs, h.RealMemory, h.GPUType, h.GPUs, strings.Join(parts, " "))
			out = append(out, &node{name: n, line: l.Num, cloud: cloud, hw: h, config: cfg, sig: sig})
		}
		if len(dups) == 1 {
			im.note(l.Num, "node %s is already defined on %s; this definition is ignored", dups[0], im.where(prev))
		} else if len(dups) > 1 {
			im.note(l.Num, "nodes %s are already defined (%s and others); this definition of them is ignored", summarize(dups), im.where(prev))
		}
	}
	return out, nil
}

// gresConfTypes gives each node of a NodeName line whose Gres= names GPUs
// without a type the type gres.conf gives that node, when gres.conf gives
// the nodes of the line different types (nodeLine reads the first node's):
// Slurm types each node's GPUs from its own gres.conf lines, so the nodes
// become separate groups, with a note. It returns nil when the line's
// nodes agree, or there is nothing to look up.
func (im *importer) gresConfTypes(l slurmconf.Line, names []string, hw hardware) map[string]hardware {
	if im.gres == nil || hw.GPUs == 0 || len(names) < 2 {
		return nil
	}
	if v, _ := l.Get("Gres"); im.parseGres(l.Num, v).Type != "" {
		return nil
	}
	typeOf := map[string]string{}
	byType := map[string][]string{}
	var order []string
	for _, n := range names {
		types, _ := im.gres.forNode(n)
		t := ""
		if len(types) == 1 {
			t = types[0]
		}
		typeOf[n] = t
		if _, ok := byType[t]; !ok {
			order = append(order, t)
		}
		byType[t] = append(byType[t], n)
	}
	if len(order) < 2 {
		return nil
	}
	var groups []string
	for _, t := range order {
		shown := t
		if shown == "" {
			shown = "no single type"
		}
		groups = append(groups, hostlist.Compress(byType[t])+": "+shown)
	}
	im.note(l.Num, "gres.conf gives the nodes of this NodeName line different GPU types (%s); they are imported as separate groups, each with its own type", strings.Join(groups, "; "))
	out := map[string]hardware{}
	for _, n := range names {
		h := hw
		h.GPUType = typeOf[n]
		h.GPUModel = gpuModel(im.cat, h.GPUType)
		out[n] = h
	}
	return out
}

// nodeLine reads the keys of one NodeName line.
func (im *importer) nodeLine(l slurmconf.Line, names []string) (hw hardware, cloud bool, cfg []kv) {
	num := func(key string) int {
		v, ok := l.Get(key)
		if !ok {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			im.note(l.Num, "%s=%s is not a number; ignored", key, v)
			return 0
		}
		return n
	}
	hw.CPUs = num("CPUs")
	if hw.CPUs == 0 {
		hw.CPUs = num("Procs")
	}
	if hw.CPUs == 0 {
		_, s := l.Get("Sockets")
		_, spb := l.Get("SocketsPerBoard")
		_, c := l.Get("CoresPerSocket")
		_, t := l.Get("ThreadsPerCore")
		_, b := l.Get("Boards")
		if s || spb || c || t || b {
			hw.CPUs = topologyCPUs(num("Boards"), num("Sockets"), num("SocketsPerBoard"), num("CoresPerSocket"), num("ThreadsPerCore"), s, spb)
		}
	}
	hw.RealMemory = num("RealMemory")
	if v, ok := l.Get("Gres"); ok {
		g := im.parseGres(l.Num, v)
		if len(g.Other) > 0 {
			im.note(l.Num, "Gres entries %s not imported: the service writes Gres=gpu:MODEL:COUNT from the machine type", strings.Join(g.Other, ","))
		}
		if len(g.OtherTypes) > 0 {
			first := "gpu:" + g.Type + ":" + strconv.Itoa(g.Count)
			if g.Type == "" {
				first = "gpu:" + strconv.Itoa(g.Count) + " (no type)"
			}
			im.choice(l.Num, "Gres=%s puts more than one GPU type on a node, and a machine type has one GPU model: the pool's machine type is matched on the first, %s, and %s is dropped; give those GPUs node pools of their own", v, first, strings.Join(g.OtherTypes, ","))
		}
		hw.GPUs, hw.GPUType = g.Count, g.Type
		if g.Count > 0 && g.Type == "" && im.gres != nil && len(names) > 0 {
			types, count := im.gres.forNode(names[0])
			switch {
			case len(types) == 1:
				hw.GPUType = types[0]
				if count != g.Count {
					im.note(l.Num, "gres.conf gives %s %d GPUs, Gres=%s says %d; using %d", names[0], count, v, g.Count, g.Count)
				}
			case len(types) > 1:
				im.note(l.Num, "gres.conf gives %s several GPU types (%s); the type stays unknown", names[0], strings.Join(types, ", "))
			}
		}
		hw.GPUModel = gpuModel(im.cat, hw.GPUType)
	} else if im.gres != nil && len(names) > 0 {
		if _, count := im.gres.forNode(names[0]); count > 0 {
			im.note(l.Num, "gres.conf gives %s %d GPUs, but its NodeName line has no Gres=, so Slurm does not schedule them; not counted", names[0], count)
		}
	}
	if v, ok := l.Get("State"); ok {
		states := strings.FieldsFunc(strings.ToUpper(v), func(r rune) bool { return r == ',' || r == '+' })
		for _, s := range states {
			switch s {
			case "CLOUD":
				cloud = true
			case "FUTURE":
				cloud = true
				im.choice(l.Num, "State=%s: FUTURE nodes are imported as nodes the pool may scale up to (State=CLOUD)", v)
			case "UNKNOWN":
			default:
				im.note(l.Num, "State=%s dropped: the service manages node state", s)
			}
		}
	}
	var dropped []string
	for _, p := range l.Pairs {
		lower := strings.ToLower(p.Key)
		switch {
		case renderedNodeKeys[lower]:
		case perNodeKeys[lower]:
			dropped = append(dropped, p.Key)
		case lower == "reason":
			// A reason goes with a DOWN or DRAIN state, which the
			// service sets.
			im.note(l.Num, "%s=%s dropped: the service manages node state", p.Key, p.Value)
		default:
			if pair, ok := im.configPair(catalog.ScopeNode, "NodeName", l.Num, p.Key, p.Value); ok {
				cfg = append(cfg, pair)
			}
		}
	}
	if len(dropped) > 0 {
		im.note(l.Num, "%s dropped: the service names and addresses the nodes", strings.Join(dropped, ", "))
	}
	cfg = im.lastOfEach(l.Num, cfg)
	sortKVs(cfg)
	return hw, cloud, cfg
}

// topologyCPUs is the CPU count Slurm infers for a NodeName line without
// CPUs= (_build_single_nodeline_info in src/common/read_config.c): Sockets
// is the node's total, not per board; without it the total is Boards ×
// SocketsPerBoard, or one socket per board; SocketsPerBoard wins over
// Sockets when both are given; CPUs are sockets × CoresPerSocket ×
// ThreadsPerCore. Zero counts are read as 1, as Slurm resets them.
func topologyCPUs(boards, sockets, socketsPerBoard, cores, threads int, hasSockets, hasPerBoard bool) int {
	boards, cores, threads = max(1, boards), max(1, cores), max(1, threads)
	total := boards
	switch {
	case hasPerBoard:
		total = boards * max(1, socketsPerBoard)
	case hasSockets:
		total = max(1, sockets)
	}
	return total * cores * threads
}

// nodeSet is a NodeSet line: the nodes it names (directly, by Feature or
// ALL).
type nodeSet struct {
	name    string
	all     bool
	nodes   map[string]bool
	feature string
}

func (ns *nodeSet) has(n *node) bool {
	if ns.all || ns.nodes[n.name] {
		return true
	}
	if ns.feature == "" {
		return false
	}
	for _, p := range n.config {
		if strings.EqualFold(p.Key, "Features") {
			for _, f := range strings.Split(p.Value, ",") {
				if f == ns.feature {
					return true
				}
			}
		}
	}
	return false
}

func (im *importer) readNodeSets(f *slurmconf.File) ([]*nodeSet, error) {
	var out []*nodeSet
	for _, l := range f.NodeSets {
		ns := &nodeSet{name: l.Name()}
		if v, ok := l.Get("Nodes"); ok {
			if strings.EqualFold(v, "ALL") {
				ns.all = true
			} else {
				names, err := hostlist.Expand(v, im.budget)
				if err != nil {
					return nil, fmt.Errorf("slurm.conf %s: %w", im.where(l.Num), err)
				}
				ns.nodes = map[string]bool{}
				for _, n := range names {
					ns.nodes[n] = true
				}
			}
		}
		ns.feature, _ = l.Get("Feature")
		out = append(out, ns)
	}
	return out, nil
}
