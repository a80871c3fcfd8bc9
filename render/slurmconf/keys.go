package slurmconf

import (
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// CanonicalKey returns the catalog's spelling of a key of scope, an alias
// with a single replacement key (Feature, Procs, Shared, CryptoType,
// SbcastParameters) resolved to that key, as Slurm reads it. known is
// false for a key the catalog does not have, returned as written.
func CanonicalKey(scope catalog.Scope, key string) (name string, known bool) {
	keys := catalog.Default()
	p, ok := keys.Lookup(scope, key)
	if !ok {
		return key, false
	}
	if p.Status == catalog.StatusAlias && p.Replacement != "" && !strings.ContainsAny(p.Replacement, "=,+ ") {
		if r, ok := keys.Lookup(scope, p.Replacement); ok {
			return r.Name, true
		}
	}
	return p.Name, true
}
