package fidelity

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// TestWarnedRulesAreCatalogued: every rule the oracle accepts a warning of
// (WarnedRules) is a lint rule of the diagnostic catalog, so a renamed or
// removed rule cannot leave a stale key that silently accepts nothing.
func TestWarnedRulesAreCatalogued(t *testing.T) {
	cat := pipeline.Catalog()
	for id := range WarnedRules() {
		if e, ok := cat.Lookup(id); !ok || e.Stage != ids.Lint {
			t.Errorf("WarnedRules names %q, which is no lint rule of the diagnostic catalog (%+v)", id, e)
		}
	}
}
