package diff

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Slurm reads slurm.conf keys case-insensitively (slurm.conf(5): "The
// contents of the file are case insensitive except for the names of nodes
// and partitions"), so keys are compared lowercased, aliases resolved
// (slurmconf.CanonicalKey: the catalog's keys whose status is "alias" with
// a single replacement key). Values are compared exactly.
// repeatable are the global keys Slurm reads from several lines (S_P_ARRAY
// since 24.05 for Prolog and Epilog and their slurmctld variants;
// SlurmctldHost lists the primary and the backups): all their values are
// compared, in order. Any other key takes its last value.
var repeatable = map[string]bool{"prolog": true, "epilog": true, "prologslurmctld": true, "epilogslurmctld": true, "slurmctldhost": true}

func canon(scope catalog.Scope, key string) string {
	name, _ := slurmconf.CanonicalKey(scope, key)
	return strings.ToLower(name)
}

// attr is one Key=Value of a line: the key as written, the value as
// written, and the form it is compared in.
type attr struct {
	key, value, norm string
}

// attrs maps canonical keys to attributes.
type attrs map[string]attr

func (a attrs) clone() attrs {
	out := make(attrs, len(a))
	for k, v := range a {
		out[k] = v
	}
	return out
}

// String writes the attributes as Key=Value pairs, sorted by key.
func (a attrs) String() string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = a[k].key + "=" + a[k].value
	}
	return strings.Join(parts, " ")
}

type globalKey struct {
	key    string
	values []string
}

// value is what the key is compared and shown as.
func (g *globalKey) value() string {
	if len(g.values) == 0 {
		return ""
	}
	if repeatable[strings.ToLower(g.key)] {
		return strings.Join(g.values, ", ")
	}
	return g.values[len(g.values)-1]
}

// conf is a slurm.conf read for comparison.
type conf struct {
	version     catalog.Series
	hasVersion  bool
	global      map[string]*globalKey
	partitions  map[string]attrs
	defaultPart string
	nodeSets    map[string]attrs
	nodes       map[string]attrs
}

var headerRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^#.*rendered by slurmspec for Slurm (\d[\d.]*\d)`)
})

// parseConf reads a rendered slurm.conf: comments are dropped, keys
// canonicalised, and NodeName host lists expanded to single nodes.
func parseConf(data []byte, budget *hostlist.Budget) (*conf, error) {
	f, err := slurmconf.Parse(data)
	if err != nil {
		return nil, err
	}
	if len(f.Includes) > 0 {
		return nil, fmt.Errorf("line %d: Include is not supported: slurmspec never renders it", f.Includes[0].Num)
	}
	c := &conf{global: map[string]*globalKey{}, partitions: map[string]attrs{}, nodeSets: map[string]attrs{}, nodes: map[string]attrs{}}
	if m := headerRe().FindSubmatch(data); m != nil {
		if v, err := catalog.ParseSeries(string(m[1])); err == nil {
			c.version, c.hasVersion = v, true
		}
	}
	for _, p := range f.Global {
		k := canon(catalog.ScopeGlobal, p.Key)
		g := c.global[k]
		if g == nil {
			g = &globalKey{}
			c.global[k] = g
		}
		g.key = p.Key
		g.values = append(g.values, p.Value)
	}
	var defaults attrs
	for _, l := range f.Nodes {
		a, err := lineAttrs(l, catalog.ScopeNode, budget)
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(l.Name(), "DEFAULT") {
			defaults = merge(defaults, a)
			continue
		}
		names, err := hostlist.Expand(l.Name(), budget)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", l.Num, err)
		}
		for _, n := range names {
			c.nodes[n] = merge(merge(nil, defaults), merge(c.nodes[n], a))
		}
	}
	for _, l := range f.NodeSets {
		a, err := lineAttrs(l, catalog.ScopeNode, budget)
		if err != nil {
			return nil, err
		}
		c.nodeSets[l.Name()] = merge(c.nodeSets[l.Name()], a)
	}
	defaults = nil
	for _, l := range f.Partitions {
		a, err := lineAttrs(l, catalog.ScopePartition, budget)
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(l.Name(), "DEFAULT") {
			defaults = merge(defaults, a)
			continue
		}
		a = merge(merge(nil, defaults), a)
		if d, ok := a["default"]; ok {
			if strings.EqualFold(d.value, "YES") {
				c.defaultPart = l.Name()
			}
			delete(a, "default")
		}
		c.partitions[l.Name()] = merge(c.partitions[l.Name()], a)
	}
	return c, nil
}

