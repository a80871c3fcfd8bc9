package importconf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	catalog "github.com/slurmspec/slurmspec/schema/slurmconf"
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
	// reservation is set when the machine type is sold only through
	// reservations (provisioning RESERVATION with a placeholder).
	provisioning string
	reservation  bool
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
var perNodeKeys = map[string]bool{"nodeaddr": true, "nodehostname": true, "port": true, "bcastaddr": true, "reason": true}

// withDefaults applies NAME=DEFAULT lines to the lines after them, as
// Slurm does, and drops the DEFAULT lines.
func withDefaults(lines []slurmconf.Line) []slurmconf.Line {
	var defaults []slurmconf.Pair
	var out []slurmconf.Line
	for _, l := range lines {
		if strings.EqualFold(l.Name(), "DEFAULT") {
			for _, p := range l.Pairs[1:] {
				defaults = setPair(defaults, p)
			}
			continue
		}
		pairs := []slurmconf.Pair{l.Pairs[0]}
		for _, p := range defaults {
			pairs = setPair(pairs, p)
		}
		for _, p := range l.Pairs[1:] {
			pairs = setPair(pairs, p)
		}
		out = append(out, slurmconf.Line{Num: l.Num, Pairs: pairs})
	}
	return out
}

func setPair(pairs []slurmconf.Pair, p slurmconf.Pair) []slurmconf.Pair {
	for i := range pairs {
		if strings.EqualFold(pairs[i].Key, p.Key) {
			pairs[i] = p
			return pairs
		}
	}
	return append(pairs, p)
}

// readNodes expands the NodeName lines into nodes.
func (im *importer) readNodes(f *slurmconf.File) ([]*node, error) {
	var out []*node
	seen := map[string]int{}
	for _, l := range withDefaults(f.Nodes) {
		names, err := ExpandHostlist(l.Name())
		if err != nil {
			return nil, fmt.Errorf("slurm.conf line %d: %w", l.Num, err)
		}
		hw, cloud, cfg := im.nodeLine(l, names)
		var parts []string
		for _, p := range cfg {
			parts = append(parts, p.Key+"="+p.Value)
		}
		sig := fmt.Sprintf("%d|%d|%s|%d|%s", hw.CPUs, hw.RealMemory, hw.GPUType, hw.GPUs, strings.Join(parts, " "))
		for _, n := range names {
			if prev, dup := seen[n]; dup {
				im.note(l.Num, "node %s is already defined on line %d; this definition is ignored", n, prev)
				continue
			}
			seen[n] = l.Num
			out = append(out, &node{name: n, line: l.Num, cloud: cloud, hw: hw, config: cfg, sig: sig})
		}
	}
	return out, nil
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
		_, c := l.Get("CoresPerSocket")
		_, t := l.Get("ThreadsPerCore")
		if s || c || t {
			hw.CPUs = max(1, num("Sockets")) * max(1, num("CoresPerSocket")) * max(1, num("ThreadsPerCore"))
			if b := num("Boards"); b > 0 {
				hw.CPUs *= b
			}
		}
	}
	hw.RealMemory = num("RealMemory")
	if v, ok := l.Get("Gres"); ok {
		g := parseGres(v)
		if len(g.Other) > 0 {
			im.note(l.Num, "Gres entries %s not imported: the service writes Gres=gpu:MODEL:COUNT from the machine type", strings.Join(g.Other, ","))
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
				im.note(l.Num, "State=%s: FUTURE nodes are imported as nodes the pool may scale up to (State=CLOUD)", v)
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
		default:
			if pair, ok := im.configPair(catalog.ScopeNode, "NodeName", l.Num, p.Key, p.Value); ok {
				cfg = append(cfg, pair)
			}
		}
	}
	if len(dropped) > 0 {
		im.note(l.Num, "%s dropped: the service names and addresses the nodes", strings.Join(dropped, ", "))
	}
	sortKVs(cfg)
	return hw, cloud, cfg
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
		if strings.EqualFold(p.Key, "Features") || strings.EqualFold(p.Key, "Feature") {
			for _, f := range strings.Split(p.Value, ",") {
				if f == ns.feature {
					return true
				}
			}
		}
	}
	return false
}

