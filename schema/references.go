package schema

import (
	"fmt"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// references checks the spec's cross references: node pool, partition and
// node set ids are unique, and partitions, node sets, loginNodePoolId and
// defaultPartitionId name declared node pools and partitions.
//
// These checks were CUE (an index-map #References definition) until they
// were measured: on a 1000-pool spec CUE took 100-250 ms of CPU for them,
// Go takes well under a millisecond. They read the ids alone, so that a
// mistake elsewhere in a pool or partition never hides them; values that
// are not strings take no part (a partition without a string id counts as
// id ""). The messages are worded as the schema's error() messages are
// ("rule-id: text") and go through the same reporting as CUE's errors.
func references(root *load.Node) []rawError {
	slurm := root.Get("orchestratorSpec").Get("slurmSpec")
	type idAt struct {
		id string
		at int // index in its list
	}
	strs := func(list *load.Node, get func(*load.Node) (string, bool)) []idAt {
		var out []idAt
		if list != nil && list.Kind == load.Array {
			for i, it := range list.Items {
				if s, ok := get(it); ok {
					out = append(out, idAt{s, i})
				}
			}
		}
		return out
	}
	field := func(name string) func(*load.Node) (string, bool) {
		return func(n *load.Node) (string, bool) { return n.Get(name).Str() }
	}
	pools := strs(root.Get("nodePools"), field("id"))
	sets := strs(slurm.Get("nodeSets"), field("nodePoolId"))
	partList := slurm.Get("partitions")
	parts := strs(partList, func(n *load.Node) (string, bool) {
		if n.Kind != load.Object {
			return "", false
		}
		s, _ := n.Get("id").Str()
		return s, true
	})

	var out []rawError
	add := func(p load.Path, format string, args ...any) {
		n, matched := root.Lookup(p)
		out = append(out, rawError{path: p[:matched], node: n, msg: fmt.Sprintf(format, args...)})
	}
	slurmPath := load.Path{}.Key("orchestratorSpec").Key("slurmSpec")
	// index maps each id to the positions that declare it, in order of
	// first declaration, and reports ids declared more than once.
	index := func(ids []idAt, report func(id string, at, count int)) map[string][]int {
		m := make(map[string][]int, len(ids))
		var order []string
		for _, x := range ids {
			if _, seen := m[x.id]; !seen {
				order = append(order, x.id)
			}
			m[x.id] = append(m[x.id], x.at)
		}
		for _, id := range order {
			if at := m[id]; len(at) > 1 {
				for _, i := range at {
					report(id, i, len(at))
				}
			}
		}
		return m
	}
	poolIndex := index(pools, func(id string, i, n int) {
		add(load.Path{}.Key("nodePools").Index(i).Key("id"),
			"schema-duplicate-id: node pool id %s is declared %d times", q(id), n)
	})
	partIndex := index(parts, func(id string, i, n int) {
		add(slurmPath.Key("partitions").Index(i).Key("id"),
			"schema-duplicate-id: partition id %s is declared %d times", q(id), n)
	})
	index(sets, func(id string, i, n int) {
		add(slurmPath.Key("nodeSets").Index(i).Key("nodePoolId"),
			"schema-duplicate-id: node pool %s has %d nodeSets entries; merge them into one", q(id), n)
	})
	for _, p := range parts {
		for _, ref := range strs(partList.Items[p.at].Get("nodePoolIds"), (*load.Node).Str) {
			if _, ok := poolIndex[ref.id]; !ok {
				add(slurmPath.Key("partitions").Index(p.at).Key("nodePoolIds").Index(ref.at),
					"schema-reference: partition %s references node pool %s, which is not declared in nodePools", q(p.id), q(ref.id))
			}
		}
	}
	for _, s := range sets {
		if _, ok := poolIndex[s.id]; !ok {
			add(slurmPath.Key("nodeSets").Index(s.at).Key("nodePoolId"),
				"schema-reference: nodeSets entry references node pool %s, which is not declared in nodePools", q(s.id))
		}
	}
	if id, ok := slurm.Get("loginNodePoolId").Str(); ok {
		if _, ok := poolIndex[id]; !ok {
			add(slurmPath.Key("loginNodePoolId"), "schema-reference: loginNodePoolId %s is not declared in nodePools", q(id))
		}
	}
	if id, ok := slurm.Get("defaultPartitionId").Str(); ok {
		if _, ok := partIndex[id]; !ok {
			add(slurmPath.Key("defaultPartitionId"), "schema-reference: defaultPartitionId %s is not declared in partitions", q(id))
		}
	}
	return out
}

// q puts a data string between double quotes as the former CUE messages
// did ("\(id)" inside a CUE string): verbatim, without escaping.
func q(s string) string { return `"` + s + `"` }
