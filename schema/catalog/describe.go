package catalog

import (
	"sort"
	"strings"
)

//go:generate go run ./internal/descgen/cmd

// Description returns the one-line description of a key of a scope, written
// for this project from the facts of slurm.conf(5) (data/descriptions.tsv),
// or "" when there is none. The lookup ignores case.
func Description(scope Scope, name string) string {
	key := scope.String() + "/" + strings.ToLower(name)
	i := sort.Search(len(genDescriptions), func(i int) bool { return genDescriptions[i].key >= key })
	if i < len(genDescriptions) && genDescriptions[i].key == key {
		return genDescriptions[i].text
	}
	return ""
}
