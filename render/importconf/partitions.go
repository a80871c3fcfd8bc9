package importconf

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

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
	im.partID = map[string]string{}
	inherited := inheritedPairs(f.Partitions)
	upFrom := map[int][]string{} // DEFAULT line → partitions its State=UP is left out of
	for i, l := range withDefaults(f.Partitions, catalog.ScopePartition) {
		name := l.Name()
		base := sanitizePartitionID(name)
		id := base
		for i := 2; taken[id]; i++ {
			id = fmt.Sprintf("%s-%d", base, i)
		}
		taken[id] = true
		if id != name {
			im.choice(l.Num, "partition %s becomes %q (partition ids are lowercase letters, digits, _ and -): update job scripts that name it", name, id)
		}
		part := &partition{id: id}
		upLine := 0 // the DEFAULT line whose State=UP is left out
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
		for j, p := range l.Pairs[1:] {
			switch strings.ToLower(p.Key) {
			case "nodes", "default":
				continue
			case "state":
				if in := inherited[i]; j < in.n && in.upLine > 0 {
					upLine = in.upLine
					continue
				}
			case "allocnodes":
				v, keep, err := im.allocNodes(l.Num, name, p.Value)
				if err != nil {
					return err
				}
				if !keep {
					continue
				}
				p.Value = v
			}
			if pair, ok := im.configPair(catalog.ScopePartition, "PartitionName", l.Num, p.Key, p.Value); ok {
				part.config = append(part.config, pair)
			}
		}
		part.config = im.lastOfEach(l.Num, part.config)
		sortKVs(part.config)
		if len(part.pools) == 0 {
			im.note(l.Num, "partition %s has no nodes the import knows; dropped (a partition needs at least one node pool)", name)
			if im.defPart == id {
				im.defPart = ""
			}
			continue
		}
		im.parts = append(im.parts, part)
		im.partID[name] = id
		if upLine > 0 {
			upFrom[upLine] = append(upFrom[upLine], name)
		}
	}
	for _, line := range slices.Sorted(maps.Keys(upFrom)) {
		names := upFrom[line]
		what := "partition " + names[0]
		if len(names) > 1 {
			what = "partitions " + strings.Join(names, ", ")
		}
		im.note(line, "State=UP of PartitionName=DEFAULT not copied into %s: UP is the state of a partition that sets none", what)
	}
	switch {
	case len(im.parts) == 0:
		// The spec needs a partition; one over every compute pool stands
		// in for a person to shape.
		id := StandInPartitionID
		for i := 2; taken[id]; i++ {
			id = fmt.Sprintf("%s-%d", StandInPartitionID, i)
		}
		part := &partition{id: id}
		for _, p := range im.pools {
			part.pools = append(part.pools, p.id)
		}
		im.parts = append(im.parts, part)
		im.defPart = id
		im.decide(0, "slurm.conf defines no usable partition (an Include may hold them): partition %q over every node pool stands in as the default; shape it, or import the partitions", id)
	case im.defPart == "":
		im.choice(0, "no partition is marked Default=YES; the service makes the first one (%s) the default", im.parts[0].id)
	}
	return nil
}

// partitionPools maps a partition's Nodes= value (NodeSet names, host
// lists, ALL) to node pools; a pool is taken whole even when the
// partition names only some of its nodes.
func (im *importer) partitionPools(line int, name, value string) ([]string, error) {
	items, err := hostlist.Split(value)
	if err != nil {
		return nil, fmt.Errorf("slurm.conf %s: %w", im.where(line), err)
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
				if p.standIn {
					// Slurm's ALL is every node there is, dynamic nodes
					// included: here none that slurm.conf names.
					im.note(line, "partition %s: Nodes=ALL names no node slurm.conf defines (dynamic nodes or an Include may add them); it holds the stand-in node pool %q", name, p.id)
				}
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
		names, err := hostlist.Expand(it, im.budget)
		if err != nil {
			return nil, fmt.Errorf("slurm.conf %s: %w", im.where(line), err)
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
			im.choice(line, "partition %s has %d of the %d nodes of pool %q; it gets the whole pool (partitions take whole node pools)", name, n, p.max, p.id)
		}
	}
	return out, nil
}

func (im *importer) nodeHasFeature(p *pool, feature string) bool {
	ns := &nodeSet{feature: feature}
	return ns.has(&node{config: p.config})
}

// inherit is what a partition line takes from PartitionName=DEFAULT lines:
// how many pairs (after the name), and the DEFAULT line whose State=UP it
// takes (0 when none).
type inherit struct{ n, upLine int }

// inheritedPairs gives an inherit for each line withDefaults returns.
func inheritedPairs(lines []slurmconf.Line) []inherit {
	var defaults []slurmconf.Pair
	var out []inherit
	upLine := 0
	for _, l := range lines {
		if strings.EqualFold(l.Name(), "DEFAULT") {
			for _, p := range l.Pairs[1:] {
				defaults = setPair(defaults, p, catalog.ScopePartition)
				if strings.EqualFold(p.Key, "State") {
					upLine = 0
					if strings.EqualFold(p.Value, "UP") {
						upLine = l.Num
					}
				}
			}
			continue
		}
		in := inherit{}
		for _, p := range defaults {
			if !slices.ContainsFunc(l.Pairs[1:], func(q slurmconf.Pair) bool { return sameKey(catalog.ScopePartition, p.Key, q.Key) }) {
				in.n++
				if strings.EqualFold(p.Key, "State") {
					in.upLine = upLine
				}
			}
		}
		out = append(out, in)
	}
	return out
}

// allocNodes maps the hosts of a partition's AllocNodes to the names the
// spec gives them. AllocNodes lists the only hosts jobs may be submitted
// to the partition from (slurmctld refuses a job from any other host), so
// a name the import does not rename (a login host outside slurm.conf, which
// the service replaces by its own login nodes) would shut every user out:
// then the key is left out with a note. keep is false when it is left out.
func (im *importer) allocNodes(line int, part, value string) (string, bool, error) {
	if strings.EqualFold(value, "ALL") {
		return value, true, nil
	}
	out, unknown, err := im.renameHosts(value)
	if err != nil {
		return "", false, fmt.Errorf("slurm.conf %s: AllocNodes: %w", im.where(line), err)
	}
	if len(unknown) > 0 {
		im.note(line, "partition %s: AllocNodes=%s dropped: it names hosts the service's cluster does not have (%s), and slurmctld refuses jobs submitted from any host it does not list; jobs are submitted from the login nodes, so list theirs if the partition must stay gated", part, value, summarize(unknown))
		return "", false, nil
	}
	v := hostlist.Compress(out)
	if v != value {
		im.note(line, "partition %s: AllocNodes=%s rewritten as %s, the names in the spec", part, value, v)
	}
	return v, true, nil
}

// renameHosts expands a Slurm host list (within the import's budget) and
// maps each host to the name the spec gives it: renamed holds those names,
// in the list's order, and unknown the hosts no NodeName line defines.
func (im *importer) renameHosts(value string) (renamed, unknown []string, err error) {
	names, err := hostlist.Expand(value, im.budget)
	if err != nil {
		return nil, nil, err
	}
	for _, n := range names {
		if r, ok := im.rename[n]; ok {
			renamed = append(renamed, r)
		} else {
			unknown = append(unknown, n)
		}
	}
	return renamed, unknown, nil
}
