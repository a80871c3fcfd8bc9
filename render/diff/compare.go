// Package diff compares two rendered artifact sets (render.Set) of a
// cluster semantically and classifies every change by what applying it
// costs: in place through the API's update mask, `scontrol reconfigure`, a
// Slurm daemon restart, replacing a node pool, or replacing the cluster
// (see Impact). It also says which changes hurt running or pending jobs.
//
// slurm.conf is compared key by key: global keys, each partition, each
// node set and each node (NodeName host lists are expanded and regrouped),
// with keys compared case-insensitively and comments, order and white
// space ignored. Prolog and epilog scripts are compared as unified diffs.
// cluster.json, the canonical request body, is compared field by field:
// node pools by id, and the cluster's own fields; the slurmSpec fields
// that slurm.conf and the scripts already show are left to them.
//
// The classification tables, with their sources, are in impact.go.
package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/schema/accounting"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Options control CompareWith.
type Options struct {
	// SlurmVersion is the Slurm release series the cluster runs, such as
	// "26.05": it decides what `scontrol reconfigure` can change. When
	// empty, the version slurmspec wrote into the header comment of the
	// new slurm.conf (else the old one) is used; when that is missing
	// too, 23.02, whose rules call for a restart more often.
	SlurmVersion string
	// Target is the Slurm the change is meant for, in prose, as
	// catalog.Target.String writes it ("Slurm 26.05 (the service's
	// build)"); the report names it. Empty: "Slurm " and the series.
	Target string
	// OldName and NewName are the clusters' resource names
	// (projects/P/locations/R/modelDevelopmentClusters/ID). cluster.json
	// leaves the name out, so a change of project or region is seen only
	// when both are given. The cluster id is also ClusterName in
	// slurm.conf, which is always compared.
	OldName, NewName string
	// OldAccounting and NewAccounting are the sides' accounting files
	// (nil: none), whose changes Report.Accounting lists.
	OldAccounting, NewAccounting *accounting.File
}

// Compare compares two rendered sets of the same cluster, old and new.
// It is CompareWith with zero Options.
func Compare(old, new render.Set) (*Report, error) {
	return CompareWith(old, new, Options{})
}

// CompareWith compares two rendered sets of the same cluster. Both sets
// must hold slurm.conf and cluster.json, as render.Render produces them.
func CompareWith(old, new render.Set, opt Options) (*Report, error) {
	c := &comparer{budget: hostlist.NewBudget(hostlist.MaxHosts)}
	oldConf, err := c.conf(old, "old")
	if err != nil {
		return nil, err
	}
	newConf, err := c.conf(new, "new")
	if err != nil {
		return nil, err
	}
	switch {
	case opt.SlurmVersion != "":
		s, err := catalog.ParseSeries(opt.SlurmVersion)
		if err != nil {
			return nil, err
		}
		c.series = s
	case newConf.hasVersion:
		c.series = newConf.version
	case oldConf.hasVersion:
		c.series = oldConf.version
	default:
		c.series = fallbackSeries
	}
	c.clusterID = clusterID(newConf, oldConf)

	if opt.OldName != "" && opt.NewName != "" && opt.OldName != opt.NewName {
		c.add(Change{Kind: KindCluster, Op: OpChanged, Key: "name", Old: opt.OldName, New: opt.NewName, Impact: ReplaceCluster,
			Reason:    "the resource name (project, region, cluster id) cannot change (" + clusterIdentitySource + "): the whole cluster is replaced",
			HurtsJobs: hurtsClusterReplaced})
	}
	if err := c.compareCluster(old, new); err != nil {
		return nil, err
	}
	c.compareConf(oldConf, newConf)
	c.compareFiles(old, new)
	sortChanges(c.changes)
	for i := range c.changes {
		c.changes[i].AppliedBy = c.changes[i].Impact.AppliedBy()
	}
	r := &Report{Changes: c.changes, SlurmVersion: c.series.String(), Target: opt.Target, Accounting: accountingChanges(opt)}
	if r.Target == "" {
		r.Target = "Slurm " + r.SlurmVersion
	}
	for _, ch := range c.changes {
		if isConfKind(ch.Kind) {
			r.ConfDiff = confLinesDiff(old.Get("slurm.conf").Data, new.Get("slurm.conf").Data)
			break
		}
	}
	return r, nil
}

