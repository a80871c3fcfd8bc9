package catalog

import (
	"sort"
	"strings"
)

// Catalog is an immutable set of slurm.conf parameters. Lookups are
// case-insensitive, like Slurm's own key matching. Use Default for the
// generated catalog.
type Catalog struct {
	// params is sorted by keys, then by scope.
	params []Param
	// keys holds the lower-cased names of params, in the same order.
	keys []string
}

// defaultCatalog wraps the generated tables; it is never modified.
var defaultCatalog = Catalog{params: genParams[:], keys: genKeys[:]}

// Default returns the catalog generated from data/*.tsv. It is shared and
// read-only; building it costs nothing at start-up because the tables are
// static composite literals.
func Default() *Catalog { return &defaultCatalog }

// Len returns the number of (scope, key) entries.
func (c *Catalog) Len() int { return len(c.params) }

// Lookup finds a key in a scope, ignoring case. Keys that were removed from
// Slurm are found too: use Param.StatusIn to tell whether a series knows
// them. The returned Param is shared and must not be modified.
func (c *Catalog) Lookup(scope Scope, name string) (*Param, bool) {
	i := c.search(name)
	for ; i < len(c.keys) && foldCompare(c.keys[i], name) == 0; i++ {
		if c.params[i].Scope == scope {
			return &c.params[i], true
		}
	}
	return nil, false
}

// ScopesOf returns every scope that has the key (ignoring case), in scope
// order. A linter can use it to say that a key "belongs in
// partitions[].config".
func (c *Catalog) ScopesOf(name string) []Scope {
	var out []Scope
	for i := c.search(name); i < len(c.keys) && foldCompare(c.keys[i], name) == 0; i++ {
		out = append(out, c.params[i].Scope)
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// Params returns the entries of one scope, sorted by lower-cased name.
func (c *Catalog) Params(scope Scope) []*Param {
	var out []*Param
	for i := range c.params {
		if c.params[i].Scope == scope {
			out = append(out, &c.params[i])
		}
	}
	return out
}

// Suggest returns the key of scope closest to name by case-insensitive edit
// distance ("PriortyType" gives "PriorityType"), or "" when nothing is close
// enough. An exact case-insensitive match returns Slurm's spelling.
func (c *Catalog) Suggest(scope Scope, name string) string {
	if p, ok := c.Lookup(scope, name); ok {
		return p.Name
	}
	lname := strings.ToLower(name)
	limit := suggestLimit(len(lname)) + 1
	// Rank by distance, then prefer live keys over aliases and deprecated
	// or removed ones (rank = 2*distance + penalty).
	best, bestRank := "", 2*limit
	for i := range c.params {
		p := &c.params[i]
		if p.Scope != scope {
			continue
		}
		d := editDistance(lname, c.keys[i], limit)
		if d >= limit {
			continue
		}
		rank := 2 * d
		if p.Status != StatusActive && p.Status != StatusLine {
			rank++
		}
		if rank < bestRank {
			best, bestRank = p.Name, rank
		}
	}
	return best
}

// search returns the first index whose key is not less than name (folded).
func (c *Catalog) search(name string) int {
	return sort.Search(len(c.keys), func(i int) bool { return foldCompare(c.keys[i], name) >= 0 })
}

// foldCompare compares an already lower-cased key with name, folding ASCII
// upper case in name, without allocating.
func foldCompare(key, name string) int {
	n := min(len(key), len(name))
	for i := 0; i < n; i++ {
		a, b := key[i], lowerASCII(name[i])
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(key) < len(name):
		return -1
	case len(key) > len(name):
		return 1
	}
	return 0
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// suggestLimit is the largest edit distance worth suggesting for a name of
// n bytes.
func suggestLimit(n int) int {
	switch {
	case n <= 3:
		return 1
	case n <= 6:
		return 2
	}
	return 3
}

// editDistance is the Levenshtein distance between a and b (both lower
// case), counting an adjacent transposition as one edit. It stops early and
// returns limit once the distance cannot be below limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin >= limit {
			return limit
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit)
}
