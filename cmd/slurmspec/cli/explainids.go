package cli

import (
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// diagCatalog is the diagnostic catalog (pipeline.Catalog): every id a
// finding can carry, of every stage. explain, rules, the completion of
// --disable and explain, and lint's SARIF rules read it; nothing in cli
// keeps ids of its own.
func diagCatalog() *ids.Catalog { return pipeline.Catalog() }