func isConfKind(k Kind) bool {
	switch k {
	case KindGlobal, KindPartition, KindNodeSet, KindNode:
		return true
	}
	return false
}

// confLinesDiff is a unified diff of two slurm.conf files as they are
// written, without their comment and blank lines (the header names the
// release and the date; the key comments repeat the spec's), and without
// the diff's file header lines.
func confLinesDiff(old, new []byte) string {
	d := string(diff.Diff("old/slurm.conf", configLines(old), "new/slurm.conf", configLines(new)))
	for _, prefix := range []string{"diff ", "--- ", "+++ "} {
		if strings.HasPrefix(d, prefix) {
			if i := strings.IndexByte(d, '\n'); i >= 0 {
				d = d[i+1:]
			}
		}
	}
	return d
}

// configLines keeps a slurm.conf's lines that Slurm reads.
func configLines(data []byte) []byte {
	var b bytes.Buffer
	for _, line := range strings.SplitAfter(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		b.WriteString(strings.TrimRight(line, "\n"))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// comparer collects the changes of one comparison.
type comparer struct {
	series    catalog.Series
	clusterID string
	budget    *hostlist.Budget
	changes   []Change
}

func (c *comparer) add(ch Change) { c.changes = append(c.changes, ch) }

func (c *comparer) conf(set render.Set, side string) (*conf, error) {
	a := set.Get("slurm.conf")
	if a == nil {
		return nil, fmt.Errorf("%s: the rendered set has no slurm.conf", side)
	}
	cf, err := parseConf(a.Data, c.budget)
	if err != nil {
		return nil, fmt.Errorf("%s slurm.conf: %w", side, err)
	}
	return cf, nil
}

func clusterID(confs ...*conf) string {
	for _, cf := range confs {
		if g := cf.global["clustername"]; g != nil {
			return g.value()
		}
	}
	return ""
}

func isScript(p string) bool {
	return strings.HasPrefix(p, "prolog.d/") || strings.HasPrefix(p, "epilog.d/")
}

// compareFiles compares every artifact but slurm.conf, cluster.json and the
// Pulumi project (which restates cluster.json) as text: prolog and epilog
// scripts by their place in the spec's list, anything else by path.
func (c *comparer) compareFiles(old, new render.Set) {
	for _, kind := range []struct{ dir, field string }{{"prolog.d/", "prologBashScripts"}, {"epilog.d/", "epilogBashScripts"}} {
		os, ns := runOrder(old, kind.dir), runOrder(new, kind.dir)
		for i := range max(len(os), len(ns)) {
			var o, n *render.Artifact
			if i < len(os) {
				o = &os[i]
			}
			if i < len(ns) {
				n = &ns[i]
			}
			c.compareFile(fmt.Sprintf("%s[%d]", kind.field, i), o, n, KindScript, InPlace, reasonScript)
		}
	}
	paths := map[string]bool{}
	for _, s := range []render.Set{old, new} {
		for _, a := range s {
			if a.Path != "slurm.conf" && a.Path != "cluster.json" && !isScript(a.Path) && !strings.HasPrefix(a.Path, "pulumi/") {
				paths[a.Path] = true
			}
		}
	}
	for _, p := range sortedKeys(paths) {
		c.compareFile(p, old.Get(p), new.Get(p), KindFile, Reconfigure, reasonFile)
	}
}

// runOrder returns the scripts of a directory in the order Slurm runs them:
// reverse alphabetical, which the renderer's names make the spec's order.
func runOrder(set render.Set, dir string) []render.Artifact {
	var out []render.Artifact
	for _, a := range set {
		if strings.HasPrefix(a.Path, dir) {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path > out[j].Path })
	return out
}

func (c *comparer) compareFile(label string, o, n *render.Artifact, kind Kind, impact Impact, reason string) {
	ch := Change{Kind: kind, Path: label, Impact: impact, Reason: reason}
	var od, nd []byte
	oldName, newName := "/dev/null", "/dev/null"
	switch {
	case o == nil && n == nil:
		return
	case o == nil:
		ch.Op, nd, newName = OpAdded, n.Data, "new/"+n.Path
	case n == nil:
		ch.Op, od, oldName = OpRemoved, o.Data, "old/"+o.Path
	case !bytes.Equal(o.Data, n.Data):
		ch.Op, od, nd, oldName, newName = OpChanged, o.Data, n.Data, "old/"+o.Path, "new/"+n.Path
	default:
		return
	}
	ch.Diff = string(diff.Diff(oldName, od, newName, nd))
	c.add(ch)
}

// compareCluster compares cluster.json: node pools by id and field by
// field, then the cluster's own fields.
func (c *comparer) compareCluster(old, new render.Set) error {
	ob, err := clusterBody(old, "old")
	if err != nil {
		return err
	}
	nb, err := clusterBody(new, "new")
	if err != nil {
		return err
	}
	login := loginPool(nb)
	if login == "" {
		login = loginPool(ob)
	}
	c.comparePools(pools(ob), pools(nb), login)
	c.comparePoolOrder(poolOrder(ob), poolOrder(nb))
	of, nf := map[string]string{}, map[string]string{}
	flatten("", ob, of, skipCluster)
	flatten("", nb, nf, skipCluster)
	for _, k := range unionKeys(of, nf) {
		o, inOld := of[k]
		n, inNew := nf[k]
		ch := Change{Kind: KindCluster, Key: k, Old: o, New: n, Impact: InPlace, Reason: reasonCluster}
		switch {
		case !inOld:
			ch.Op = OpAdded
		case !inNew:
			ch.Op = OpRemoved
		case o != n:
			ch.Op = OpChanged
		default:
			continue
		}
		if f := immutableField(clusterImmutable, k); f != nil {
			ch.Impact = ReplaceCluster
			ch.Reason = fmt.Sprintf("%s is immutable (%s): the whole cluster is replaced", k, f.source)
			ch.HurtsJobs = hurtsClusterReplaced
		}
		c.add(ch)
	}
	return nil
}

func clusterBody(set render.Set, side string) (map[string]any, error) {
	a := set.Get("cluster.json")
	if a == nil {
		return nil, fmt.Errorf("%s: the rendered set has no cluster.json", side)
	}
	dec := json.NewDecoder(bytes.NewReader(a.Data))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil {
		return nil, fmt.Errorf("%s cluster.json: %w", side, err)
	}
	if body == nil {
		body = map[string]any{}
	}
	return body, nil
}

// skipCluster leaves out of the cluster's fields the node pools (compared
// by id) and the slurmSpec fields compared through slurm.conf and scripts.
func skipCluster(path string) bool {
	if path == "nodePools" {
		return true
	}
	for _, p := range slurmSpecCovered {
		if path == p {
			return true
		}
	}
	return false
}

// pool is one node pool of cluster.json, flattened.
type pool struct {
	id     string
	fields map[string]string
}

func pools(body map[string]any) map[string]*pool {
	out := map[string]*pool{}
	list, _ := body["nodePools"].([]any)
	for i, it := range list {
		obj, _ := it.(map[string]any)
		if obj == nil {
			continue
		}
		id, _ := obj["id"].(string)
		if id == "" {
			id = fmt.Sprintf("nodePools[%d]", i)
		}
		p := &pool{id: id, fields: map[string]string{}}
		flatten("", obj, p.fields, func(path string) bool { return path == "id" })
		for k, v := range poolDefaults {
			if _, ok := p.fields[k]; !ok {
				p.fields[k] = v
			}
		}
		if _, ok := p.fields["provisioningModel"]; !ok {
			p.fields["provisioningModel"] = "ON_DEMAND"
			for k := range p.fields {
				if strings.HasPrefix(k, "machineSpec.reservationAffinity.") {
					p.fields["provisioningModel"] = "RESERVATION"
				}
			}
		}
		out[id] = p
	}
	return out
}

// loginPool returns orchestratorSpec.slurmSpec.loginNodePoolId.
func loginPool(body map[string]any) string {
	orch, _ := body["orchestratorSpec"].(map[string]any)
	ss, _ := orch["slurmSpec"].(map[string]any)
	id, _ := ss["loginNodePoolId"].(string)
	return id
}

// comparePools compares node pools by id. Lowering maxNodeCount is said to
// hurt jobs except on the login pool, whose nodes run no jobs.
func (c *comparer) comparePools(old, new map[string]*pool, login string) {
	ids := map[string]bool{}
	for k := range old {
		ids[k] = true
	}
	for k := range new {
		ids[k] = true
	}
	for _, id := range sortedKeys(ids) {
		o, n := old[id], new[id]
		switch {
		case o == nil:
			c.add(Change{Kind: KindNodePool, Op: OpAdded, Path: id, New: fieldsString(n.fields), Impact: ReplaceCluster, Reason: reasonPoolAdded, HurtsJobs: hurtsClusterReplaced})
			continue
		case n == nil:
			c.add(Change{Kind: KindNodePool, Op: OpRemoved, Path: id, Old: fieldsString(o.fields), Impact: ReplaceCluster, Reason: reasonPoolRemoved, HurtsJobs: hurtsClusterReplaced})
			continue
		}
		for _, k := range unionKeys(o.fields, n.fields) {
			ov, inOld := o.fields[k]
			nv, inNew := n.fields[k]
			ch := Change{Kind: KindNodePool, Path: id, Key: k, Old: ov, New: nv, Impact: InPlace, Reason: reasonPoolField}
			switch {
			case !inOld:
				ch.Op = OpAdded
			case !inNew:
				ch.Op = OpRemoved
			case ov != nv:
				ch.Op = OpChanged
			default:
				continue
			}
			if f := immutableField(poolReplacing, k); f != nil {
				ch.Impact = ReplaceCluster
				ch.Reason = fmt.Sprintf("%s of node pool %s forces replacement (%s): the whole cluster is replaced", k, id, f.source)
				if f.unsure != "" {
					ch.Reason += "; unsure: " + f.unsure
				}
				ch.HurtsJobs = hurtsClusterReplaced
			}
			if k == "scalingSpec.maxNodeCount" && id != login {
				var from, to int64
				_, err1 := fmt.Sscan(nv, &from)
				_, err2 := fmt.Sscan(ov, &to)
				if err1 == nil && err2 == nil && from < to {
					nodes := fmt.Sprintf("%d..%d", from, to-1)
					if c.clusterID != "" {
						nodes = hostlist.Range(c.clusterID+"-"+id+"-", from, to)
					}
					ch.HurtsJobs = fmt.Sprintf(hurtsMaxLowered, nodes)
				}
			}
			c.add(ch)
		}
	}
}

// poolOrder is the ids of cluster.json's node pools in list order.
func poolOrder(body map[string]any) []string {
	var out []string
	list, _ := body["nodePools"].([]any)
	for _, it := range list {
		obj, _ := it.(map[string]any)
		id, _ := obj["id"].(string)
		out = append(out, id)
	}
	return out
}

// comparePoolOrder reports node pools that kept their ids but changed
// places: the provider compares the list element by element.
func (c *comparer) comparePoolOrder(old, new []string) {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	inOld, inNew := in(old), in(new)
	var o, n []string
	for _, id := range old {
		if inNew[id] {
			o = append(o, id)
		}
	}
	for _, id := range new {
		if inOld[id] {
			n = append(n, id)
		}
	}
	if strings.Join(o, ",") == strings.Join(n, ",") {
		return
	}
	c.add(Change{Kind: KindNodePool, Op: OpChanged, Path: "order", Old: strings.Join(old, ", "), New: strings.Join(new, ", "),
		Impact: ReplaceCluster, Reason: reasonPoolOrder, HurtsJobs: hurtsClusterReplaced})
}

// flatten turns JSON into dotted paths and text values. Arrays of scalars
// are compared as sets (sorted); arrays of objects as canonical JSON.
// Empty objects and arrays, and nulls, are the same as absent.
func flatten(prefix string, v any, out map[string]string, skip func(string) bool) {
	if prefix != "" && skip(prefix) {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			flatten(p, e, out, skip)
		}
	case []any:
		if len(x) == 0 {
			return
		}
		scalars := true
		for _, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				scalars = false
			}
		}
		if scalars {
			items := make([]string, len(x))
			for i, e := range x {
				items[i] = scalarText(e)
			}
			sort.Strings(items)
			b, _ := json.Marshal(items)
			out[prefix] = string(b)
			return
		}
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	case nil:
	default:
		out[prefix] = scalarText(x)
	}
}

func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return "null"
	default:
		return fmt.Sprint(x)
	}
}

func fieldsString(m map[string]string) string {
	keys := sortedKeys(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, " ")
}

func unionKeys(a, b map[string]string) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return sortedKeys(keys)
}