func readNodeSets(f *slurmconf.File) ([]*nodeSet, error) {
	var out []*nodeSet
	for _, l := range f.NodeSets {
		ns := &nodeSet{name: l.Name()}
		if v, ok := l.Get("Nodes"); ok {
			if strings.EqualFold(v, "ALL") {
				ns.all = true
			} else {
				names, err := ExpandHostlist(v)
				if err != nil {
					return nil, fmt.Errorf("slurm.conf line %d: %w", l.Num, err)
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

// groupName is the pool a node belongs to: its first NodeSet, else its
// name without the trailing index (and without the "<cluster>-" prefix the
// renderer adds).
func (im *importer) groupName(n *node, sets []*nodeSet) string {
	for _, ns := range sets {
		if ns.has(n) {
			return ns.name
		}
	}
	g := strings.TrimRight(n.name, "0123456789")
	g = strings.TrimRight(g, "-_.")
	if g == "" {
		g = n.name
	}
	if rest, ok := strings.CutPrefix(g, im.clusterID+"-"); ok && rest != "" {
		g = rest
	}
	return g
}

// nodes builds the compute pools: nodes grouped by NodeSet or host name
// prefix, each group split further where hardware or node config differ.
func (im *importer) nodes(f *slurmconf.File) error {
	nodes, err := im.readNodes(f)
	if err != nil {
		return err
	}
	sets, err := readNodeSets(f)
	if err != nil {
		return err
	}
	im.sets = sets
	type key struct{ group, sig string }
	byKey := map[key]*pool{}
	sigsOf := map[string][]string{}
	taken := map[string]bool{}
	hwOf := map[*pool]hardware{}
	groupOf := map[*pool]string{}
	im.poolOf = map[string]*pool{}
	for _, n := range nodes {
		g := im.groupName(n, sets)
		k := key{g, n.sig}
		p := byKey[k]
		if p == nil {
			base := sanitizePoolID(g)
			id := base
			for i := 2; taken[id]; i++ {
				id = fmt.Sprintf("%s-%d", base, i)
			}
			taken[id] = true
			sigsOf[g] = append(sigsOf[g], n.sig)
			if len(sigsOf[g]) > 1 {
				im.note(n.line, "nodes of %s differ in hardware or node keys from the ones before; they become a separate node pool %q", g, id)
			} else if id != g {
				im.note(n.line, "node group %s becomes node pool %q (pool ids are lowercase letters, digits and hyphens)", g, id)
			}
			p = &pool{id: id, config: n.config, line: n.line}
			byKey[k] = p
			hwOf[p] = n.hw
			groupOf[p] = g
			im.pools = append(im.pools, p)
		}
		if n.cloud {
			p.cloud = append(p.cloud, n.name)
		} else {
			p.static = append(p.static, n.name)
		}
		im.poolOf[n.name] = p
	}
	for _, p := range im.pools {
		p.min = int64(len(p.static))
		p.max = int64(len(p.static) + len(p.cloud))
		im.machine(p, hwOf[p], groupOf[p])
		var want []string
		for i := int64(0); i < p.max; i++ {
			want = append(want, managed.NodeName(im.clusterID, p.id, i))
		}
		if got := append(append([]string{}, p.static...), p.cloud...); strings.Join(got, ",") != strings.Join(want, ",") {
			im.note(p.line, "the nodes of pool %q (%s) are named %s on the service: update anything that names them", p.id, summarize(got), slurmconf.Hostlist(im.clusterID+"-"+p.id+"-", 0, p.max))
		}
	}
	if len(nodes) == 0 {
		im.note(0, "slurm.conf defines no nodes")
	}
	return nil
}

// summarize shortens a node list for a note.
func summarize(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ",")
	}
	return fmt.Sprintf("%s,%s,…,%s", names[0], names[1], names[len(names)-1])
}

// machine sets a pool's machine type and provisioning model.
func (im *importer) machine(p *pool, hw hardware, group string) {
	t, why := inferMachine(im.cat, hw, im.scan.machineHint[group])
	if t == "" {
		p.machineType, p.todo = todoMachineType(hw), true
		im.note(p.line, "pool %q: %s; machineType is the placeholder %s, which fails the schema until you choose a type", p.id, why, p.machineType)
		return
	}
	p.machineType = t
	p.machine, _ = im.cat.Lookup(t)
	if why != "" {
		im.note(p.line, "pool %q: machine type %s: %s", p.id, t, why)
	}
	m := p.machine
	if m == nil || !m.HasGPU() {
		return
	}
	// The API has no default provisioning model for GPU pools.
	for _, model := range []string{"ON_DEMAND", "SPOT", "FLEX_START", "RESERVATION"} {
		if listed, _ := machines.Supports(m.Provisioning, model); listed {
			p.provisioning = model
			break
		}
	}
	if p.provisioning == "" {
		p.provisioning = "SPOT"
	}
	p.reservation = p.provisioning == "RESERVATION"
	im.note(p.line, "pool %q: slurm.conf does not say how the GPUs are bought; provisioningModel is %s (%s supports %s): set it, and reservationAffinity for a reservation",
		p.id, p.provisioning, m.Type, strings.Join(machines.Names(m.Provisioning), ", "))
}

// sanitizePoolID makes a name into a node pool id: lowercase letters,
// digits and hyphens, starting with a letter, at most 32 characters.
func sanitizePoolID(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	id := b.String()
	if len(id) > 28 { // room for a "-NN" suffix
		id = id[:28]
	}
	id = strings.TrimRight(id, "-")
	if id == "" {
		return "pool"
	}
	return id
}

// sanitizePartitionID makes a name into a partition id: lowercase letters,
// digits, _ and -, starting with a letter, ending with a letter or digit.
func sanitizePartitionID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || (r >= '0' && r <= '9' || r == '_' || r == '-') && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	id := b.String()
	if len(id) > 29 {
		id = id[:29]
	}
	id = strings.TrimRight(id, "-_")
	if id == "" {
		return "part"
	}
	return id
}

// partitions reads the PartitionName lines.
func (im *importer) partitions(f *slurmconf.File) error {
	taken := map[string]bool{}
	for _, l := range withDefaults(f.Partitions) {
		name := l.Name()
		base := sanitizePartitionID(name)
		id := base
		for i := 2; taken[id]; i++ {
			id = fmt.Sprintf("%s-%d", base, i)
		}
		taken[id] = true
		if id != name {
			im.note(l.Num, "partition %s becomes %q (partition ids are lowercase letters, digits, _ and -): update job scripts that name it", name, id)
		}
		part := &partition{id: id}
		if v, ok := l.Get("Nodes"); ok {
			pools, err := im.partitionPools(l.Num, name, v)
			if err != nil {
				return err
			}
			part.pools = pools
		}
		if v, ok := l.Get("Default"); ok && strings.EqualFold(v, "YES") {
			if im.defPart != "" {
				im.note(l.Num, "partition %s is marked Default=YES too; the default stays %s", name, im.defPart)
			} else {
				im.defPart = id
			}
		}
		for _, p := range l.Pairs[1:] {
			switch strings.ToLower(p.Key) {
			case "nodes", "default":
				continue
			}
			if pair, ok := im.configPair(catalog.ScopePartition, "PartitionName", l.Num, p.Key, p.Value); ok {
				part.config = append(part.config, pair)
			}
		}
		sortKVs(part.config)
		if len(part.pools) == 0 {
			im.note(l.Num, "partition %s has no nodes the import knows; dropped (a partition needs at least one node pool)", name)
			if im.defPart == id {
				im.defPart = ""
			}
			continue
		}
		im.parts = append(im.parts, part)
	}
	switch {
	case len(im.parts) == 0:
		im.note(0, "slurm.conf defines no usable partition; the spec needs one")
	case im.defPart == "":
		im.note(0, "no partition is marked Default=YES; the service makes the first one (%s) the default", im.parts[0].id)
	}
	return nil
}

// partitionPools maps a partition's Nodes= value (NodeSet names, host
// lists, ALL) to node pools; a pool is taken whole even when the
// partition names only some of its nodes.
func (im *importer) partitionPools(line int, name, value string) ([]string, error) {
	items, err := splitTop(value)
	if err != nil {
		return nil, fmt.Errorf("slurm.conf line %d: %w", line, err)
	}
	setNames := map[string]bool{}
	for _, ns := range im.sets {
		setNames[ns.name] = true
	}
	var out []string
	inPart := map[string]bool{}
	covered := map[*pool]int{}
	add := func(p *pool) {
		if !inPart[p.id] {
			inPart[p.id] = true
			out = append(out, p.id)
		}
	}
	var unknown []string
	for _, it := range items {
		if strings.EqualFold(it, "ALL") {
			for _, p := range im.pools {
				add(p)
				covered[p] = int(p.max)
			}
			continue
		}
		if setNames[it] {
			// A NodeSet: every pool with a node in it, which is every pool
			// built from it.
			for _, ns := range im.sets {
				if ns.name != it {
					continue
				}
				for _, p := range im.pools {
					for _, n := range append(append([]string{}, p.static...), p.cloud...) {
						if ns.all || ns.nodes[n] || ns.feature != "" && im.nodeHasFeature(p, ns.feature) {
							add(p)
							covered[p]++
						}
					}
				}
			}
			continue
		}
		names, err := ExpandHostlist(it)
		if err != nil {
			return nil, fmt.Errorf("slurm.conf line %d: %w", line, err)
		}
		for _, n := range names {
			p := im.poolOf[n]
			if p == nil {
				unknown = append(unknown, n)
				continue
			}
			add(p)
			covered[p]++
		}
	}
	if len(unknown) > 0 {
		im.note(line, "partition %s names nodes no NodeName line defines: %s", name, summarize(unknown))
	}
	for _, p := range im.pools {
		if n := covered[p]; inPart[p.id] && int64(n) < p.max {
			im.note(line, "partition %s has %d of the %d nodes of pool %q; it gets the whole pool (partitions take whole node pools)", name, n, p.max, p.id)
		}
	}
	return out, nil
}

func (im *importer) nodeHasFeature(p *pool, feature string) bool {
	ns := &nodeSet{feature: feature}
	return ns.has(&node{config: p.config})
}
