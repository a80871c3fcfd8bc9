package importconf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// groupName is the pool a node belongs to: its first NodeSet, else the
// name of its family (see families), without the "<cluster>-" prefix the
// renderer adds.
func (im *importer) groupName(n *node, sets []*nodeSet, family map[string]string) string {
	for _, ns := range sets {
		if ns.has(n) {
			return ns.name
		}
	}
	g := family[nameKey(n.name)]
	if rest, ok := strings.CutPrefix(g, im.clusterID+"-"); ok && rest != "" {
		g = rest
	}
	return g
}

// nameKey is a node name with each run of digits replaced by '#': the
// names of one family ("r01n001" … "r50n128") share it.
func nameKey(s string) string {
	var b strings.Builder
	digits := false
	for i := 0; i < len(s); i++ {
		d := s[i] >= '0' && s[i] <= '9'
		switch {
		case d && !digits:
			b.WriteByte('#')
		case !d:
			b.WriteByte(s[i])
		}
		digits = d
	}
	return b.String()
}

// digitRuns returns the runs of digits of s, in order.
func digitRuns(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// families names each family of node names (nodes sharing a nameKey) by
// the part of its first name before the first run of digits that varies
// within the family: "r[01-50]n[001-200]" is "r", "h100-[01-04]" is
// "h100", "c-gpu-[0-7]" is "c-gpu"; a family of one is its name without
// the trailing digits.
func families(nodes []*node) map[string]string {
	members := map[string][]string{}
	var order []string
	for _, n := range nodes {
		k := nameKey(n.name)
		if _, ok := members[k]; !ok {
			order = append(order, k)
		}
		members[k] = append(members[k], n.name)
	}
	out := map[string]string{}
	for _, k := range order {
		names := members[k]
		first := names[0]
		runs := digitRuns(first)
		prefix := strings.TrimRight(first, "0123456789")
		for i, r := range runs {
			if slices.ContainsFunc(names[1:], func(other string) bool {
				or := digitRuns(other) // same key: the same number of runs
				return other[or[i][0]:or[i][1]] != first[r[0]:r[1]]
			}) {
				prefix = first[:r[0]]
				break
			}
		}
		prefix = strings.TrimRight(prefix, "-_.")
		if prefix == "" {
			prefix = strings.TrimRight(first, "-_.")
		}
		out[k] = prefix
	}
	return out
}

// nodes builds the compute pools: nodes grouped by NodeSet or host name
// prefix, each group split further where hardware or node config differ.
func (im *importer) nodes(f *slurmconf.File) error {
	nodes, err := im.readNodes(f)
	if err != nil {
		return err
	}
	sets, err := im.readNodeSets(f)
	if err != nil {
		return err
	}
	im.sets = sets
	family := families(nodes)
	type key struct{ group, sig string }
	byKey := map[key]*pool{}
	sigsOf := map[string][]string{}
	taken := map[string]bool{}
	hwOf := map[*pool]hardware{}
	groupOf := map[*pool]string{}
	im.poolOf = map[string]*pool{}
	im.rename = map[string]string{}
	for _, n := range nodes {
		g := im.groupName(n, sets, family)
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
				im.choice(n.line, "nodes of %s differ in hardware or node keys from the ones before; they become a separate node pool %q", g, id)
			} else if id != g {
				im.choice(n.line, "node group %s becomes node pool %q (pool ids are lowercase letters, digits and hyphens)", g, id)
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
		same := true
		for i, n := range append(append([]string{}, p.static...), p.cloud...) {
			name := managed.NodeName(im.clusterID, p.id, int64(i))
			im.rename[n] = name
			same = same && n == name
		}
		if !same {
			got := append(append([]string{}, p.static...), p.cloud...)
			im.choice(p.line, "the nodes of pool %q (%s) are named %s on the service: update anything that names them", p.id, summarize(got), hostlist.Range(im.clusterID+"-"+p.id+"-", 0, p.max))
		}
	}
	if len(nodes) == 0 {
		// Nodes are often in an Include not followed; the spec needs a
		// compute pool, so one stands in for a person to size.
		p := &pool{id: StandInPoolID, machineType: StandInMachinePlaceholder, todo: true, min: 1, max: 1, standIn: true}
		im.pools = append(im.pools, p)
		im.decide(0, "slurm.conf defines no nodes (an Include may hold them): node pool %q (1 node) stands in; choose its machineType in place of %s and its size, or import the nodes", p.id, StandInMachinePlaceholder)
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

// cpuTopologyKeys describe an on-premises node's CPU layout; they only hold
// for the machine type they were written for.
var cpuTopologyKeys = map[string]bool{"sockets": true, "corespersocket": true, "threadspercore": true, "boards": true, "socketsperboard": true}

// machine sets a pool's machine type and provisioning model. What the
// evidence does not settle becomes a placeholder naming the candidates.
func (im *importer) machine(p *pool, hw hardware, group string) {
	t, why, candidates := inferMachine(im.cat, hw, im.scan.machineHint[group])
	switch {
	case t == "" && len(candidates) > 1:
		p.machineType, p.todo = ChoosePrefix+strings.Join(candidates, "-or-"), true
		im.decide(p.line, "pool %q: %s; machineType is the placeholder %s, which fails the schema until you choose one of %s", p.id, why, p.machineType, strings.Join(candidates, ", "))
	case t == "":
		p.machineType, p.todo = todoMachineType(hw), true
		im.decide(p.line, "pool %q: %s; machineType is the placeholder %s, which fails the schema until you choose a type", p.id, why, p.machineType)
	default:
		p.machineType = t
		p.machine, _ = im.cat.Lookup(t)
		if hint := im.scan.machineHint[group]; t == hint && why == "" {
			im.choice(p.line, "pool %q: machine type %s, as slurmspec's comment in the file names it", p.id, t)
		} else if why != "" {
			im.choice(p.line, "pool %q: machine type %s: %s", p.id, t, why)
		} else {
			im.choice(p.line, "pool %q: machine type %s, the only catalog type with %s", p.id, t, describe(hw))
		}
	}
	if p.todo {
		var kept []kv
		var dropped []string
		for _, c := range p.config {
			if cpuTopologyKeys[strings.ToLower(c.Key)] {
				dropped = append(dropped, c.Key+"="+c.Value)
				continue
			}
			kept = append(kept, c)
		}
		if len(dropped) > 0 {
			p.config = kept
			im.note(p.line, "pool %q: %s dropped: they describe the on-premises CPUs, and slurmctld resets a node whose layout differs from the machine type chosen; set them again only if they match it", p.id, strings.Join(dropped, " "))
		}
	}
	m := p.machine
	if hw.GPUs == 0 && (m == nil || !m.HasGPU()) {
		return
	}
	// The API has no default provisioning model for GPU pools, and
	// slurm.conf does not say how the GPUs are bought.
	models := []string{"ON_DEMAND", "SPOT", "FLEX_START", "RESERVATION"}
	if m != nil {
		var supported []string
		for _, model := range models {
			if listed, _ := machines.Supports(m.Provisioning, model); listed {
				supported = append(supported, model)
			}
		}
		if len(supported) > 0 {
			models = supported
		}
	}
	p.provisioning = ChoosePrefix + strings.Join(models, "-or-")
	im.decide(p.line, "pool %q: slurm.conf does not say how the GPUs are bought: choose provisioningModel, one of %s, in place of the placeholder (and reservationAffinity for RESERVATION)", p.id, strings.Join(models, ", "))
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
