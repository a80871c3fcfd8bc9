// Package catalog is the catalog of slurm.conf parameters for Slurm 22.05
// through 26.05, and a value checker that follows Slurm's own parsers.
//
// The catalog is generated from the reference data in data/ (see
// data/README.md) into catalog_gen.go; it is the single source of truth for
// which keys exist in which scope and series, their value grammar, their
// status (deprecated, defunct, removed, ...) and the accepted enum, list and
// plugin values per series.
//
// Typical use:
//
//	cat := catalog.Default()
//	p, ok := cat.Lookup(catalog.ScopeGlobal, "PreemptMode")
//	if !ok {
//		// "did you mean": cat.Suggest(catalog.ScopeGlobal, name);
//		// "belongs in partitions": cat.ScopesOf(name)
//	}
//	st := p.StatusIn(catalog.V2205) // e.g. "defunct since 23.11", "unknown in 22.05 (added in 23.02)"
//	problems := catalog.CheckValue(p, catalog.V2205, "REQUEUE,PRIORITY")
//	// problems[0]: error: PreemptMode value "PRIORITY" is not valid in 22.05 (exists in 25.05+)
//	_, _ = st, problems
//
// Regenerate the catalog after editing data/ with:
//
//	go generate ./schema/catalog
package catalog

//go:generate go run ./internal/gen