// lineAttrs returns a line's pairs after the naming one.
func lineAttrs(l slurmconf.Line, scope catalog.Scope, budget *hostlist.Budget) (attrs, error) {
	a := attrs{}
	for _, p := range l.Pairs[1:] {
		k := canon(scope, p.Key)
		at := attr{key: p.Key, value: p.Value, norm: p.Value}
		if k == "nodes" {
			names, err := hostlist.Expand(p.Value, budget)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", l.Num, err)
			}
			sort.Strings(names)
			at.norm = strings.Join(dedup(names), ",")
		}
		a[k] = at
	}
	return a, nil
}

func merge(dst, src attrs) attrs {
	if dst == nil {
		dst = attrs{}
	} else {
		dst = dst.clone()
	}
	for k, v := range src {
		dst[k] = v
	}
	return dst
}

func dedup(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// attrDiff is one key that differs between two lines.
type attrDiff struct {
	op            Op
	key, old, new string
}

// diffAttrs compares two lines' attributes, sorted by canonical key.
func diffAttrs(old, new attrs) []attrDiff {
	keys := map[string]bool{}
	for k := range old {
		keys[k] = true
	}
	for k := range new {
		keys[k] = true
	}
	var out []attrDiff
	for _, k := range sortedKeys(keys) {
		o, inOld := old[k]
		n, inNew := new[k]
		switch {
		case !inOld:
			out = append(out, attrDiff{OpAdded, n.key, "", n.value})
		case !inNew:
			out = append(out, attrDiff{OpRemoved, o.key, o.value, ""})
		case o.norm != n.norm:
			out = append(out, attrDiff{OpChanged, n.key, o.value, n.value})
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// compareConf adds the changes between two slurm.conf files.
func (c *comparer) compareConf(old, new *conf) {
	from := len(c.changes)
	c.compareGlobal(old, new)
	c.explainGlobalEffective(old, new, from)
	c.comparePartitions(old, new)
	c.compareNodeSets(old, new)
	c.compareNodes(old, new)
}

func (c *comparer) compareGlobal(old, new *conf) {
	keys := map[string]bool{}
	for k := range old.global {
		keys[k] = true
	}
	for k := range new.global {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		o, n := old.global[k], new.global[k]
		ch := Change{Kind: KindGlobal}
		var ov, nv []string
		switch {
		case o == nil:
			ch.Op, ch.Key, ch.New, nv = OpAdded, n.key, n.value(), n.values
		case n == nil:
			ch.Op, ch.Key, ch.Old, ov = OpRemoved, o.key, o.value(), o.values
		case o.value() != n.value():
			ch.Op, ch.Key, ch.Old, ch.New, ov, nv = OpChanged, n.key, o.value(), n.value(), o.values, n.values
		default:
			continue
		}
		c.classifyGlobal(&ch, ov, nv)
		c.add(ch)
	}
}

func (c *comparer) classifyGlobal(ch *Change, old, new []string) {
	ch.Impact, ch.Reason = Reconfigure, reasonReconfigure
	switch r := restartRuleFor(ch.Key, old, new, c.series); {
	case strings.EqualFold(ch.Key, "ClusterName"):
		ch.Impact = ReplaceCluster
		ch.Reason = "ClusterName is the cluster id, which cannot change (" + clusterIdentitySource + "): the cluster is replaced"
		ch.HurtsJobs = hurtsClusterReplaced
		return
	case r != nil:
		what := ch.Key
		if r.option != "" {
			what = ch.Key + " option " + r.option
		}
		ch.Impact = Restart
		ch.Reason = fmt.Sprintf("`scontrol reconfigure` cannot change %s in Slurm %s: restart %s (%s)", what, c.series, r.daemons, r.source)
		if r.unsure != "" {
			ch.Reason += "; unsure: " + r.unsure
		}
	}
	if j := jobRuleFor(globalJobRules, ch.Key); j != nil {
		// The one documented exception: legacy cons_res to cons_tres
		// keeps the jobs (slurm.conf(5) 26.05 SelectType).
		if strings.EqualFold(ch.Key, "SelectType") && strings.EqualFold(ch.Old, "select/cons_res") && strings.EqualFold(ch.New, "select/cons_tres") {
			return
		}
		ch.HurtsJobs = j.hurts + " (" + j.source + ")"
	}
	if h := exemptHurts(ch); h != "" {
		ch.HurtsJobs = h
	}
}

func (c *comparer) comparePartitions(old, new *conf) {
	from := len(c.changes)
	c.compareLines(KindPartition, old.partitions, new.partitions, hurtsPartitionRemoved, partitionJobRules)
	c.explainEffective(old, new, from)
	c.explainPreemption(new, from)
	if old.defaultPart != new.defaultPart {
		ch := Change{Kind: KindPartition, Key: "Default", Old: old.defaultPart, New: new.defaultPart, Op: OpChanged,
			Impact: Reconfigure, Reason: reasonReconfigure}
		switch {
		case old.defaultPart == "":
			ch.Op = OpAdded
		case new.defaultPart == "":
			ch.Op = OpRemoved
			ch.HurtsJobs = "jobs submitted without --partition are rejected: there is no default partition"
		default:
			ch.HurtsJobs = fmt.Sprintf(hurtsDefaultMoved, new.defaultPart, old.defaultPart)
		}
		c.add(ch)
	}
}

func (c *comparer) compareNodeSets(old, new *conf) {
	c.compareLines(KindNodeSet, old.nodeSets, new.nodeSets, "", nil)
}

// compareLines compares named slurm.conf lines (partitions, node sets):
// added and removed lines, then their keys one by one. removedHurts is what
// removing a line does to jobs; jobRules flag keys whose change hurts them.
func (c *comparer) compareLines(kind Kind, old, new map[string]attrs, removedHurts string, jobRules []jobRule) {
	names := map[string]bool{}
	for k := range old {
		names[k] = true
	}
	for k := range new {
		names[k] = true
	}
	for _, name := range sortedKeys(names) {
		o, inOld := old[name]
		n, inNew := new[name]
		base := Change{Kind: kind, Path: name, Impact: Reconfigure, Reason: reasonReconfigure}
		switch {
		case !inOld:
			ch := base
			ch.Op, ch.New = OpAdded, n.String()
			c.add(ch)
		case !inNew:
			ch := base
			ch.Op, ch.Old, ch.HurtsJobs = OpRemoved, o.String(), removedHurts
			c.add(ch)
		default:
			for _, d := range diffAttrs(o, n) {
				ch := base
				ch.Op, ch.Key, ch.Old, ch.New = d.op, d.key, d.old, d.new
				if j := jobRuleFor(jobRules, d.key); j != nil {
					ch.HurtsJobs = j.hurts + " (" + j.source + ")"
				}
				c.add(ch)
			}
		}
	}
}

// compareNodes compares node by node, then groups the nodes that changed
// the same way into one change named by their host list.
func (c *comparer) compareNodes(old, new *conf) {
	type group struct {
		d     attrDiff
		nodes []string
	}
	groups := map[attrDiff]*group{}
	var order []attrDiff
	note := func(d attrDiff, node string) {
		g := groups[d]
		if g == nil {
			g = &group{d: d}
			groups[d] = g
			order = append(order, d)
		}
		g.nodes = append(g.nodes, node)
	}
	names := map[string]bool{}
	for k := range old.nodes {
		names[k] = true
	}
	for k := range new.nodes {
		names[k] = true
	}
	all := sortedKeys(names)
	sort.SliceStable(all, func(i, j int) bool { return hostlist.Less(all[i], all[j]) })
	for _, name := range all {
		o, inOld := old.nodes[name]
		n, inNew := new.nodes[name]
		switch {
		case !inOld:
			note(attrDiff{op: OpAdded, new: n.String()}, name)
		case !inNew:
			note(attrDiff{op: OpRemoved, old: o.String()}, name)
		default:
			for _, d := range diffAttrs(o, n) {
				note(d, name)
			}
		}
	}
	impact, reason := Reconfigure, fmt.Sprintf("node configuration changes; Slurm %s applies it on `scontrol reconfigure` (%s)", c.series, nodeReconfigureSource)
	if c.series.Before(execReconfigure) {
		impact = Restart
		reason = fmt.Sprintf("`scontrol reconfigure` cannot add, remove or change nodes in Slurm %s: restart slurmctld and every slurmd (%s)", c.series, nodeRestartSource)
	}
	for _, d := range order {
		g := groups[d]
		ch := Change{Kind: KindNode, Op: d.op, Path: hostlist.Compress(g.nodes), Key: d.key, Old: d.old, New: d.new, Impact: impact, Reason: reason}
		if d.op == OpRemoved {
			ch.HurtsJobs = hurtsNodesRemoved
		}
		c.add(ch)
	}
}
