package slurmconf

import (
	_ "embed"
	"strings"
	"sync"
)

// descriptionsTSV holds a one-line description of every key, written for
// this project from the facts of slurm.conf(5): scope, key, text.
//
//go:embed data/descriptions.tsv
var descriptionsTSV string

var descriptions = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(descriptionsTSV, "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || strings.HasPrefix(line, "#") || f[0] == "scope" {
			continue
		}
		m[f[0]+"/"+strings.ToLower(f[1])] = strings.TrimSpace(f[2])
	}
	return m
})

// Description returns the one-line description of a key of a scope, or
// "" when data/descriptions.tsv has none. The lookup ignores case.
func Description(scope Scope, name string) string {
	return descriptions()[scope.String()+"/"+strings.ToLower(name)]
}
