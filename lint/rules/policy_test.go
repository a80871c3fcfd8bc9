package rules_test

import (
	"fmt"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestKeyStatusFollowsPolicy: for every global and partition key of the
// catalog that is not plainly active in 22.05, 24.11 or 26.05 (removed, not
// yet added, fatal, defunct, unused, deprecated, an alias), lint reports it
// with the severity the severity policy gives its status
// (catalog.PolicySeverity): a defunct key is a warning like an unused one.
func TestKeyStatusFollowsPolicy(t *testing.T) {
	n := 0
	for _, v := range []catalog.Version{catalog.V2205, catalog.V2411, catalog.V2605} {
		for _, sc := range []catalog.Scope{catalog.ScopeGlobal, catalog.ScopePartition} {
			for _, p := range catalog.Default().Params(sc) {
				st := p.StatusIn(v)
				if !st.Problem() || st.Status == catalog.StatusLine || p.Kind == catalog.KindLine {
					continue
				}
				if _, reserved := managed.Lookup(p.Name); reserved {
					continue
				}
				if sc == catalog.ScopePartition && (p.Name == "Nodes" || p.Name == "Default") {
					continue // rendered-key-override and partition-default-key
				}
				s := spec{Config: fmt.Sprintf("%s: fidelity", p.Name)}
				if sc == catalog.ScopePartition {
					s = spec{Partitions: fmt.Sprintf("- {id: debug, nodePoolIds: [cpu], config: {%s: fidelity}}", p.Name)}
				}
				want := diag.Warning
				if catalog.PolicySeverity(st.Status.Treatment()) == catalog.SeverityError {
					want = diag.Error
				}
				if st.Status == catalog.StatusRemovedFatal && !p.FatalValue("fidelity") {
					want = diag.Warning
				}
				l := lintText(t, "spec.yaml", s.YAML(), v.String())
				found := false
				for _, d := range l {
					if (d.Rule == "config-key-version" || d.Rule == "deprecated-config-key") && d.Severity == want {
						found = true
					}
					if (d.Rule == "config-key-version" || d.Rule == "deprecated-config-key") && d.Severity != want {
						t.Errorf("%s %s %s (%s): %s, the policy says %s: %s", v, sc, p.Name, st, d.Severity, want, d.Message)
					}
				}
				if !found {
					t.Errorf("%s %s %s (%s): no %s from config-key-version or deprecated-config-key:\n%s", v, sc, p.Name, st, want, show(l, ""))
				}
				n++
			}
		}
	}
	t.Logf("%d keys checked", n)
}
