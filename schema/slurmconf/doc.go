// Package slurmconf is the catalog of slurm.conf parameters for Slurm 22.05
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
//	cat := slurmconf.Default()
//	p, ok := cat.Lookup(slurmconf.ScopeGlobal, "PreemptMode")
//	if !ok {
//		// "did you mean": cat.Suggest(slurmconf.ScopeGlobal, name);
//		// "belongs in partitions": cat.ScopesOf(name)
//	}
//	st := p.StatusIn(slurmconf.V2205) // e.g. "defunct since 23.11", "unknown in 22.05 (added in 23.02)"
//	problems := slurmconf.CheckValue(p, slurmconf.V2205, "REQUEUE,PRIORITY")
//	// problems[0]: error: PreemptMode value "PRIORITY" is not valid in 22.05 (exists in 25.05+)
//	_, _ = st, problems
//
// Regenerate the catalog after editing data/ with:
//
//	go generate ./schema/slurmconf
package slurmconf

//go:generate go run ./internal/gen
